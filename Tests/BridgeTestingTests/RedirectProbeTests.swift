#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

@testable import BridgeTesting

/// What a server answers when the check asks it again without following redirects, over real HTTP on loopback.
final class RedirectProbeTests: XCTestCase {
    /// A step that starts when the test asks for it (test cases are made before the suite runs).
    var clock: CheckClock { CheckClock(timeout: 10) }

    func testARedirectToAFileURLThroughAnHTTPHopIsFoundAndNamedWithoutItsPath() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/old": .redirect(to: "/moved"), "/moved": .redirect(to: "file:///etc/webbridge-SECRET-PATH"),
        ])
        defer { server.stop() }
        let redirect = await RedirectProbe.firstRedirectLeavingHTTP(from: server.url("/old"), within: clock)
        XCTAssertEqual(
            redirect,
            RedirectProbe.Redirect(
                url: server.url("/moved"), status: 302, location: URL(string: "file:///etc/webbridge-SECRET-PATH")!))
        let failure = try XCTUnwrap(redirect?.failure)
        XCTAssertEqual(failure.category, .pageUnreachable)
        XCTAssertTrue(failure.detail.hasPrefix("redirect to a local file: 127.0.0.1:\(server.port) answered HTTP 302"))
        XCTAssertFalse(failure.detail.contains("SECRET-PATH") || failure.detail.contains("/etc"), failure.detail)
        XCTAssertEqual(server.requestedPaths, ["/old", "/moved"], "the probe followed the file: URL or asked twice")
    }

    func testAPageOrARedirectToAPageIsNoRedirect() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/page": .page(status: 200, html: "<p>page</p>"), "/to-page": .redirect(to: "/page"),
        ])
        defer { server.stop() }
        for path in ["/page", "/to-page", "/missing"] {
            let redirect = await RedirectProbe.firstRedirectLeavingHTTP(from: server.url(path), within: clock)
            XCTAssertNil(redirect, path)
        }
    }

    func testARedirectOutOfHTTPIsFoundAndNamedByItsSchemeAlone() async throws {
        let server = try LoopbackHTTPServer(routes: ["/app": .redirect(to: "myapp://open/SECRET")])
        defer { server.stop() }
        let redirect = await RedirectProbe.firstRedirectLeavingHTTP(from: server.url("/app"), within: clock)
        XCTAssertEqual(redirect?.location, URL(string: "myapp://open/SECRET"))
        let detail = try XCTUnwrap(redirect?.failure?.detail)
        XCTAssertTrue(detail.contains("answered HTTP 302 with a redirect to a myapp: URL"), detail)
        XCTAssertFalse(detail.contains("SECRET"), detail)
    }

    func testTheSchemeIsMatchedInAnyCaseAndThePagesSchemeIsNamed() throws {
        let redirect = RedirectProbe.Redirect(
            url: URL(string: "https://example.com/a")!, status: 307, location: URL(string: "FILE:///x")!)
        let detail = try XCTUnwrap(redirect.failure?.detail)
        XCTAssertTrue(detail.contains("example.com answered HTTP 307 with a redirect to a file: URL"), detail)
        XCTAssertTrue(detail.contains("a page loaded over https may not open"), detail)
    }

    func testARedirectLoopEndsAfterTheHopsWebKitAllows() async throws {
        let server = try LoopbackHTTPServer(routes: ["/loop": .redirect(to: "/loop")])
        defer { server.stop() }
        let redirect = await RedirectProbe.firstRedirectLeavingHTTP(from: server.url("/loop"), within: clock)
        XCTAssertNil(redirect)
        XCTAssertEqual(server.requestedPaths.count, RedirectProbe.hops)
    }

    func testAServerThatNeverAnswersEndsTheProbeAtTheClocksDeadline() async throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let started = Date()
        let redirect = await RedirectProbe.firstRedirectLeavingHTTP(
            from: server.url("/stall"), within: CheckClock(timeout: 1))
        let seconds = Date().timeIntervalSince(started)
        XCTAssertNil(redirect)
        XCTAssertGreaterThan(seconds, 0.9, "the probe gave up before the step's end")
        XCTAssertLessThan(seconds, 5, "the probe outlived the step's 1 s")
    }
}
#endif
