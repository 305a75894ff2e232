import Foundation
import TerminalEscape

/// One simulator as listed by `xcrun simctl list devices -j`.
public struct Simulator: Sendable, Equatable {
    public let udid: String
    public let name: String
    /// The runtime key the device is listed under, normalized to an identifier when possible.
    public let runtime: String
    /// `deviceTypeIdentifier` (Xcode 12 and later); older listings omit it.
    public let deviceTypeIdentifier: String?
    /// The device type's display name, when the listing carries `devicetypes`.
    public let deviceTypeName: String?
    public let isAvailable: Bool
    public let state: String?

    public init(
        udid: String, name: String, runtime: String, deviceTypeIdentifier: String? = nil,
        deviceTypeName: String? = nil, isAvailable: Bool = true, state: String? = nil
    ) {
        self.udid = udid
        self.name = name
        self.runtime = runtime
        self.deviceTypeIdentifier = deviceTypeIdentifier
        self.deviceTypeName = deviceTypeName
        self.isAvailable = isAvailable
        self.state = state
    }

    /// One line for listings: name, type, runtime, UDID.
    public var listing: String {
        let type = deviceTypeIdentifier.map { " (\($0))" } ?? ""
        let line = "\(name)\(type), \(runtime), UDID \(udid)\(isAvailable ? "" : ", unavailable")"
        return line.escapingControlCharacters
    }
}

/// Runtime identifiers and their display forms (`com.apple.CoreSimulator.SimRuntime.iOS-18-2` ~ `iOS 18.2`).
public enum RuntimeName {
    public static let prefix = "com.apple.CoreSimulator.SimRuntime."

    /// The identifier for an identifier or a display form such as `iOS 18.2`; nil when neither.
    public static func identifier(for text: String) -> String? {
        if text.hasPrefix(prefix) { return text }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isNumber || $0 == "." }), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !parts[1].contains("..")
        else { return nil }
        return prefix + parts[0] + "-" + parts[1].replacingOccurrences(of: ".", with: "-")
    }

    /// The display form derived from an identifier (`iOS-18-2` -> `iOS 18.2`); nil when not an identifier.
    public static func display(for identifier: String) -> String? {
        guard identifier.hasPrefix(prefix) else { return nil }
        let rest = identifier.dropFirst(prefix.count).split(separator: "-")
        guard rest.count >= 2 else { return nil }
        return rest[0] + " " + rest.dropFirst().joined(separator: ".")
    }
}

/// The simulators of one `simctl list … -j` output, in every layout from Xcode 10 to Xcode 26.
public struct SimulatorList: Sendable, Equatable {
    public let simulators: [Simulator]
    /// Display names of runtimes by identifier, when the listing carries `runtimes`.
    public let runtimeNames: [String: String]

    public init(simulators: [Simulator], runtimeNames: [String: String] = [:]) {
        self.simulators = simulators
        self.runtimeNames = runtimeNames
    }

