#if os(Linux)
import EngineTestSupport
import Foundation
import SeededRandom
import XCTest

/// SIGKILL to a stressed check at seeded moments, many times over: the check runs no exit handler, yet no web
/// process it paused is left stopped, and nothing of the run outlives it (the pause watchdog ends what was
/// paused). The moments are the k-th pause of a web process seen from outside (k drawn from the seed), or the
/// first web process seen, before any pause.
final class PausedProcessKillCommandTests: XCTestCase {
    /// Runs killed: bounded for `make test`; `WEBBRIDGE_KILL_RUNS=100` runs the issue's hundred.
    var runs: Int { min(200, Int(ProcessInfo.processInfo.environment["WEBBRIDGE_KILL_RUNS"] ?? "") ?? 12) }

    func testSIGKILLAtSeededMomentsOfStressedRunsLeavesNoStoppedOrOrphanedProcess() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let play = scratch.appendingPathComponent("after-ready.json").path
        try Data(
            #"{"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: play))
        let page = StressCommandTests.stress.appendingPathComponent("late-script.html").path
        var random = SeededGenerator(seed: 0x0B5E_55ED_0034)
        var killedPaused = 0
        var leftBehind = 0
        for run in 1...runs {
            let marker = UUID().uuidString
            var environment = ProcessInfo.processInfo.environment
            environment["WEBBRIDGE_KILL_PROBE"] = marker
            let check = try RunningCLI(
                ["check", "--page", page, "--play", play, "--stress", "100000", "--timeout", "2"],
                environment: environment)
            let ours = { WebProcesses.carrying("WEBBRIDGE_KILL_PROBE", marker) }
            defer { for pid in ours() { kill(pid, SIGKILL) } }
            let pauses = random.next(below: 5)
            if pauses == 0 {
                // Before any pause: as soon as a web process of the run exists.
                let root = check.process.processIdentifier
                XCTAssertFalse(
                    Self.timesOut(after: 60) {
                        !WebProcesses.descendants(of: root, named: ["WebKitWebProces"]).isEmpty
                    }, "run \(run): no web process started")
            } else {
                for seen in 1...pauses {
                    let stopped = WebProcesses.waitForState("T", of: ours, timeout: 60)
                    XCTAssertFalse(stopped.isEmpty, "run \(run): pause \(seen) of \(pauses) never came")
                    if seen < pauses {
                        _ = Self.timesOut(after: 10) { !ours().contains { WebProcesses.state($0) == "T" } }
                    }
                }
                killedPaused += 1
            }
            check.signal(SIGKILL)
            _ = try check.wait(timeout: 60)
            let left = ours()
            let stayed = WebProcesses.waitForExit(of: left, timeout: 20)
            leftBehind += stayed.count
            XCTAssertEqual(
                stayed, [],
                "run \(run) (killed at pause \(pauses)): left \(left.map { "\($0) \(WebProcesses.state($0) ?? "-")" })")
        }
        // The figures Docs/TIMING.md gives for WEBBRIDGE_KILL_RUNS=100.
        print(
            "SIGKILL: \(runs) stressed runs, \(killedPaused) while a web process was paused, \(runs - killedPaused) "
                + "before any pause; web processes left stopped or running: \(leftBehind)")
        XCTAssertGreaterThan(killedPaused, runs / 2, "most runs are killed while a web process is paused")
    }

    /// Looks at `condition` every 10 ms (a process's state is no event this process can wait on) until it holds
    /// or `timeout` seconds pass; true when the time ran out first.
    static func timesOut(after timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let tick = DispatchSemaphore(value: 0)
        while !condition() {
            if Date() >= deadline { return true }
            _ = tick.wait(timeout: .now() + 0.01)
        }
        return false
    }
}
#endif
