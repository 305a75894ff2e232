import Foundation
import XCTest

@testable import XcodeRunner

final class RunManifestTests: XCTestCase {
    func testAManifestRoundTripsAndAPartialOneIsRefused() throws {
        let manifest = RunManifest(
            xcodeVersion: "16.2", xcodeBuild: "16C5032a", runtime: "com.apple.CoreSimulator.SimRuntime.iOS-18-2",
            deviceType: "iPhone 16",
            udid: "U", argv: ["xcodebuild", "test"], workingDirectory: "/w", start: "2027-01-15T08:00:00Z",
            end: "2027-01-15T08:01:00Z",
            exitCode: 65, host: "mac", resultBundle: "/w/r.xcresult", buildLog: "/w/r.log", rerunOf: nil)
        let folder = try makeTemporaryFolder(self)
        let url = folder.appendingPathComponent("m.manifest.json")
        try manifest.encoded().write(to: url)
        XCTAssertEqual(try RunManifest.load(from: url), manifest)
        try Data(#"{"xcodeVersion": "16.2"}"#.utf8).write(to: url)
        XCTAssertThrowsError(try RunManifest.load(from: url)) {
            XCTAssertEqual(($0 as? XcodeRunnerError)?.code, .manifestUnreadable)
        }
    }
}

final class XcodebuildCommandTests: XCTestCase {
    func testTheShownCommandQuotesWhatAShellWouldSplit() {
        XCTAssertEqual(
            XcodebuildCommand.display([
                "xcodebuild", "-destination", "platform=iOS Simulator,id=X", "-scheme", "It's", "",
            ]),
            #"xcodebuild -destination 'platform=iOS Simulator,id=X' -scheme 'It'\''s' ''"#)
    }

    func testAWorkspaceIsBuiltInsteadOfTheProject() {
        var config = JobConfig(project: "A.xcodeproj", workspace: "A.xcworkspace", scheme: "A")
        let argv = XcodebuildCommand.test(
            config: config, udid: "U", onlyTesting: nil, resultBundle: URL(fileURLWithPath: "/r/b.xcresult"))
        XCTAssertEqual(
            argv,
            [
                "xcodebuild", "test", "-workspace", "A.xcworkspace", "-scheme", "A", "-destination",
                "platform=iOS Simulator,id=U", "-resultBundlePath", "/r/b.xcresult",
            ])
        config.workspace = nil
        XCTAssertEqual(
            XcodebuildCommand.test(
                config: config, udid: "U", onlyTesting: "T/C", resultBundle: URL(fileURLWithPath: "/b.xcresult"))[
                    2...3], ["-project", "A.xcodeproj"])
        XCTAssertEqual(
            XcodebuildCommand.replacingResultBundle(in: argv, with: URL(fileURLWithPath: "/new.xcresult"))?.last,
            "/new.xcresult")
        XCTAssertNil(
            XcodebuildCommand.replacingResultBundle(
                in: ["xcodebuild", "test"], with: URL(fileURLWithPath: "/n.xcresult")))
    }
}