    /// Parses simctl JSON; refuses text output and the runtime-only listings with a remedy.
    public init(json data: Data, source: String) throws(XcodeRunnerError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw XcodeRunnerError(
                .simctlUnreadable, field: source, rule: "not JSON (plain-text simctl output is not accepted)",
                remedy: "give the output of 'xcrun simctl list devices available -j'")
        }
        guard let root = object as? [String: Any], let devices = root["devices"] as? [String: Any] else {
            throw XcodeRunnerError(
                .simctlUnreadable, field: source, rule: "no \"devices\" object (a runtime-only listing?)",
                remedy: "give the output of 'xcrun simctl list devices available -j'")
        }
        var typeNames: [String: String] = [:]
        for case let type as [String: Any] in root["devicetypes"] as? [Any] ?? [] {
            if let id = type["identifier"] as? String, let name = type["name"] as? String { typeNames[id] = name }
        }
        var runtimeNames: [String: String] = [:]
        var unavailableRuntimes: Set<String> = []
        for case let runtime as [String: Any] in root["runtimes"] as? [Any] ?? [] {
            guard let id = runtime["identifier"] as? String else { continue }
            if let name = runtime["name"] as? String { runtimeNames[id] = name }
            if Self.availability(runtime) == false { unavailableRuntimes.insert(id) }
        }
        var simulators: [Simulator] = []
        for key in devices.keys.sorted() {
            // Before Xcode 10.1 the keys were display forms ("iOS 12.1"); normalize them.
            let runtime = RuntimeName.identifier(for: key) ?? key
            for case let device as [String: Any] in devices[key] as? [Any] ?? [] {
                guard let udid = device["udid"] as? String, let name = device["name"] as? String else { continue }
                let typeID = device["deviceTypeIdentifier"] as? String
                let available = (Self.availability(device) ?? true) && !unavailableRuntimes.contains(runtime)
                simulators.append(
                    Simulator(
                        udid: udid, name: name, runtime: runtime, deviceTypeIdentifier: typeID,
                        deviceTypeName: typeID.flatMap { typeNames[$0] }, isAvailable: available,
                        state: device["state"] as? String))
            }
        }
        self.init(simulators: simulators, runtimeNames: runtimeNames)
    }

    /// Reads `isAvailable` (bool, or "YES"/"NO" in some releases) or else `availability` ("(available)").
    static func availability(_ record: [String: Any]) -> Bool? {
        if let flag = record["isAvailable"] as? Bool { return flag }
        if let text = record["isAvailable"] as? String { return text == "YES" || text == "true" }
        if let text = record["availability"] as? String { return !text.contains("unavailable") }
        return nil
    }

    /// Whether `runtime` (identifier or exact display form) names the simulator's runtime.
    public func runtime(_ runtime: String, matches simulator: Simulator) -> Bool {
        if runtime == simulator.runtime { return true }
        if let name = runtimeNames[simulator.runtime], name == runtime { return true }
        if let display = RuntimeName.display(for: simulator.runtime), display == runtime { return true }
        return false
    }

    /// Whether `deviceType` (identifier, or the exact type name) names the simulator's device type.
    ///
    /// Names are compared whole: `iPhone 15` never matches `iPhone 15 Pro`. Without a type name in the
    /// listing (the usual `list devices` output), the device's own name is the only name there is.
    public static func deviceType(_ deviceType: String, matches simulator: Simulator) -> Bool {
        if let id = simulator.deviceTypeIdentifier, id == deviceType { return true }
        return (simulator.deviceTypeName ?? simulator.name) == deviceType
    }

    /// The single available simulator of `runtime` and `deviceType`, or an error listing every candidate.
    public func pick(runtime: String, deviceType: String) throws(XcodeRunnerError) -> Simulator {
        let available = simulators.filter(\.isAvailable)
        let matches = available.filter {
            self.runtime(runtime, matches: $0) && Self.deviceType(deviceType, matches: $0)
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            var near = available.filter {
                self.runtime(runtime, matches: $0) || Self.deviceType(deviceType, matches: $0)
            }
            if near.isEmpty { near = available }
            let list =
                near.isEmpty
                ? " (no available simulators at all)" : ":\n" + near.map { "  " + $0.listing }.joined(separator: "\n")
            throw XcodeRunnerError(
                .noMatchingSimulator, field: "--runtime/--device-type",
                rule: "no available simulator has exactly this runtime and device type; candidates\(list)",
                remedy:
                    "pass the exact runtime identifier and device type of one candidate, or create one with 'xcrun simctl create'"
            )
        }
        throw XcodeRunnerError(
            .severalMatchingSimulators, field: "--runtime/--device-type",
            rule: "\(matches.count) available simulators match; refusing to choose:\n"
                + matches.map { "  " + $0.listing }.joined(separator: "\n"),
            remedy: "delete the duplicates ('xcrun simctl delete <UDID>') or rename all but one, then pin again")
    }

    /// The simulator with this UDID, available or not; refused when the listing has it more than once.
    ///
    /// One UDID under two runtimes is an inconsistent device set: pin refuses it, and preflight says the same,
    /// because pinning again would pick the same UDID.
    public func soleSimulator(udid: String) throws(XcodeRunnerError) -> Simulator? {
        let listed = simulators.filter { $0.udid == udid }
        guard listed.count > 1 else { return listed.first }
        let runtimes = listed.map(\.runtime).sorted()
        let place =
            Set(runtimes).count == runtimes.count
            ? "under \(listed.count) runtimes" : "\(listed.count) times"
        throw XcodeRunnerError(
            .duplicateUDID, field: "udid",
            rule: "UDID \(udid) is listed \(place) (\(runtimes.joined(separator: ", ")))",
            remedy:
                "delete that simulator ('xcrun simctl delete \(udid)'), create a fresh one ('xcrun simctl create <name> <device type> <runtime>') and pin it"
        )
    }

    /// The simulator with this UDID, available or not.
    public func simulator(udid: String) -> Simulator? {
        simulators.first { $0.udid == udid }
    }
}
