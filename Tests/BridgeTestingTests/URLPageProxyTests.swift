#if os(Linux)
import BridgeContract
import BridgeTesting
import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

/// A stressed (or replayed) session of an `http:` page given by URL loads it through the check's own delaying
/// loopback proxy: the page and what it loads are held by path, the proxy stops with the session, and a frame of
/// the page's origin still counts as that origin for the contract's frame rule. The origin is a real HTTP server
/// (libsoup) on loopback; the engine is real.
@MainActor
final class URLPageProxyTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("url-proxy-\(UUID().uuidString)")

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The session's page as the engine loaded it (its first committed URL).
    final class Loaded {
        var url: URL?
    }

    func run(_ configuration: CheckConfiguration) async -> (SessionReport, URL?) {
        let loaded = Loaded()
        let report = await BridgeCheck.run(configuration) { session in
            session.onEvent = { [weak session] event in
                if case .didFinish = event, loaded.url == nil { loaded.url = session?.webView?.url }
            }
        }
        return (report, loaded.url)
    }

    /// The late-script race page by URL from an origin serving the race pages, its responses in `heldSlot` held
    /// 150 ms by the check's proxy.
    func lateScript(_ path: String, holding heldSlot: Int) throws -> (LoopbackHTTPServer, CheckConfiguration) {
        let folder = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/Stress", withExtension: nil))
        let origin = try LoopbackHTTPServer(folder: folder)
        var configuration = CheckConfiguration(
            page: .url(origin.url(path)), timeout: StressRunTests.stressTimeout, play: StressRunTests.afterReady)
        var delays = [Double](repeating: 0, count: 8)
        delays[heldSlot] = 150
        configuration.perturbation = Perturbation(responseDelays: delays)
        return (origin, configuration)
    }

    func testAReplayedURLPageIsHeldThroughTheProxyWhichStopsWithTheSession() async throws {
        // Slot 1 of 8 holds /late-receiver.js (FNV-1a of the path): the receiver arrives after ready.
        let (origin, held) = try lateScript("/late-script.html?v=1", holding: 1)
        defer { origin.stop() }
        var configuration = held
        let (report, loaded) = await run(configuration)
        XCTAssertEqual(report.nativeToPage.failure?.category, .pageDidNotAccept, "\(report.failures)")
        // /late-script.html falls in the same slot as the receiver's script: it is held too.
        XCTAssertEqual(report.perturbed?.last, "responses held: /late-script.html 150 ms, /late-receiver.js 150 ms")
        XCTAssertTrue(report.load.note.contains("from 127.0.0.1:\(origin.port)"), "the verdict names the origin")
        let started = report.timeline.first { $0.event == .loadStarted }?.note ?? ""
        XCTAssertEqual(
            started, "host 127.0.0.1, through the check's loopback proxy", "the timeline names the page's host")
        let proxy = try XCTUnwrap(loaded, "the page never finished loading")
        XCTAssertEqual(proxy.host, "127.0.0.1")
        XCTAssertNotEqual(proxy.port, origin.port, "the page loaded from the proxy, not its origin")
        XCTAssertEqual(proxy.path, "/late-script.html")
        XCTAssertEqual(proxy.query, "v=1")
        XCTAssertTrue(origin.requestedPaths.contains("/late-receiver.js"), "\(origin.requestedPaths)")
        XCTAssertEqual(
            LoopbackPort.connectError(try XCTUnwrap(proxy.port)), ECONNREFUSED, "the proxy outlived its session")
        // The same proxy holding the app's script instead: the receiver comes first and the page passes. (Holding
        // nothing would leave the two async scripts to the order they happen to arrive in: the race itself.)
        let app = LoopbackServer.slot(of: "/late-app.js", count: 8)
        XCTAssertNotEqual(app, 1, "the app's script falls in its own slot")
        var delays = [Double](repeating: 0, count: 8)
        delays[app] = 150
        configuration.perturbation = Perturbation(responseDelays: delays)
        let (appHeld, _) = await run(configuration)
        XCTAssertTrue(appHeld.passed, "\(appHeld.failures)")
    }

    /// The measure of a replay: the same held response, 20 times, fails 20 times (one stall allowed).
    func testAReplayOfAHeldURLPageResponseReproducesItsFailure() async throws {
        let (origin, configuration) = try lateScript(
            "/late-script.html", holding: LoopbackServer.slot(of: "/late-receiver.js", count: 8))
        defer { origin.stop() }
        var failed = 0
        for _ in 0..<20 where await run(configuration).0.nativeToPage.failure?.category == .pageDidNotAccept {
            failed += 1
        }
        print("url-proxy replay of /late-receiver.js held 150 ms: \(failed) of 20 failed")
        XCTAssertGreaterThanOrEqual(failed, 19, "replays of the held receiver script")
    }

    /// A same-origin frame posts ready; the contract allows frames of the page's origin. Through the proxy the
    /// frame's origin is the proxy's; the check judges it as the page's own.
    func testAFrameOfThePagesOriginStillCountsAsThatOriginThroughTheProxy() async throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data(
            """
            <!doctype html><meta charset="utf-8"><body>
            <script>window.bridgeReceive = function (m) { document.body.dataset.received = m.value; };</script>
            <iframe src="frame.html"></iframe></body>
            """.utf8
        ).write(to: scratch.appendingPathComponent("parent.html"))
        try Data(
            """
            <!doctype html><meta charset="utf-8">
            <script>window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});</script>
            """.utf8
        ).write(to: scratch.appendingPathComponent("frame.html"))
        let origin = try LoopbackHTTPServer(folder: scratch)
        defer { origin.stop() }
        var contract = BridgeContract.default
        contract.frames = FrameRule(origins: ["http://127.0.0.1:\(origin.port)"])
        var configuration = CheckConfiguration(
            page: .url(origin.url("/parent.html")), contract: contract, timeout: StressRunTests.stressTimeout)
        let (direct, _) = await run(configuration)
        XCTAssertTrue(direct.passed, "without the proxy: \(direct.failures)")
        configuration.perturbation = Perturbation(responseDelays: [0, 0, 0, 0, 0, 0, 0, 0])
        let (proxied, loaded) = await run(configuration)
        XCTAssertNotEqual(loaded?.port, origin.port, "the page did not load through the proxy")
        XCTAssertTrue(proxied.passed, "through the proxy: \(proxied.failures) \(proxied.rejections)")
    }
}
#endif
