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
        let error = EngineEnvironmentError(
            code: .xvfbMissing, field: "Xvfb", rule: "no DISPLAY is set and Xvfb is not on PATH",
            remedy: "install it with `sudo apt-get install xvfb`")
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

    func testXvfbIsFoundOnAnyPathEntryNotOnlyUsrBin() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw XCTSkip("Xvfb is not installed")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xvfb-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("Xvfb").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/bin/Xvfb")
        let found = Xvfb.executable(path: "/nonexistent:\(directory.path):/usr/bin")
        XCTAssertEqual(found, link, "the first PATH entry holding Xvfb wins")
        // And it is a real server: it starts and reports a display.
        let server = try Xvfb.start(executable: try XCTUnwrap(found)).get()
        defer {
            kill(server.pid, SIGTERM)
            var status: Int32 = 0
            waitpid(server.pid, &status, 0)
        }
        XCTAssertTrue(server.display.hasPrefix(":"))
    }

    func testSmallAddressSpaceLimitIsAnEnvironmentErrorNamingTheRemedy() async {
        let failure = WebKitGTKEnvironment.addressSpaceFailure(limitKB: 4_000_000)
        XCTAssertEqual(failure?.code, .addressSpaceLimited)
        XCTAssertEqual(failure?.field, "ulimit -v")
        XCTAssertTrue(failure?.remedy.contains("ulimit -v unlimited") ?? false)
        XCTAssertTrue(failure?.rule.contains("4000000 KB") ?? false)
        XCTAssertNil(WebKitGTKEnvironment.addressSpaceFailure(limitKB: nil), "no limit is fine")
        XCTAssertNil(WebKitGTKEnvironment.addressSpaceFailure(limitKB: 16 * 1024 * 1024))
        XCTAssertNil(WebKitGTKEnvironment.addressSpaceLimitKB(), "this test run has no address-space limit")
    }
}
#endif
