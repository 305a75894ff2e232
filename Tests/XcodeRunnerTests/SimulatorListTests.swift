import Foundation
import XCTest

@testable import XcodeRunner

final class SimulatorListTests: XCTestCase {
    func list(_ name: String) throws -> SimulatorList {
        try SimulatorList(json: Realdata.data("simctl/" + name), source: name)
    }

    /// Available devices per real listing, counted independently (by a Python one-liner over the same files).
    let availableCounts: [String: Int] = [
        "applecli_simctl-list-json_xcode15.4_RESERIALIZED.json": 25,
        "codemagic_simctl-list-devices_xcode12.json": 54,
        "devicefinder_simctl-list-devices_iphone12-booted_EXTRACTED.json": 27,
        "fastlane_simctl-devices-json_threepartversion_TRIMMED.json": 3,
        "fastlane_simctl-devices-json_xcode10_booted_unavailable_TRIMMED.json": 3,
        "node-simctl_devices-with-unavailable-legacy-keys.json": 16,
        "node-simctl_devices-with-unavailable.json": 16,
        "node-simctl_devices_xcode10.1.json": 16,
        "openbakery_simctl-list-xcode12-full.json": 49,
        "openbakery_simctl-list-xcode13-full.json": 35,
        "openbakery_simctl-list-xcode14-full.json": 10,
        "openbakery_simctl-list-xcode15.json": 23,
        "openbakery_simctl-list-xcode16.json": 32,
    ]

    func testEveryDeviceListingLayoutIsReadWithItsAvailability() throws {
        let files = try Realdata.files("simctl", ext: "json").map { ($0 as NSString).lastPathComponent }
        var checked = 0
        for file in files where availableCounts[file] != nil {
            let parsed = try list(file)
            XCTAssertEqual(parsed.simulators.filter(\.isAvailable).count, availableCounts[file], file)
            XCTAssertFalse(parsed.simulators.contains { $0.udid.isEmpty || $0.name.isEmpty }, file)
            // Every runtime is an identifier, including the pre-Xcode-10.1 "iOS 12.1" keys.
            XCTAssertTrue(parsed.simulators.allSatisfy { $0.runtime.hasPrefix(RuntimeName.prefix) }, file)
            checked += 1
        }
        XCTAssertEqual(checked, availableCounts.count, "a listed realdata file is missing")
    }

    func testRuntimeOnlyListingsAndPlainTextAreRefusedWithTheCommandToUse() throws {
        for file in [
            "fastlane_simctl-list-runtimes-json_xcode15.json", "xcodes_simctl-runtime-list-json_xcode14.json",
            "xcodes_simctl-runtime-list-json_with-unusable.json", "openbakery_simctl-list-xcode11.txt",
            "fastlane_simctl-list-devices-text_xcode15.txt",
        ] {
            XCTAssertThrowsError(try list(file), file) { error in
                let error = error as? XcodeRunnerError
                XCTAssertEqual(error?.code, .simctlUnreadable, file)
                XCTAssertTrue(error?.remedy.contains("xcrun simctl list devices available -j") == true, file)
            }
        }
    }

    func testExactRuntimeIdentifierAndDeviceTypePinOneUDID() throws {
        let parsed = try list("openbakery_simctl-list-xcode16.json")
        let byIdentifiers = try parsed.pick(
            runtime: "com.apple.CoreSimulator.SimRuntime.iOS-17-5",
            deviceType: "com.apple.CoreSimulator.SimDeviceType.iPhone-15")
        XCTAssertEqual(byIdentifiers.udid, "218E4ECD-F530-413F-9A8F-65951D3C4DBF")
        let byNames = try parsed.pick(runtime: "iOS 17.5", deviceType: "iPhone 15")
        XCTAssertEqual(byNames, byIdentifiers)
    }

