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
}
