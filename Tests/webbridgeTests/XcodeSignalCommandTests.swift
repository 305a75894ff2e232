import Foundation
import XCTest

/// The stop signals besides SIGINT and SIGTERM during `xcode test`: SIGHUP (a dropped ssh session to the cloud
/// Mac), SIGQUIT (Ctrl-\), SIGUSR1, SIGUSR2 and SIGALRM. Each is handled as `check` handles its stop signals:
/// xcodebuild's group is stopped, the evidence and the manifest are kept, the exit is 128 + the signal, and no
/// crash backtrace is printed.
extension XcodeCommandTests {
    func testEveryStopSignalStopsXcodebuildsGroupAndKeepsTheManifest() throws {
        let recorded = Self.realdata("xcodebuild/openbakery_xcodebuild-test-failed-xcode6.txt")
        let lastLine = try XCTUnwrap(
            String(decoding: Data(contentsOf: recorded), as: UTF8.self).split(separator: "\n").last.map(String.init))
        for (number, name) in [(SIGHUP, "SIGHUP"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2")] {
            let folder = try ecmaswiftFolder(pinned: true)
            // xcodebuild and a child of it that ignores SIGTERM and SIGINT: only the group's SIGKILL ends it.
            let (environment, replayFolder) = try replayOnAMac([
                "tool": "xcodebuild", "contains": ["test"], "output": recorded.path, "createBundle": true,
                "hang": true, "child": true,
            ])
            let run = try RunningCLI(["xcode", "test"], environment: environment, currentDirectory: folder)
            XCTAssertTrue(run.waitForOutput(lastLine), "\(name): the recorded output never came: \(run.stderr)")
            let group = try pids(in: replayFolder)
            defer { for pid in stillRunning(group, timeout: 0) { kill(pid, SIGKILL) } }
            run.signal(number)
            let result = try run.wait(timeout: 60)
            XCTAssertEqual(result.status, 128 + number, "\(name): \(result.stderr)")
            XCTAssertEqual(run.process.terminationReason, .exit, "\(name): webbridge died of the signal")
            XCTAssertFalse(
                result.stderr.contains("Backtrac") || result.stderr.contains("crashed"),
                "\(name) printed a crash report: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("stopped by \(name); no further run"), result.stderr)
            let manifest = try XCTUnwrap(
                try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path)
                    .first { $0.hasSuffix(".manifest.json") }, "\(name): no manifest was kept")
            let kept = try XCTUnwrap(
                JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("results/" + manifest))) as? [String: Any])
            XCTAssertEqual(kept["interruptedBy"] as? String, name)
            XCTAssertEqual(kept["exitCode"] as? Int, Int(128 + number))
            XCTAssertEqual(stillRunning(group), [], "\(name): a process of xcodebuild's group outlived webbridge")
        }
    }

    func testAStopSignalDuringPreflightStopsTheToolThenRunningAndRunsNothing() throws {
        let listing = Self.realdata("simctl/openbakery_simctl-list-xcode16.json")
        for (command, (number, name)) in [
            ("test", (SIGHUP, "SIGHUP")), ("test", (SIGQUIT, "SIGQUIT")), ("test", (SIGUSR1, "SIGUSR1")),
            ("preflight", (SIGHUP, "SIGHUP")),
        ] {
            let folder = try ecmaswiftFolder(pinned: true)
            // simctl hangs (a wedged CoreSimulator service) with a child that ignores SIGTERM and SIGINT.
            let (environment, replayFolder) = try replay([
                [
                    "tool": "xcodebuild", "contains": ["-version"],
                    "output": Self.realdata(
                        "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt"
                    ).path,
                ],
                [
                    "tool": "xcrun", "contains": ["simctl", "list"], "output": listing.path, "hang": true,
                    "child": true,
                ],
                Self.failedTestRun,
            ])
            let run = try RunningCLI(["xcode", command], environment: environment, currentDirectory: folder)
            let pidFile = replayFolder.appendingPathComponent("pids.json").path
            XCTAssertTrue(appears(pidFile, within: 60), "\(name): simctl never started: \(run.stderr)")
            let group = try pids(in: replayFolder)
            defer { for pid in stillRunning(group, timeout: 0) { kill(pid, SIGKILL) } }
            run.signal(number)
            let result = try run.wait(timeout: 60)
            XCTAssertEqual(result.status, 128 + number, "\(name): \(result.stderr)")
            XCTAssertEqual(run.process.terminationReason, .exit, "\(name): webbridge died of the signal")
            XCTAssertFalse(
                result.stderr.contains("Backtrac") || result.stderr.contains("crashed"),
                "\(name) printed a crash report: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("xcode \(command): stopped by \(name)"), result.stderr)
            let said = result.stdout + result.stderr
            XCTAssertFalse(
                said.contains("FAIL ") || said.contains("preflight failed") || said.contains(" failed, "),
                "\(command), \(name): a check the signal cut short was reported:\n\(said)")
            let calls = try String(contentsOf: replayFolder.appendingPathComponent("calls.jsonl"), encoding: .utf8)
            XCTAssertFalse(calls.contains("\"test\""), "\(name): xcodebuild test ran after the signal:\n\(calls)")
            XCTAssertEqual(stillRunning(group), [], "\(name): simctl or its child outlived webbridge")
        }
    }

    func testAStopSignalBeforeARerunsRunStopsTheToolThenRunningAndRunsNothing() throws {
        let folder = try ecmaswiftFolder(pinned: true)
        let (recorded, _) = try replayOnAMac(Self.failedTestRun)
        XCTAssertEqual(try CLI.run(["xcode", "test"], environment: recorded, currentDirectory: folder).status, 65)
        let results = folder.appendingPathComponent("results").path
        let manifests = {
            try FileManager.default.contentsOfDirectory(atPath: results).filter { $0.hasSuffix(".json") }
        }
        let manifest = try XCTUnwrap(try manifests().first)
        // The rerun's simulator check hangs (simctl with a child that ignores SIGTERM and SIGINT).
        let (environment, replayFolder) = try replay([
            [
                "tool": "xcodebuild", "contains": ["-version"],
                "output": Self.realdata(
                    "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt"
                ).path,
            ],
            [
                "tool": "xcrun", "contains": ["simctl", "list"], "hang": true, "child": true,
                "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            Self.failedTestRun,
        ])
        let run = try RunningCLI(
            ["xcode", "rerun", "results/" + manifest], environment: environment, currentDirectory: folder)
        let pidFile = replayFolder.appendingPathComponent("pids.json").path
        XCTAssertTrue(appears(pidFile, within: 60), "simctl never started: \(run.stderr)")
        let group = try pids(in: replayFolder)
        defer { for pid in stillRunning(group, timeout: 0) { kill(pid, SIGKILL) } }
        run.signal(SIGHUP)
        let result = try run.wait(timeout: 60)
        XCTAssertEqual(result.status, 128 + SIGHUP, result.stderr)
        XCTAssertTrue(result.stderr.contains("xcode rerun: stopped by SIGHUP"), result.stderr)
        XCTAssertFalse(result.stderr.contains("differs"), "a check the signal cut short was reported: \(result.stderr)")
        XCTAssertEqual(try manifests(), [manifest], "a run started after the signal")
        XCTAssertEqual(stillRunning(group), [], "simctl or its child outlived webbridge")
    }

    /// Looks for the file at `path` every 10 ms (a file appearing is no event this process can wait on) until it
    /// exists or `timeout` seconds pass; false when the time ran out first.
    func appears(_ path: String, within timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let tick = DispatchSemaphore(value: 0)
        while !FileManager.default.fileExists(atPath: path) {
            if Date() >= deadline { return false }
            _ = tick.wait(timeout: .now() + 0.01)
        }
        return true
    }
}
