import Foundation
import XCTest

@testable import XcodeRunner

final class XcodeVersionTests: XCTestCase {
    func testObjcWarningsBeforeTheVersionAreSkipped() throws {
        let version = try XcodeVersion(parsing: String(contentsOf: xcode13Version, encoding: .utf8))
        XCTAssertEqual(version, XcodeVersion(version: "13.2.1", build: "13C100"))
        XCTAssertEqual(version.major, 13)
    }

    func testMajorOnlyAndBetaBuildsParse() throws {
        // Other real outputs quoted beside the recorded one (see its sidecar).
        XCTAssertEqual(
            try XcodeVersion(parsing: "Xcode 10\nBuild version 10B1008\n"),
            XcodeVersion(version: "10", build: "10B1008"))
        XCTAssertEqual(try XcodeVersion(parsing: "Xcode 11.0\nBuild version 11M392r\n").build, "11M392r")
    }

    func testOutputWithoutBothLinesIsRefusedWithARemedy() {
        for broken in [
            "", "xcode-select: error: tool 'xcodebuild' requires Xcode", "Xcode 16.2\n", "Build version 16C5032a\n",
        ] {
            XCTAssertThrowsError(try XcodeVersion(parsing: broken)) { error in
                XCTAssertEqual((error as? XcodeRunnerError)?.code, .versionUnreadable)
                XCTAssertTrue((error as? XcodeRunnerError)?.remedy.contains("xcode-select") == true)
            }
        }
    }
}
