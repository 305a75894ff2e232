#if os(Linux)
import Foundation
import EngineTestSupport
import XCTest

/// `webbridge check --url` against real HTTP on loopback: exit 4 for a failed fetch, exit 1 for a broken page.
///
/// The server runs on its own thread and GLib context in this test process, so it keeps answering while
/// `CLI.run` blocks the main thread waiting for the child `webbridge` process.
final class CheckURLCommandTests: XCTestCase {
    /// Generous for cases that end on an event; short for those that wait the timeout out in full.
    let timeout = "10"
    let waitedOut = "3"

    func serveSite(untrustedHTTPS: Bool = false) throws -> LoopbackHTTPServer {
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        return try LoopbackHTTPServer(routes: RealPageSite.routes(fixture: fixture), untrustedHTTPS: untrustedHTTPS)
    }

    func check(_ url: URL, _ extra: [String] = [], timeout: String? = nil) throws -> CLIResult {
        try CLI.run(["check", "--url", url.absoluteString, "--timeout", timeout ?? self.timeout] + extra)
    }

    /// Asserts exit 4 with the category, the host and `cause` in the output, and none of the page's content.
    func assertExitsFour(
        _ result: CLIResult, host: String, cause: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let output = result.stdout + result.stderr
        XCTAssertEqual(result.status, 4, output, file: file, line: line)
        XCTAssertTrue(output.contains("FAIL: page not deployed / request failed"), output, file: file, line: line)
        XCTAssertTrue(output.contains(host), "the output does not name \(host):\n\(output)", file: file, line: line)
        XCTAssertTrue(output.contains(cause), "the output does not say '\(cause)':\n\(output)", file: file, line: line)
        XCTAssertFalse(
            output.contains(RealPageSite.contentSentinel), "page content leaked:\n\(output)", file: file, line: line)
    }

    func testTheFixtureServedOverHTTPExitsZero() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.fixture))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("HTTP 200"), result.stdout)
        XCTAssertTrue(result.stdout.contains("PASS: both directions of the bridge hold"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("page at 127.0.0.1:\(server.port),"),
            "the header names the host and port:\n\(result.stdout)")
    }

    func testA404ExitsFour() throws {
        let server = try serveSite()
        defer { server.stop() }
        assertExitsFour(
            try check(server.url(RealPageSite.notFound)), host: "127.0.0.1:\(server.port)", cause: "HTTP 404")
    }

    func testA500ExitsFour() throws {
        let server = try serveSite()
        defer { server.stop() }
        assertExitsFour(
            try check(server.url(RealPageSite.serverError)), host: "127.0.0.1:\(server.port)", cause: "HTTP 500")
    }

    func testARedirectToA404ExitsFour() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.redirectToNotFound))
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "HTTP 404")
        XCTAssertTrue(server.requestedPaths.contains(RealPageSite.redirectTarget), "the redirect was not followed")
    }

    func testAPageThatBreaksTheContractExitsOneNotFour() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.contractBroken), timeout: waitedOut)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL: native did not receive the page's message"), result.stdout)
        XCTAssertFalse(result.stdout.contains("page not deployed"), result.stdout)
    }

    func testAStalledResponseExitsFourAsNoResponse() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.stalled), timeout: waitedOut)
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "no response within the timeout")
    }

    func testAClosedPortExitsFourAsConnectionRefused() throws {
        let refused = try LoopbackHTTPServer.refusedPort()
        let result = try check(URL(string: "http://127.0.0.1:\(refused.port)/")!)
        assertExitsFour(result, host: "127.0.0.1:\(refused.port)", cause: "connection refused")
    }

    func testAnUnresolvableHostExitsFourAsDNSFailure() throws {
        let result = try check(URL(string: "http://webbridge-check.invalid/")!)
        assertExitsFour(result, host: "webbridge-check.invalid", cause: "DNS failure")
    }

    func testAnUntrustedCertificateExitsFourAsTLSError() throws {
        let server = try serveSite(untrustedHTTPS: true)
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.fixture))
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "TLS error")
    }

    func testAStalledSubresourceExitsOneAsPageLoadDidNotFinish() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.stalledSubresource), timeout: waitedOut)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL: page load did not finish"), result.stdout)
        XCTAssertTrue(result.stdout.contains("127.0.0.1:\(server.port) answered HTTP 200"), result.stdout)
        XCTAssertTrue(server.requestedPaths.contains(RealPageSite.stalledImage), "the image was never requested")
    }

    func testJUnitNamesTheCategoryOfAFailedFetch() throws {
        let server = try serveSite()
        defer { server.stop() }
        let result = try check(server.url(RealPageSite.notFound), ["--format", "junit"])
        XCTAssertEqual(result.status, 4, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains(#"type="page not deployed / request failed""#), result.stdout)
        XCTAssertFalse(result.stdout.contains(RealPageSite.contentSentinel), result.stdout)
    }

    func testAURLThatIsNotHTTPIsAUsageError() throws {
        for url in ["ftp://127.0.0.1/", "127.0.0.1:8080", "http://"] {
            let result = try CLI.run(["check", "--url", url])
            XCTAssertEqual(result.status, 2, "\(url): \(result.stdout + result.stderr)")
            XCTAssertTrue(result.stderr.contains("--url must be an absolute http:// or https:// URL"), result.stderr)
        }
    }

    func testPageAndURLTogetherAreAUsageError() throws {
        let result = try CLI.run(["check", "--url", "http://127.0.0.1/", "--page", CheckCommandTests.fixture.path])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("--page and --url exclude each other"), result.stderr)
    }
}
#endif
