#if os(Linux)
import BridgeContract
import BridgeTesting
import EngineTestSupport
import XCTest

/// `BridgeCheck` against real pages over real HTTP on loopback: a failed fetch is kept apart from a broken contract.
@MainActor
final class RealPageCheckTests: XCTestCase {
    /// Generous for cases that end on an event (a loaded 2-core machine must not turn them into timeouts).
    let timeout: TimeInterval = 10
    /// Short, for cases that wait the timeout out in full (a stalled response, a missing ready).
    let waitedOut: TimeInterval = 3

    func serveSite() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(routes: RealPageSite.routes(fixture: try FixtureVariant.fixture()))
    }

    func check(_ url: URL, timeout: TimeInterval? = nil) async -> SessionReport {
        await BridgeCheck.run(CheckConfiguration(page: .url(url), timeout: timeout ?? self.timeout))
    }

    /// Asserts the only failure is "page not deployed / request failed", naming the host and `cause`, never content.
    func assertUnreachable(
        _ report: SessionReport, host: String, cause: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let rendered = report.text()
        XCTAssertEqual(report.failures.map(\.category), [.pageUnreachable], rendered, file: file, line: line)
        let detail = report.load.failure?.detail ?? ""
        XCTAssertTrue(
            detail.contains(host), "the failure does not name the host \(host): \(detail)", file: file, line: line)
        XCTAssertTrue(detail.contains(cause), "the failure does not say '\(cause)': \(detail)", file: file, line: line)
        XCTAssertFalse(
            rendered.contains(RealPageSite.contentSentinel), "page content leaked:\n\(rendered)", file: file, line: line
        )
    }

    func testTheFixtureServedOverHTTPPasses() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.fixture))
        XCTAssertTrue(report.passed, report.text())
        XCTAssertEqual(report.load.note, "HTTP 200 from 127.0.0.1:\(server.port)")
        XCTAssertEqual(server.requestedPaths.first, RealPageSite.fixture, "the page was not fetched from the server")
    }

    func testA404IsAFailedRequestEvenWhenItsBodyKeepsTheBridge() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.notFound))
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "HTTP 404")
    }

    func testARedirectLoopIsAFailedRequest() async throws {
        let server = try LoopbackHTTPServer(routes: ["/loop": .redirect(to: "/loop")])
        defer { server.stop() }
        let report = await check(server.url("/loop"))
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "before any HTTP response")
    }

    func testARedirectToAFileURLIsAFailedRequestThatNamesIt() async throws {
        // WebKit ends the web process on it before any redirect or policy callback: the server is asked instead.
        let server = try LoopbackHTTPServer(routes: ["/home": .redirect(to: "file:///etc/hosts")])
        defer { server.stop() }
        let started = Date()
        let report = await check(server.url("/home"), timeout: 30)
        let seconds = Date().timeIntervalSince(started)
        assertUnreachable(
            report, host: "127.0.0.1:\(server.port)",
            cause: "redirect to a local file: 127.0.0.1:\(server.port) answered HTTP 302 with a redirect to a file: URL"
        )
        XCTAssertTrue(report.load.failure?.detail.contains("load the file with --page") == true, report.text())
        XCTAssertTrue(report.timeline.contains { $0.event == .processTerminated }, report.text())
        XCTAssertLessThan(seconds, 15, "the verdict took \(seconds) s of a 30 s timeout")
    }

    func testARedirectToADataOrAboutURLIsNamedNotARestrictedPort() async throws {
        // WebKit fails these loads with its restricted-port error (WebKitErrorDomain 103) on a port it allows.
        for (location, scheme) in [("data:text/html,hi", "a data:"), ("about:blank", "an about:")] {
            let server = try LoopbackHTTPServer(routes: ["/home": .redirect(to: location)])
            defer { server.stop() }
            let report = await check(server.url("/home"), timeout: 30)
            assertUnreachable(
                report, host: "127.0.0.1:\(server.port)",
                cause:
                    "redirect out of http(s): 127.0.0.1:\(server.port) answered HTTP 302 with a redirect to \(scheme) URL"
            )
            XCTAssertFalse(report.text().contains(location), "the Location is the server's: \(report.text())")
        }
    }

    func testARedirectToACustomSchemeKeepsWebKitsOwnError() async throws {
        // Its own error already says what happened: the server is not asked.
        let server = try LoopbackHTTPServer(routes: ["/app": .redirect(to: "myapp://open")])
        defer { server.stop() }
        let report = await check(server.url("/app"), timeout: 30)
        let detail = report.load.failure?.detail ?? ""
        XCTAssertFalse(detail.isEmpty, report.text())
        XCTAssertFalse(detail.contains("redirect out of http(s)"), detail)
    }

    func testAWebProcessKilledDuringAURLLoadKeepsItsWording() async throws {
        // No redirect: the page answered 200, and its process dies while the page still parses.
        let page = try FixtureVariant.replacingReady(
            with:
                #"window.webkit.messageHandlers.bridge.postMessage({kind: "loading"}); var end = Date.now() + 5000; while (Date.now() < end) {}"#
        )
        let server = try LoopbackHTTPServer(routes: ["/busy": .page(status: 200, html: page)])
        defer { server.stop() }
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/busy")), timeout: timeout)) {
            $0.onEvent = { event in if case .rejected = event { WebProcesses.killAll() } }
        }
        XCTAssertEqual(report.load.failure?.category, .pageLoadDidNotFinish, report.text())
        XCTAssertEqual(report.load.failure?.detail, "the web content process terminated during the load")
    }

    func testA500IsAFailedRequest() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.serverError))
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "HTTP 500")
    }

    func testARedirectToA404ReportsTheFinalStatus() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.redirectToNotFound))
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "HTTP 404")
        XCTAssertEqual(
            Array(server.requestedPaths.prefix(2)), [RealPageSite.redirectToNotFound, RealPageSite.redirectTarget],
            "the engine did not follow the redirect")
    }

    func testAPageThatLoadsButBreaksTheContractIsAContractFailure() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.contractBroken), timeout: waitedOut)
        XCTAssertTrue(report.load.passed, report.text())
        XCTAssertEqual(
            report.failures.map(\.category), [.nativeDidNotReceive], report.text())
        XCTAssertTrue(report.pageToNative.failure?.detail.contains("version: expected Number 1, found String") == true)
    }

    func testAResponseThatNeverComesIsNoResponse() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.stalled), timeout: waitedOut)
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "no response within the timeout")
        XCTAssertTrue(server.requestedPaths.contains(RealPageSite.stalled), "the request never reached the server")
    }

    func testAClosedPortIsConnectionRefused() async throws {
        let refused = try LoopbackHTTPServer.refusedPort()
        let report = await check(URL(string: "http://127.0.0.1:\(refused.port)/")!)
        assertUnreachable(report, host: "127.0.0.1:\(refused.port)", cause: "connection refused")
    }

    func testAPortTheEngineRefusesIsAFailedRequestNotAContractFailure() async throws {
        // Port 1 is on WebKit's restricted list: the load fails with Apple's WebKitErrorDomain 103 on both engines.
        let report = await check(URL(string: "http://127.0.0.1:1/")!)
        assertUnreachable(report, host: "127.0.0.1:1", cause: "restricted port")
    }

    func testAnUnresolvableHostIsADNSFailure() async throws {
        // RFC 6761: names under .invalid never resolve, with or without a network.
        let report = await check(URL(string: "http://webbridge-check.invalid/")!)
        assertUnreachable(report, host: "webbridge-check.invalid", cause: "DNS failure")
    }

    func testAnUntrustedCertificateIsATLSError() async throws {
        let server = try LoopbackHTTPServer(
            routes: RealPageSite.routes(fixture: try FixtureVariant.fixture()), untrustedHTTPS: true)
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.fixture))
        assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "TLS error")
    }

    func testAnUntrustedCertificateAfterADNSFailureIsStillATLSError() async throws {
        // WebKitGTK 2.50 sometimes cancels this request on its own after a DNS failure in the same network process
        // (about one run in three, now and then the resent request too); the engine module sends it again, up to
        // three times, so the check names the real cause.
        let server = try LoopbackHTTPServer(
            routes: RealPageSite.routes(fixture: try FixtureVariant.fixture()), untrustedHTTPS: true)
        defer { server.stop() }
        for _ in 0..<10 {
            let unresolved = await check(URL(string: "http://webbridge-check.invalid/")!)
            assertUnreachable(unresolved, host: "webbridge-check.invalid", cause: "DNS failure")
            let report = await check(server.url(RealPageSite.fixture))
            assertUnreachable(report, host: "127.0.0.1:\(server.port)", cause: "TLS error")
        }
    }

    func testASubresourceThatNeverArrivesIsAPageLoadThatDidNotFinish() async throws {
        // Decision (Docs/REAL-PAGE.md): the deployment answered 200, so this is the page's failure, exit 1.
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.stalledSubresource), timeout: waitedOut)
        let rendered = report.text()
        XCTAssertTrue(
            server.waitForRequest(RealPageSite.stalledImage, timeout: timeout), "the image was never requested")
        XCTAssertEqual(report.failures.map(\.category), [.pageLoadDidNotFinish], rendered)
        XCTAssertTrue(
            report.load.failure?.detail.contains("127.0.0.1:\(server.port) answered HTTP 200") == true, rendered)
        XCTAssertTrue(report.pageToNative.passed, "the ready came before the stalled image:\n\(rendered)")
        XCTAssertEqual(report.nativeToPage, .notRun("the page did not load"), rendered)
    }

    func testASubresourceThatAnswers404DoesNotFailTheCheck() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let report = await check(server.url(RealPageSite.missingSubresource))
        XCTAssertTrue(
            server.waitForRequest(RealPageSite.missingImage, timeout: timeout), "the image was never requested")
        XCTAssertTrue(report.passed, report.text())
        XCTAssertEqual(
            report.load.note, "HTTP 200 from 127.0.0.1:\(server.port)", "a subresource's status replaced the page's")
    }

    // MARK: The integration check (BridgePageIntegrationTests) with BRIDGE_PAGE_URL at the loopback server

    func testTheIntegrationCheckPassesOnTheFixtureServedOverLoopback() async throws {
        let server = try serveSite()
        defer { server.stop() }
        let failure = try await BridgePageIntegrationTests.run(environment: [
            "BRIDGE_PAGE_URL": server.url(RealPageSite.fixture).absoluteString, "BRIDGE_PAGE_TIMEOUT": "\(timeout)",
        ])
        XCTAssertNil(failure)
        XCTAssertEqual(
            server.requestedPaths, [RealPageSite.fixture], "the integration check did not fetch the page once")
    }

    func testTheIntegrationCheckTellsAFailedFetchFromABrokenContract() async throws {
        let server = try serveSite()
        defer { server.stop() }
        func run(_ path: String) async throws -> String {
            let failure = try await BridgePageIntegrationTests.run(environment: [
                "BRIDGE_PAGE_URL": server.url(path).absoluteString, "BRIDGE_PAGE_TIMEOUT": "\(waitedOut)",
            ])
            return try XCTUnwrap(failure, "\(path) must fail the integration check")
        }
        let notFound = try await run(RealPageSite.notFound)
        XCTAssertTrue(notFound.hasPrefix("the page could not be fetched"), notFound)
        XCTAssertTrue(notFound.contains("HTTP 404 from 127.0.0.1:\(server.port)"), notFound)
        XCTAssertFalse(notFound.contains(RealPageSite.contentSentinel), notFound)
        let broken = try await run(RealPageSite.contractBroken)
        XCTAssertTrue(broken.hasPrefix("the page was fetched and broke the bridge contract"), broken)
        XCTAssertTrue(broken.contains(FailureCategory.nativeDidNotReceive.rawValue), broken)
    }
}
#endif
