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

    func testA401AskingForCredentialsExitsFourAtOnce() throws {
        // Answered at once; it used to wait out the whole timeout as "no response within the timeout (-1001)":
        // WebKitGTK's stock handler waits for a user. WKWebView without a delegate goes on without credentials.
        let server = try LoopbackHTTPServer(routes: ["/private": .challenge(html: "<p>sign in</p>")])
        defer { server.stop() }
        let result = try CLI.run(
            ["check", "--url", server.url("/private").absoluteString, "--timeout", "600"], timeout: 60)
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "HTTP 401")
    }

    func testHTMLServedAsJSONIsNamedByItsContentType() throws {
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let server = try LoopbackHTTPServer(routes: ["/page": .file(contentType: "application/json", body: fixture)])
        defer { server.stop() }
        let result = try check(server.url("/page"), timeout: waitedOut)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("served as application/json, not HTML (its scripts do not run)"), result.stdout)
    }

    func testARedirectToAFileURLIsNamedInEveryReportAtOnce() throws {
        // WebKit ends the web content process on it and tells nothing else: it used to be "the web content
        // process terminated during the load", exit 1. Through one http hop, so the chain is followed.
        let server = try LoopbackHTTPServer(routes: [
            "/old": .redirect(to: "/moved"), "/moved": .redirect(to: "file:///etc/webbridge-SECRET-PATH.html"),
        ])
        defer { server.stop() }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let started = Date()
        let result = try CLI.run(
            ["check", "--url", server.url("/old").absoluteString, "--timeout", "30"]
                + ["junit", "html", "json"].flatMap { ["--report", "\($0)=\(reports.path)/report.\($0)"] },
            timeout: 60)
        let seconds = Date().timeIntervalSince(started)
        let expected =
            "127.0.0.1:\(server.port) answered HTTP 302 with a redirect to a file: URL, which a page loaded over http may not open; WebKit ended the web content process. Remedy: redirect to an http(s) address, or load the file with --page"
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "redirect to a local file: " + expected)
        XCTAssertLessThan(seconds, 15, "the verdict took \(seconds) s of a 30 s timeout")
        let files = try ["junit", "html", "json"].map {
            try String(contentsOfFile: "\(reports.path)/report.\($0)", encoding: .utf8)
        }
        for (name, text) in zip(["junit", "html", "json"], files) {
            XCTAssertTrue(text.contains("answered HTTP 302 with a redirect to a file: URL"), "\(name):\n\(text)")
            XCTAssertFalse(
                text.contains("SECRET-PATH") || text.contains("/etc"), "\(name) shows the Location:\n\(text)")
        }
        XCTAssertFalse(result.stdout.contains("SECRET-PATH"), result.stdout)
        XCTAssertEqual(
            try JUnitCases(xml: Data(files[0].utf8)).failureTypes.first, "page not deployed / request failed")
        let load = try XCTUnwrap(
            ((try SchemaCheck.onlyPage(try SchemaCheck.validReport(files[2]))["sessions"] as? [[String: Any]])?
                .first?["load"] as? [String: Any])?["failure"] as? [String: Any], files[2])
        XCTAssertEqual(load["category"] as? String, "page-unreachable")
        XCTAssertEqual(load["detail"] as? String, "redirect to a local file: " + expected)
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

    func testARedirectLoopExitsFour() throws {
        let server = try LoopbackHTTPServer(routes: ["/loop": .redirect(to: "/loop")])
        defer { server.stop() }
        let result = try check(server.url("/loop"))
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "load failed")
    }

    func testAConnectionClosedWithoutAResponseExitsFour() throws {
        let server = try RawTCPServer(reply: [])
        defer { server.stop() }
        let result = try check(server.url)
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "load failed")
        XCTAssertGreaterThan(server.answered, 0, "the engine never connected")
    }

    func testAReplyThatIsNotHTTPExitsFour() throws {
        let server = try RawTCPServer(reply: Array("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n\u{1B}[31mnot http\r\n".utf8))
        defer { server.stop() }
        let result = try check(server.url)
        assertExitsFour(result, host: "127.0.0.1:\(server.port)", cause: "load failed")
    }

    func testACrashedNetworkProcessExitsFour() throws {
        let server = try serveSite()
        defer { server.stop() }
        let run = try RunningCLI(["check", "--url", server.url(RealPageSite.stalled).absoluteString, "--timeout", "30"])
        XCTAssertTrue(
            server.waitForRequest(RealPageSite.stalled, timeout: 30), "the engine never requested the stalled page")
        let killed = NetworkProcesses.kill(descendantsOf: run.process.processIdentifier)
        XCTAssertGreaterThan(killed, 0, "no network process of webbridge was found to kill")
        let result = try run.wait(timeout: 60)
        XCTAssertEqual(result.status, 4, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL: page not deployed / request failed"), result.stdout)
        XCTAssertTrue(result.stdout.contains("before any HTTP response"), result.stdout)
    }

    func testAPortOutOfRangeOrAHostWithEscapesIsAUsageError() throws {
        for (url, message) in [
            ("http://127.0.0.1:99999/", "--url: port 99999 is out of range"),
            ("http://exa%00mple.com/", "--url: the host \"exa%00mple.com\" has %-escapes"),
            ("http://127.0.0.1:0/", "--url: port 0 is out of range"),
        ] {
            let result = try CLI.run(["check", "--url", url])
            XCTAssertEqual(result.status, 2, "\(url): \(result.stdout + result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(url): \(result.stderr)")
        }
    }

    func testPageAndURLTogetherAreASuiteOfTwoPages() throws {
        let refused = try LoopbackHTTPServer.refusedPort()
        let result = try CLI.run([
            "check", "--url", "http://127.0.0.1:\(refused.port)/", "--page", CheckCommandTests.fixture.path,
        ])
        XCTAssertEqual(result.status, 4, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("== page 1 of 2: 127.0.0.1:\(refused.port)/"), result.stdout)
        XCTAssertTrue(result.stdout.contains("pages: 1 passed, 1 failed (of 2)"), result.stdout)
    }
}

/// The engine's network processes started by a process, found through /proc.
enum NetworkProcesses {
    /// Kills with SIGKILL, as a crash would, every `WebKitNetworkProcess` descended from `root`; returns how many.
    static func kill(descendantsOf root: pid_t) -> Int {
        let pids = WebProcesses.descendants(of: root, named: ["WebKitNetworkPr"])
        for pid in pids { Glibc.kill(pid, SIGKILL) }
        return pids.count
    }
}
#endif
