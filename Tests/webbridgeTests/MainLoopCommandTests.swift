#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

/// `webbridge` hands its main thread to GLib's loop, which also drains the main queue (the main actor): engine
/// events need no second thread, and a check waiting on the page costs no CPU.
final class MainLoopCommandTests: XCTestCase {
    /// The fixture's bridge, with the ready held back by the page's own one-second timer, between two requests
    /// the test sees: the tool has nothing to do in between.
    static let idlePage = """
        <!doctype html>
        <meta charset="utf-8">
        <body>
        <script>
        window.bridgeReceive = function (message) { document.body.dataset.received = message.value; };
        fetch("/before").finally(() => setTimeout(() => fetch("/after").finally(() =>
          window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1})), 1000));
        </script>
        """

    func testACheckWaitingOnThePageUsesAlmostNoCPU() throws {
        let server = try LoopbackHTTPServer(routes: [
            "/idle.html": .page(status: 200, html: Self.idlePage),
            "/before": .file(contentType: "text/plain", body: "before"),
            "/after": .file(contentType: "text/plain", body: "after"),
        ])
        defer { server.stop() }
        let run = try RunningCLI(["check", "--url", server.url("/idle.html").absoluteString, "--timeout", "20"])
        XCTAssertTrue(server.waitForRequest("/before", timeout: 30), "the page never asked for /before")
        let pid = run.process.processIdentifier
        let cpuBefore = try XCTUnwrap(WebProcesses.cpuSeconds(of: pid), "no CPU time read for pid \(pid)")
        // The watcher thread exists only when something else runs the main thread.
        let threads = Self.threadNames(of: pid)
        XCTAssertFalse(threads.isEmpty, "no threads read for pid \(pid)")
        XCTAssertFalse(
            threads.contains("GLib watcher"), "GLib's events hop through the watcher: \(threads)")
        let start = Date()
        XCTAssertTrue(server.waitForRequest("/after", timeout: 30), "the page's timer never asked for /after")
        let wall = Date().timeIntervalSince(start)
        let cpu = try XCTUnwrap(WebProcesses.cpuSeconds(of: pid), "no CPU time read for pid \(pid)") - cpuBefore
        let result = try run.wait()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertGreaterThan(wall, 0.9, "the page's timer fired early")
        // A loop that never resets the main queue's eventfd spins a whole core here (cpu ≈ wall).
        XCTAssertLessThan(cpu / wall, 0.1, "webbridge was busy while the page waited: \(cpu) s CPU in \(wall) s")
    }

    /// The names of `pid`'s threads, from /proc.
    static func threadNames(of pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap {
            (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }
}
#endif
