#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest
import WebKitGTK
import WebKitGTKHost
import WebKitGTKSupport

/// The web process a stressed session starves: stopped while held, running again once the last hold is released.
@MainActor
final class PausedProcessesTests: XCTestCase {
    func testAHeldWebProcessIsStoppedUntilTheLastHoldIsReleased() async throws {
        let session = Session()
        defer { session.tearDown() }
        await session.load("<script>window.webkit.messageHandlers.bridge.postMessage('up')</script>", in: self)
        let processes = WebProcesses.descendants()
        XCTAssertFalse(processes.isEmpty, "the page runs in a web process of this test")
        defer { PausedProcesses.resumeAll() }
        let held = PausedProcesses.hold()
        XCTAssertEqual(held.sorted(), processes.sorted())
        XCTAssertEqual(PausedProcesses.hold().sorted(), processes.sorted(), "a second session pauses too")
        for pid in processes {
            XCTAssertEqual(WebProcesses.state(pid), "T", "web process \(pid) is stopped while held")
        }
        PausedProcesses.release(held)
        for pid in processes {
            XCTAssertEqual(WebProcesses.state(pid), "T", "one release of two leaves web process \(pid) stopped")
        }
        PausedProcesses.release(held)
        XCTAssertEqual(PausedProcesses.pausedNow, [])
        for pid in processes { XCTAssertNotEqual(WebProcesses.state(pid), "T", "web process \(pid) runs again") }
        // It answers again: the page runs.
        let answered = expectation(description: "the resumed page posted again")
        session.collector.received = answered
        session.collector.expectedCount = session.collector.bodies.count + 1
        session.webView.evaluateJavaScript("window.webkit.messageHandlers.bridge.postMessage('again')") { _, _ in }
        await fulfillment(of: [answered], timeout: 10)
    }

    /// Two sessions with stores of their own (a suite's lanes) run in two web processes: pausing one session's
    /// process stops its page and leaves the other's running.
    func testPausingOneViewsWebProcessLeavesAnotherStoresViewRunning() async throws {
        WKWebView.recordWebProcessStarts()
        let paused = Session(store: .nonPersistent())
        let running = Session(store: .nonPersistent())
        defer {
            paused.tearDown()
            running.tearDown()
        }
        await paused.load("<p>paused</p>", in: self)
        await running.load("<p>running</p>", in: self)
        let own = paused.webView.webProcessIdentifiers
        let other = running.webView.webProcessIdentifiers
        XCTAssertEqual(own.count, 1, "the process that runs the paused view's page was seen starting")
        XCTAssertEqual(Set(own).intersection(other), [], "each store's views run in a process of their own")
        defer { PausedProcesses.resumeAll() }
        let held = PausedProcesses.hold(own)
        XCTAssertEqual(held, own)
        // A stop takes effect when the signal is delivered, a moment after kill returns.
        XCTAssertEqual(WebProcesses.waitForState("T", of: { own }, timeout: 5), own, "the held process stopped")
        XCTAssertFalse(other.contains { WebProcesses.state($0) == "T" }, "the other store's process runs")
        // The other page answers while the paused one cannot; once released, it answers too.
        let otherAnswered = expectation(description: "the running view evaluated a script")
        running.webView.evaluateJavaScript("1 + 1") { _, _ in otherAnswered.fulfill() }
        let ownAnswered = expectation(description: "the paused view evaluated a script once resumed")
        var resumed = false
        paused.webView.evaluateJavaScript("2 + 2") { _, _ in
            XCTAssertTrue(resumed, "the paused view's page ran a script while its process was stopped")
            ownAnswered.fulfill()
        }
        await fulfillment(of: [otherAnswered], timeout: 10)
        resumed = true
        PausedProcesses.release(held)
        await fulfillment(of: [ownAnswered], timeout: 10)
    }
}
#endif
