import Foundation
import XCTest

@testable import XcodeRunner

final class JobConfigTests: XCTestCase {
    func decode(_ text: String) throws -> JobConfig { try JobConfig.decode(Data(text.utf8), name: "job.json") }

    func testAConfigSurvivesAnEncodeDecodeRoundTrip() throws {
        let config = JobConfig(
            xcodeVersion: "16.2", xcodeBuild: "16C5032a", runtime: "com.apple.CoreSimulator.SimRuntime.iOS-18-2",
            deviceType: "iPhone 16", udid: "218E4ECD-F530-413F-9A8F-65951D3C4DBF", project: "Client.xcodeproj",
            scheme: "Client",
            testTarget: "ClientTests")
        XCTAssertEqual(try JobConfig.decode(config.encoded(), name: "round trip"), config)
        XCTAssertTrue(String(decoding: config.encoded(), as: UTF8.self).hasSuffix("}\n"))
    }

    func testAMisspelledFieldIsRefusedByName() {
        XCTAssertThrowsError(try decode(#"{"shceme": "Client"}"#)) { error in
            let error = error as? XcodeRunnerError
            XCTAssertEqual(error?.code, .configInvalid)
            XCTAssertEqual(error?.field, "shceme")
            XCTAssertTrue(error?.remedy.contains("scheme") == true)
        }
    }

    func testANonStringFieldIsRefusedWithItsTypeNotItsValue() {
        XCTAssertThrowsError(try decode(#"{"udid": 12345}"#)) { error in
            let error = error as? XcodeRunnerError
            XCTAssertEqual(error?.field, "udid")
            XCTAssertEqual(error?.rule, "expected a string, found number")
            XCTAssertFalse(error?.description.contains("12345") ?? true)
        }
        XCTAssertThrowsError(try decode(#"{"udid": null}"#)) {
            XCTAssertEqual(($0 as? XcodeRunnerError)?.rule, "expected a string, found null")
        }
        XCTAssertThrowsError(try decode(#"{"udid": ["a"]}"#)) {
            XCTAssertEqual(($0 as? XcodeRunnerError)?.rule, "expected a string, found array")
        }
    }

    func testAUDIDThatIsNotAUUIDIsRefusedNamingTheFieldTheRuleAndTheRemedy() throws {
        let pinned = "218E4ECD-F530-413F-9A8F-65951D3C4DBF"
        for hostile in ["../../../../outside", pinned + ",arch=x86_64", pinned + "\n\u{1B}[32mok simulator", "booted"] {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["udid": hostile]), as: UTF8.self)
            XCTAssertThrowsError(try decode(json), hostile) { error in
                let error = error as? XcodeRunnerError
                XCTAssertEqual(error?.code, .configInvalid)
                XCTAssertEqual(error?.field, "udid")
                XCTAssertEqual(error?.rule, "a UDID must be a UUID (8-4-4-4-12 hexadecimal digits)")
                XCTAssertTrue(error?.remedy.contains("webbridge xcode pin") == true)
                XCTAssertFalse(error?.description.contains(hostile) ?? true, "the value is not echoed")
            }
        }
        XCTAssertEqual(try decode(#"{"udid": "\#(pinned.lowercased())"}"#).udid, pinned.lowercased())
        XCTAssertEqual(try decode(#"{"udid": ""}"#).udid, "", "an empty UDID is an unpinned one, reported by preflight")
    }

    func testBrokenJSONAndNonObjectsAreRefused() {
        XCTAssertThrowsError(try decode("{")) { XCTAssertEqual(($0 as? XcodeRunnerError)?.code, .configUnreadable) }
        XCTAssertThrowsError(try decode("[]")) { XCTAssertEqual(($0 as? XcodeRunnerError)?.code, .configInvalid) }
        XCTAssertThrowsError(try JobConfig.load(from: URL(fileURLWithPath: "/nonexistent/webbridge-job.json"))) {
            error in
            XCTAssertEqual((error as? XcodeRunnerError)?.code, .configUnreadable)
            XCTAssertTrue((error as? XcodeRunnerError)?.remedy.contains("webbridge xcode pin") == true)
        }
    }

    func testTheExampleClientConfigDecodes() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Examples/Client/webbridge-job.json")
        let config = try JobConfig.load(from: url.standardizedFileURL)
        XCTAssertEqual(config.scheme, "Client")
        XCTAssertEqual(config.testTarget, "ClientTests")
        XCTAssertEqual(config.onlyTesting, JobConfig.defaultOnlyTesting)
        // The CI recipe selects /Applications/Xcode_<xcodeVersion>.app before anything runs: it must be pinned.
        let version = try XCTUnwrap(config.xcodeVersion, "the example job pins no xcodeVersion (Xcode_null.app)")
        XCTAssertNotNil(version.wholeMatch(of: /\d+\.\d+(\.\d+)?/), version)
    }

    func testArtifactsSitBesideTheBundleAndSuffixesKeepTheExtension() {
        let artifacts = RunArtifacts(resultBundle: URL(fileURLWithPath: "/r/run.xcresult"))
        XCTAssertEqual(artifacts.buildLog.path, "/r/run.log")
        XCTAssertEqual(artifacts.manifest.path, "/r/run.manifest.json")
        XCTAssertEqual(artifacts.suffixed("-suite").resultBundle.path, "/r/run-suite.xcresult")
    }
}
