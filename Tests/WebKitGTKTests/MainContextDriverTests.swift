#if os(Linux)
import Foundation
import EngineTestSupport
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Synchronous XCTest waits: Linux XCTest cannot run sync methods of a @MainActor class, so these hop explicitly.
final class MainContextDriverSynchronousWaitTests: XCTestCase {
    func testSynchronousWaitForSeesDidFinishAndMessages() {
        // XCTest runs tests on the main thread; the test case itself is not Sendable.
        nonisolated(unsafe) let test = self
        MainActor.assumeIsolated {
            let session = Session()
            let finished = test.expectation(description: "didFinish during wait(for:)")
            let received = test.expectation(description: "message during wait(for:)")
            session.recorder.finished = finished
            session.collector.received = received
            session.webView.loadHTMLString(
                "<script>webkit.messageHandlers.bridge.postMessage('sync')</script>", baseURL: nil)
            test.wait(for: [received, finished], timeout: 10, enforceOrder: true)
            XCTAssertEqual(session.collector.bodies.first as? String, "sync")
            session.tearDown()
        }
    }

    // Uses wait(for:) because XCTest's own `await fulfillment(of:)` polls on Linux (~70 % CPU with no WebKit at all).
    func testIdleWaitForAPageTimerUsesAlmostNoCPU() {
        nonisolated(unsafe) let test = self
        MainActor.assumeIsolated {
            let session = Session()
            let finished = test.expectation(description: "didFinish")
            session.recorder.finished = finished
            session.webView.loadHTMLString("<p>idle</p>", baseURL: nil)
            test.wait(for: [finished], timeout: 10)
            let received = test.expectation(description: "the page's delayed message arrived")
            session.collector.received = received
            let cpuBefore = WebProcesses.cpuSecondsOfThisProcess()
            let servicesBefore = MainContextDriver.shared.services
            let start = Date()
            session.webView.evaluateJavaScript(
                "setTimeout(() => webkit.messageHandlers.bridge.postMessage('late'), 1000), 1")
            test.wait(for: [received], timeout: 10)
            let wall = Date().timeIntervalSince(start)
            let cpu = WebProcesses.cpuSecondsOfThisProcess() - cpuBefore
            let services = MainContextDriver.shared.services - servicesBefore
            print(
                "idle wait: \(String(format: "%.3f", cpu)) s CPU over \(String(format: "%.3f", wall)) s wall, \(services) GLib service passes"
            )
            XCTAssertGreaterThan(wall, 0.9, "the page timer fired early")
            XCTAssertLessThan(cpu / wall, 0.05, "the process was busy while idle: \(cpu) s CPU in \(wall) s")
            XCTAssertLessThan(services, 100, "the GLib context was serviced \(services) times in one idle second")
            session.tearDown()
        }
    }
}

@MainActor
final class MainContextDriverTests: XCTestCase {
    func testMessagesAreDeliveredOnTheMainThread() async {
        let session = Session()
        let received = expectation(description: "message on the main thread")
        session.collector.onMessage = { _ in
            XCTAssertTrue(Thread.isMainThread)
            received.fulfill()
        }
        await session.load("<script>webkit.messageHandlers.bridge.postMessage(1)</script>", in: self)
        await fulfillment(of: [received], timeout: 5)
    }
}
#endif
