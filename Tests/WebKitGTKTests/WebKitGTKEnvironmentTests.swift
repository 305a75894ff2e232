#if os(Linux)
import Foundation
import Glibc
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

@MainActor
final class WebKitGTKEnvironmentTests: XCTestCase {
    func testPrepareProvidesADisplayAndIsIdempotent() async throws {
        try WebKitGTKEnvironment.prepare()
        let display = try XCTUnwrap(WebKitGTKEnvironment.display)
        XCTAssertTrue(
            display.hasPrefix(":"), "DISPLAY should be an X display, got a value of \(display.count) characters")
        try WebKitGTKEnvironment.prepare()
        XCTAssertEqual(WebKitGTKEnvironment.display, display)
    }

    func testMissingXvfbErrorNamesTheDebianPackage() async {
        let error = WebKitGTKEnvironmentError(EngineEnvironmentFailure(
            code: .xvfbMissing, field: "Xvfb", rule: "no DISPLAY is set and Xvfb is not on PATH",
            remedy: "install it with `sudo apt-get install xvfb`"))
        XCTAssertTrue(error.description.contains("Xvfb"))
        XCTAssertTrue(error.description.contains("apt-get install xvfb"))
        XCTAssertEqual(error.localizedDescription, error.description)
    }

    func testStartingXvfbReportsADisplayNumber() async throws {
        guard Xvfb.executable() != nil else { throw XCTSkip("Xvfb is not installed") }
        let server = try Xvfb.start().get()
        defer {
            kill(server.pid, SIGTERM)
            var status: Int32 = 0
            waitpid(server.pid, &status, 0)
        }
        XCTAssertTrue(server.display.dropFirst().allSatisfy(\.isNumber) && server.display.hasPrefix(":"))
        XCTAssertNotEqual(server.display, WebKitGTKEnvironment.display, "a second server must pick a free display")
    }
}
#endif
