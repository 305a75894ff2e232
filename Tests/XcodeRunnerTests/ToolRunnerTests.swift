import Foundation
import XCTest

@testable import XcodeRunner

final class ToolRunnerTests: XCTestCase {
    let system = ToolRunner(environment: ["PATH": "/usr/bin:/bin"])

    func testToolsAreFoundOnlyOnThePath() throws {
        XCTAssertNotNil(system.locate("sh"))
        XCTAssertNil(system.locate("xcodebuild"), "this test expects a machine without Xcode")
        XCTAssertFalse(system.hasMacTools)
        XCTAssertThrowsError(try system.capture("xcrun", ["simctl"])) { error in
            XCTAssertEqual((error as? XcodeRunnerError)?.code, .toolMissing)
            XCTAssertTrue((error as? XcodeRunnerError)?.rule.contains("only on a Mac") == true)
        }
    }

    func testArgumentsAreAnArgvNeverInterpretedByAShell() throws {
        let output = try system.capture("printf", ["%s|", "a b", "$(echo no)", "'quoted'"])
        XCTAssertEqual(output.stdout, "a b|$(echo no)|'quoted'|")
        XCTAssertEqual(output.status, 0)
    }

    func testBothStreamsAndTheExitCodeAreKept() throws {
        let output = try system.capture("sh", ["-c", "echo out; echo err >&2; exit 42"])
        XCTAssertEqual(output, ToolOutput(status: 42, stdout: "out\n", stderr: "err\n"))
    }

    func testAHangingToolIsStoppedWithAMessageSayingWhatDidNotFinish() throws {
        let started = Date()
        XCTAssertThrowsError(try system.capture("tail", ["-f", "/dev/null"], timeout: 0.5)) { error in
            XCTAssertEqual((error as? XcodeRunnerError)?.code, .toolFailed)
            XCTAssertEqual((error as? XcodeRunnerError)?.rule, "did not finish within 0.5 s and was stopped")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testAHangingToolThatIgnoresSIGTERMIsKilledWithItsChild() throws {
        // An xcodebuild (or simctl) that ignores SIGTERM, as does the child it started: the timeout's SIGTERM
        // leaves both running unless the group is killed after the grace.
        let tools = ToolRunner(environment: ["PATH": "/usr/bin:/bin"], stopGrace: 0.5)
        let pidsFile = FileManager.default.temporaryDirectory.appendingPathComponent("pids-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidsFile) }
        let script = "trap '' TERM; sleep 300 & echo $$ $! > '\(pidsFile.path)'; wait"
        XCTAssertThrowsError(try tools.capture("sh", ["-c", script], timeout: 2)) { error in
            XCTAssertEqual((error as? XcodeRunnerError)?.rule, "did not finish within 2 s and was stopped")
        }
        let pids = try String(contentsOf: pidsFile, encoding: .utf8).split(separator: " ").compactMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        XCTAssertEqual(pids.count, 2, "the tool did not write its and its child's pid")
        let left = stillRunning(pids)
        for pid in left { kill(pid, SIGKILL) }
        XCTAssertEqual(left, [], "the tool or its child outlived the timeout")
    }

    func testStreamingDeliversEveryByteAndTheExitCode() throws {
        var received = Data()
        let outcome = try system.stream("sh", ["-c", "seq 1 20000; echo done >&2; exit 3"]) { received.append($0) }
        XCTAssertEqual(outcome, .init(status: 3, timedOut: false))
        let text = String(decoding: received, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("1\n2\n"))
        XCTAssertTrue(text.contains("20000\n"))
        XCTAssertTrue(text.contains("done\n"))
    }

    func testAStreamedRunPastItsTimeoutIsStoppedAndSaysSo() throws {
        var received = Data()
        let started = Date()
        // Prints, then waits for input that never comes (stdin is /dev/null: `tail -f` keeps waiting).
        let outcome = try system.stream("sh", ["-c", "echo started; exec tail -f /dev/null"], timeout: 0.5) {
            received.append($0)
        }
        XCTAssertTrue(outcome.timedOut, "the run outlived its timeout and must be reported as stopped")
        XCTAssertEqual(outcome.status, 128 + SIGTERM, "stopped by SIGTERM first")
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "started\n", "output before the stop is kept")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testAStreamedRunWithinItsTimeoutIsNotStopped() throws {
        let outcome = try system.stream("sh", ["-c", "exit 0"], timeout: 30) { _ in }
        XCTAssertEqual(outcome, .init(status: 0, timedOut: false))
    }

    func testOutputHeldByAProcessThatLeftTheGroupIsReadOnlyForTheDrainGrace() throws {
        // `setsid` takes the sleeper out of the tool's group and session, so only the bounded read can end the run.
        let tools = ToolRunner(environment: ["PATH": "/usr/bin:/bin"], stopGrace: 1, drainGrace: 1)
        let box = ResultBox<(ToolRunner.StreamOutcome, String)>()
        let returned = bounded(60) {
            var received = Data()
            let outcome = try? tools.stream("sh", ["-c", "setsid sleep 300 & echo $!"]) { received.append($0) }
            box.value = outcome.map { ($0, String(decoding: received, as: UTF8.self)) }
            return true
        }
        let (outcome, text) = try XCTUnwrap(box.value, "stream did not return within 60 s: the read is unbounded")
        XCTAssertEqual(returned, true)
        let sleeper = try XCTUnwrap(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), text)
        XCTAssertTrue(isRunning(sleeper), "the sleeper should have escaped the group, or this test proves nothing")
        kill(sleeper, SIGKILL)
        XCTAssertEqual(stillRunning([sleeper]), [])
        XCTAssertEqual(outcome, .init(status: 0, timedOut: false))
    }
}
