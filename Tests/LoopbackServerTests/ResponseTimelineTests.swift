import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

/// A served folder's held responses released by a timeline (a stressed session's page clock), over a real socket:
/// a response waits for its release past its hold, the timeline's end lets every held response go, and a timeline
/// that never answers delays a response by at most the server's timeout.
final class ResponseTimelineTests: XCTestCase {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["a.js", "b.js"] { try Data("// \(name)\n".utf8).write(to: root.appendingPathComponent(name)) }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// Requests `path` on a thread of its own; the semaphore is signalled with the response in `answer`.
    final class Request: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private(set) var answer = ""

        init(_ path: String, port: Int) {
            Thread { [self] in
                answer =
                    (try? LoopbackServerTests.exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port))
                    ?? ""
                done.signal()
            }.start()
        }
    }

    func testAHeldResponseWaitsForItsReleaseAndTheEndLetsTheRestGo() throws {
        // One delay: every path is held 40 ms.
        let server = try LoopbackServer(root: root, delays: [40])
        defer { server.stop() }
        let asked = DispatchSemaphore(value: 0)
        let timeline = ResponseTimeline { asked.signal() }
        server.responseTimeline = timeline
        timeline.moved(to: 500)

        let first = Request("/a.js", port: server.port)
        XCTAssertEqual(asked.wait(timeout: .now() + 10), .success, "the server did not ask to hold /a.js")
        let hold = try XCTUnwrap(timeline.take().first)
        XCTAssertEqual(hold.due, 540, "due its hold after the timeline's time when it was ready")
        // Past its 40 ms on the machine's clock, it still waits for the timeline (without one it would be sent).
        XCTAssertEqual(first.done.wait(timeout: hold.realDue + 0.3), .timedOut, "sent before the timeline released it")
        timeline.release(hold.id)
        XCTAssertEqual(first.done.wait(timeout: .now() + 10), .success, "not sent once released")
        XCTAssertTrue(first.answer.hasPrefix("HTTP/1.1 200") && first.answer.hasSuffix("// a.js\n"), first.answer)

        let second = Request("/b.js", port: server.port)
        XCTAssertEqual(asked.wait(timeout: .now() + 10), .success, "the server did not ask to hold /b.js")
        XCTAssertEqual(timeline.take().count, 1)
        timeline.end()
        XCTAssertEqual(second.done.wait(timeout: .now() + 10), .success, "the timeline's end did not let it go")
        XCTAssertTrue(second.answer.hasSuffix("// b.js\n"), second.answer)
        // Once the timeline ended (its session is over), a response goes without asking.
        let third = Request("/a.js", port: server.port)
        XCTAssertEqual(third.done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(timeline.take().count, 0)
        XCTAssertEqual(server.log.map(\.heldMilliseconds), [40, 40, 40])
    }

    func testATimelineThatNeverAnswersDelaysAResponseByTheServersTimeoutAtMost() throws {
        let server = try LoopbackServer(root: root, delays: [40], timeout: 0.5)
        defer { server.stop() }
        server.responseTimeline = ResponseTimeline {}
        let started = DispatchTime.now()
        let request = Request("/a.js", port: server.port)
        XCTAssertEqual(request.done.wait(timeout: .now() + 10), .success, "a stuck timeline hung the connection")
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        XCTAssertGreaterThanOrEqual(waited, 0.54, "sent before its hold and the server's timeout passed")
        XCTAssertTrue(request.answer.hasSuffix("// a.js\n"), request.answer)
    }
}