    func testANameThatIsAPrefixOfOthersMatchesOnlyItself() throws {
        // iOS 17.5 holds iPhone 15, iPhone 15 Plus, iPhone 15 Pro and iPhone 15 Pro Max.
        let parsed = try list("openbakery_simctl-list-xcode16.json")
        let names = parsed.simulators.filter { $0.runtime.hasSuffix("iOS-17-5") && $0.name.hasPrefix("iPhone 15") }.map(
            \.name)
        XCTAssertGreaterThan(names.count, 1)
        XCTAssertEqual(try parsed.pick(runtime: "iOS 17.5", deviceType: "iPhone 15").name, "iPhone 15")
        XCTAssertThrowsError(try parsed.pick(runtime: "iOS 17.5", deviceType: "iPhone 15 P")) { error in
            let error = error as? XcodeRunnerError
            XCTAssertEqual(error?.code, .noMatchingSimulator)
            // Every candidate is listed with its UDID.
            XCTAssertTrue(error?.rule.contains("218E4ECD-F530-413F-9A8F-65951D3C4DBF") == true)
        }
        XCTAssertThrowsError(
            try parsed.pick(runtime: "iOS 17", deviceType: "iPhone 15"), "a runtime prefix must not match")
    }

    func testTheSameNameInTwoRuntimesIsDecidedByThePinnedRuntime() throws {
        let parsed = try list("openbakery_simctl-list-xcode16.json")
        XCTAssertEqual(
            try parsed.pick(runtime: "iOS 17.5", deviceType: "iPhone 15").udid, "218E4ECD-F530-413F-9A8F-65951D3C4DBF")
        XCTAssertEqual(
            try parsed.pick(runtime: "iOS 18.0", deviceType: "iPhone 15").udid, "547F6011-D095-471A-8FB1-0BE2C0BA00B4")
    }

    func testUnavailableDevicesAreIgnored() throws {
        let parsed = try list("openbakery_simctl-list-xcode16.json")
        // iPhone 15 on iOS 17.4 and Apple Vision Pro on xrOS 1.1 exist but are unavailable.
        XCTAssertNotNil(parsed.simulator(udid: "E3D997E5-7AF5-4D3C-9A1E-31B96E8380E6"))
        XCTAssertThrowsError(try parsed.pick(runtime: "iOS 17.4", deviceType: "iPhone 15")) { error in
            XCTAssertEqual((error as? XcodeRunnerError)?.code, .noMatchingSimulator)
            XCTAssertFalse(
                (error as? XcodeRunnerError)?.rule.contains("E3D997E5") ?? true,
                "an unavailable device offered as a candidate")
        }
        XCTAssertEqual(
            try parsed.pick(runtime: "com.apple.CoreSimulator.SimRuntime.xrOS-1-2", deviceType: "Apple Vision Pro")
                .udid,
            "ABECF68B-BC4C-44B3-BC32-F9AAC93692CB")
        XCTAssertThrowsError(
            try parsed.pick(runtime: "com.apple.CoreSimulator.SimRuntime.xrOS-1-1", deviceType: "Apple Vision Pro"))
    }

    func testUnavailableRuntimeDuplicatesWithTheSameNameDoNotCountAsSeveral() throws {
        // node-simctl: the same names on iOS 12.1 (available) and iOS 12.2 ("(unavailable, runtime profile not found)").
        let parsed = try list("node-simctl_devices-with-unavailable.json")
        XCTAssertEqual(try parsed.pick(runtime: "iOS 12.1", deviceType: "iPhone 6").udid.prefix(8), "1C7AB8B9")
        XCTAssertThrowsError(try parsed.pick(runtime: "iOS 12.2", deviceType: "iPhone 6"))
    }

    func testLegacyDisplayKeysMatchTheIdentifierAndTheDisplayForm() throws {
        let parsed = try list("node-simctl_devices-with-unavailable-legacy-keys.json")
        let byDisplay = try parsed.pick(runtime: "iOS 12.1", deviceType: "iPhone 6")
        let byIdentifier = try parsed.pick(
            runtime: "com.apple.CoreSimulator.SimRuntime.iOS-12-1", deviceType: "iPhone 6")
        XCTAssertEqual(byDisplay, byIdentifier)
        XCTAssertEqual(byDisplay.runtime, "com.apple.CoreSimulator.SimRuntime.iOS-12-1")
    }

