#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

@MainActor
final class EngineProcessTests: XCTestCase {
    func testStuckPageIsTerminatedWithItsSessionAndTheNextSessionLoads() async throws {
        var stuck: Session? = Session()
        let ready = expectation(description: "the page posted before it got stuck in a loop")
        stuck!.collector.received = ready
        stuck!.webView.loadHTMLString(
            "<script>window.webkit.messageHandlers.bridge.postMessage('ready'); setTimeout(() => { while (true) {} }, 0)</script>",
            baseURL: nil)
        await fulfillment(of: [ready], timeout: 10)
        let processes = WebProcesses.descendants()
        XCTAssertFalse(processes.isEmpty, "the page runs in a web process of this test")
        // What a BridgeTesting session that timed out does on teardown.
        WebKitGTKEnvironment.release(stuck!.webView, sessionTimedOut: true)
        stuck!.tearDown()
        stuck = nil
        XCTAssertEqual(
            WebProcesses.waitForExit(of: processes, timeout: 10), [],
            "the stuck web process did not exit within 10 s of its session's end")
        let next = Session()
        await next.load("<script>window.webkit.messageHandlers.bridge.postMessage('fresh')</script>", in: self)
        XCTAssertEqual(next.collector.bodies.first as? String, "fresh", "the next session gets a working process")
    }

    func testEndingASharedProcessWaitsForTheOtherSessionsSharingIt() async throws {
        var timedOut: Session? = Session()
        var concurrent: Session? = Session()
        await timedOut!.load("<p>timed out</p>", in: self)
        await concurrent!.load("<p>still running</p>", in: self)
        let shared = WebProcesses.descendants()
        WebKitGTKEnvironment.release(timedOut!.webView, sessionTimedOut: true)
        timedOut!.tearDown()
        timedOut = nil
        let alive = try await concurrent!.webView.evaluateJavaScript("document.body.textContent") as? String
        XCTAssertEqual(alive, "still running", "a concurrent session must not lose its process")
        XCTAssertFalse(concurrent!.recorder.events.contains("terminated"))
        let next = Session()
        await next.load("<p>fresh</p>", in: self)
        let fresh = Set(WebProcesses.descendants()).subtracting(shared)
        XCTAssertFalse(fresh.isEmpty, "a view created after the termination request gets a new process")
        concurrent!.tearDown()
        concurrent = nil
        XCTAssertEqual(
            WebProcesses.waitForExit(of: shared, timeout: 10), [],
            "the condemned process did not exit within 10 s of its last session's end")
    }

    func testViewWithItsOwnProcessTakesItDownWhenReleased() async throws {
        let before = Set(WebProcesses.descendants())
        var session: Session? = Session(store: .nonPersistent())
        await session!.load("<p>own process</p>", in: self)
        let started = Set(WebProcesses.descendants()).subtracting(before)
        XCTAssertFalse(started.isEmpty, "a non-persistent store's view gets its own web process")
        session!.tearDown()
        session = nil
        XCTAssertEqual(
            WebProcesses.waitForExit(of: Array(started), timeout: 10), [],
            "a web process started by this test still runs 10 s after its view was released")
    }
}
#endif
