#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest
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
        XCTAssertEqual(PausedProcesses.hold(), processes.count)
        XCTAssertEqual(PausedProcesses.hold(), processes.count, "a second session pauses too")
        for pid in processes {
            XCTAssertEqual(WebProcesses.state(pid), "T", "web process \(pid) is stopped while held")
        }
        PausedProcesses.release()
        for pid in processes {
            XCTAssertEqual(WebProcesses.state(pid), "T", "one release of two leaves web process \(pid) stopped")
        }
        PausedProcesses.release()
        XCTAssertEqual(PausedProcesses.pausedNow, [])
        for pid in processes { XCTAssertNotEqual(WebProcesses.state(pid), "T", "web process \(pid) runs again") }
        // It answers again: the page runs.
        let answered = expectation(description: "the resumed page posted again")
        session.collector.received = answered
        session.collector.expectedCount = session.collector.bodies.count + 1
        session.webView.evaluateJavaScript("window.webkit.messageHandlers.bridge.postMessage('again')") { _, _ in }
        await fulfillment(of: [answered], timeout: 10)
    }
}
#endif