    func testTheAvailabilityStringAloneDecidesWhenIsAvailableIsAbsent() throws {
        // Derived from the real node-simctl records by dropping isAvailable, leaving "availability" as before Xcode 10.1.
        var root = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Realdata.data("simctl/node-simctl_devices-with-unavailable.json"))
                as? [String: Any])
        var devices = try XCTUnwrap(root["devices"] as? [String: [[String: Any]]])
        for key in devices.keys {
            devices[key] = devices[key]?.map {
                var record = $0; record["isAvailable"] = nil; return record
            }
        }
        root["devices"] = devices
        let parsed = try SimulatorList(json: JSONSerialization.data(withJSONObject: root), source: "derived")
        XCTAssertEqual(parsed.simulators.filter(\.isAvailable).count, 16)
        XCTAssertThrowsError(try parsed.pick(runtime: "iOS 12.2", deviceType: "iPhone 6"))
    }

    func testSeveralMatchesInOneRuntimeAreRefusedListingEveryUDID() throws {
        // Derived: a second real record of the same device type in the same runtime, as 'simctl create' would add.
        var root = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Realdata.data("simctl/openbakery_simctl-list-xcode16.json"))
                as? [String: Any])
        var devices = try XCTUnwrap(root["devices"] as? [String: [[String: Any]]])
        let key = "com.apple.CoreSimulator.SimRuntime.iOS-17-5"
        var copy = try XCTUnwrap(devices[key]?.first { $0["name"] as? String == "iPhone 15" })
        copy["udid"] = "0D0D0D0D-1111-2222-3333-444444444444"
        devices[key]?.append(copy)
        root["devices"] = devices
        let parsed = try SimulatorList(json: JSONSerialization.data(withJSONObject: root), source: "derived")
        XCTAssertThrowsError(try parsed.pick(runtime: "iOS 17.5", deviceType: "iPhone 15")) { error in
            let error = error as? XcodeRunnerError
            XCTAssertEqual(error?.code, .severalMatchingSimulators)
            XCTAssertTrue(error?.rule.contains("218E4ECD-F530-413F-9A8F-65951D3C4DBF") == true)
            XCTAssertTrue(error?.rule.contains("0D0D0D0D-1111-2222-3333-444444444444") == true)
        }
    }

    func testRuntimeNamesFromTheListingAreAcceptedExactly() throws {
        // The full listing names xrOS runtimes "visionOS 1.2"; the three-part runtime keeps its key's display form.
        let full = try list("openbakery_simctl-list-xcode16.json")
        XCTAssertEqual(full.runtimeNames["com.apple.CoreSimulator.SimRuntime.xrOS-1-2"], "visionOS 1.2")
        XCTAssertEqual(
            try full.pick(runtime: "visionOS 1.2", deviceType: "Apple Vision Pro").udid,
            "ABECF68B-BC4C-44B3-BC32-F9AAC93692CB")
        let threePart = try list("fastlane_simctl-devices-json_threepartversion_TRIMMED.json")
        XCTAssertEqual(
            try threePart.pick(runtime: "iOS 26.3", deviceType: "iPhone 17 Pro").udid,
            "E2FB1234-ABCD-4567-8901-234567890ABC")
        XCTAssertThrowsError(try threePart.pick(runtime: "iOS 26.3.1", deviceType: "iPhone 17 Pro"))
    }

    func testRuntimeNamesConvertBothWays() {
        XCTAssertEqual(RuntimeName.identifier(for: "iOS 18.2"), "com.apple.CoreSimulator.SimRuntime.iOS-18-2")
        XCTAssertEqual(RuntimeName.display(for: "com.apple.CoreSimulator.SimRuntime.iOS-18-2"), "iOS 18.2")
        XCTAssertNil(RuntimeName.identifier(for: "iOS"))
        XCTAssertNil(RuntimeName.identifier(for: "iOS 18..2"))
    }
}
