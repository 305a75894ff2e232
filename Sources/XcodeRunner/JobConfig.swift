import Foundation

/// The committed job config that pins Xcode, the simulator and the test to run.
///
/// Stored as JSON (default `webbridge-job.json`); relative paths are relative to the config's folder.
public struct JobConfig: Codable, Sendable, Equatable {
    /// The default file name, looked up in the current folder.
    public static let defaultFileName = "webbridge-job.json"
    /// The bridge tests run by default.
    public static let defaultOnlyTesting = "ClientTests/BridgeContractTests"

    /// Pinned Xcode marketing version, e.g. `16.2`.
    public var xcodeVersion: String?
    /// Pinned Xcode build, e.g. `16C5032a`.
    public var xcodeBuild: String?
    /// Pinned simulator runtime identifier, e.g. `com.apple.CoreSimulator.SimRuntime.iOS-18-2`.
    public var runtime: String?
    /// Pinned device type, as given to `pin` (identifier or exact name).
    public var deviceType: String?
    /// Pinned simulator UDID.
    public var udid: String?
    /// The `.xcodeproj` holding the scheme and the test target.
    public var project: String?
    /// An optional `.xcworkspace` to build instead of the project (the project is still inspected).
    public var workspace: String?
    public var scheme: String?
    public var testTarget: String?
    /// The `-only-testing:` identifier.
    public var onlyTesting: String?
    /// File name of the HTML fixture that must be in the test target's resources.
    public var fixture: String?
    /// Folder receiving result bundles, build logs and manifests.
    public var results: String?

    public init(
        xcodeVersion: String? = nil, xcodeBuild: String? = nil, runtime: String? = nil,
        deviceType: String? = nil, udid: String? = nil, project: String? = nil, workspace: String? = nil,
        scheme: String? = nil, testTarget: String? = nil, onlyTesting: String? = JobConfig.defaultOnlyTesting,
        fixture: String? = "BridgeFixture.html", results: String? = "webbridge-results"
    ) {
        self.xcodeVersion = xcodeVersion
        self.xcodeBuild = xcodeBuild
        self.runtime = runtime
        self.deviceType = deviceType
        self.udid = udid
        self.project = project
        self.workspace = workspace
        self.scheme = scheme
        self.testTarget = testTarget
        self.onlyTesting = onlyTesting
        self.fixture = fixture
        self.results = results
    }

    static let knownKeys: Set<String> = [
        "xcodeVersion", "xcodeBuild", "runtime", "deviceType", "udid", "project", "workspace",
        "scheme", "testTarget", "onlyTesting", "fixture", "results",
    ]

    /// Reads a config, refusing unknown keys (a typo would otherwise silently drop a pin).
    public static func load(from url: URL) throws(XcodeRunnerError) -> JobConfig {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XcodeRunnerError(
                .configUnreadable, field: url.path, rule: "the job config does not exist or cannot be read",
                remedy: "run 'webbridge xcode pin' to create it, or pass --config FILE")
        }
        return try decode(data, name: url.path)
    }

    /// Decodes config JSON; `name` labels errors.
    public static func decode(_ data: Data, name: String) throws(XcodeRunnerError) -> JobConfig {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw XcodeRunnerError(
                .configUnreadable, field: name, rule: "the job config is not valid JSON",
                remedy: "fix the JSON syntax or re-create the file with 'webbridge xcode pin'")
        }
        guard let dictionary = object as? [String: Any] else {
            throw XcodeRunnerError(
                .configInvalid, field: name, rule: "the job config must be a JSON object",
                remedy: "write the config as an object of string fields")
        }
        for key in dictionary.keys.sorted() {
            guard knownKeys.contains(key) else {
                throw XcodeRunnerError(
                    .configInvalid, field: key, rule: "unknown field in the job config",
                    remedy: "use only: \(knownKeys.sorted().joined(separator: ", "))")
            }
            if !(dictionary[key] is String) || dictionary[key] is NSNull {
                throw XcodeRunnerError(
                    .configInvalid, field: key, rule: "expected a string, found \(jsonTypeName(dictionary[key]))",
                    remedy: "write \(key) as a JSON string")
            }
        }
        // The UDID reaches file names and `-destination`: only a UUID is accepted (empty means not pinned yet).
        if let udid = dictionary["udid"] as? String, !udid.isEmpty {
            try UDID.validate(
                udid, field: "udid", code: .configInvalid,
                remedy: "pin with 'webbridge xcode pin --runtime … --device-type …', which writes the UDID simctl lists"
            )
        }
        do {
            return try JSONDecoder().decode(JobConfig.self, from: data)
        } catch {
            throw XcodeRunnerError(
                .configInvalid, field: name, rule: "the job config does not decode",
                remedy: "compare it with Examples/Client/webbridge-job.json")
        }
    }

    /// The config as stable, pretty JSON (sorted keys, trailing newline) for committing.
    public func encoded() -> Data { stableJSON(self) }
}

/// Pretty JSON with sorted keys, unescaped slashes and a trailing newline, so committed files diff cleanly.
func stableJSON(_ value: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Configs and manifests hold plain strings, numbers and arrays of them: encoding them cannot fail.
    var data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    data.append(contentsOf: Array("\n".utf8))
    return data
}

/// The JSON type of a value, for messages that show structure and never values.
func jsonTypeName(_ value: Any?) -> String {
    switch value {
    case nil, is NSNull: return "null"
    case let number as NSNumber: return String(cString: number.objCType) == "c" ? "boolean" : "number"
    case is Bool: return "boolean"
    case is String: return "string"
    case is [Any]: return "array"
    case is [String: Any]: return "object"
    default: return "unknown"
    }
}
