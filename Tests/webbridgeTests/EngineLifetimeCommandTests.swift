#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

/// The engine's processes end with their session and with the tool; a limit the engine cannot live with is an
/// environment error, not a crash.
final class EngineLifetimeCommandTests: XCTestCase {
    /// The environment of a child run: no DISPLAY (so it starts its own Xvfb too) and a marker its children inherit.
    private func environment(marker: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WEBBRIDGE_LIFETIME_PROBE"] = marker
        return environment
    }

    func testAStuckPageDoesNotHangLaterSessionsAndNothingOutlivesTheTool() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("stuck-\(UUID().uuidString).html")
        try """
        <!doctype html><script>
        window.webkit.messageHandlers.bridge.postMessage({ kind: 'ready', version: 1 });
        while (true) {}
        </script>
        """.write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let marker = UUID().uuidString
        // The default deadline: each session waits it out for a didFinish that never comes, but its page's ready
        // must come first from a new web process, which a loaded machine took over 2 s to start.
        let result = try CLI.run(
            ["check", "--page", page.path, "--repeat", "3"], environment: environment(marker: marker), timeout: 120)
        XCTAssertEqual(result.status, 1, "a page that never finishes loading is a contract failure")
        XCTAssertEqual(
            result.stdout.components(separatedBy: "ready received").count - 1, 3,
            "every session's page must run although the previous session's page is stuck in a loop")
        let left = WebProcesses.carrying("WEBBRIDGE_LIFETIME_PROBE", marker)
        XCTAssertEqual(
            WebProcesses.waitForExit(of: left, timeout: 3), [],
            "processes started by webbridge (web, network, Xvfb) still run 3 s after it exited (a stuck web process, left alone, runs on for 10–15 s)"
        )
    }

    func testAnXvfbWrapperThatIgnoresSIGTERMAndForksLeavesNothingBehind() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw XCTSkip("/usr/bin/Xvfb is not installed")
        }
        // A wrapper in front of Xvfb (as CI images have), deaf to SIGTERM, with a child of its own.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("xvfb-wrapper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let wrapper = bin.appendingPathComponent("Xvfb")
        try "#!/bin/sh\ntrap '' TERM\nsleep 300 &\n/usr/bin/Xvfb \"$@\" &\nwait\n".write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        for arguments in [["doctor", "--package-path", bin.path], ["check"]] {
            let marker = UUID().uuidString
            var environment = environment(marker: marker)
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let result = try CLI.run(arguments, environment: environment)
            XCTAssertTrue(
                result.stdout.contains("a private Xvfb started") || result.status == 0,
                "\(arguments): the wrapper did not start a display: \(result.stdout)\(result.stderr)")
            let left = WebProcesses.carrying("WEBBRIDGE_LIFETIME_PROBE", marker)
            let running = WebProcesses.waitForExit(of: left, timeout: 5)
            for pid in running { kill(pid, SIGKILL) }
            XCTAssertEqual(running, [], "\(arguments): the wrapper or its child outlived webbridge")
        }
    }

    func testAnAddressSpaceLimitTooSmallForTheEngineIsAnEnvironmentError() throws {
        let result = try CLI.runWrapped(
            ["/bin/sh", "-c", "ulimit -v 4000000 && exec \"$0\" \"$@\""], ["check"],
            environment: environment(marker: UUID().uuidString))
        XCTAssertEqual(result.status, 3, "exit 3 (environment), not an abort; stderr: \(result.stderr.prefix(300))")
        XCTAssertTrue(result.stderr.contains("ulimit -v"), "the error names the limit")
        XCTAssertTrue(result.stderr.contains("ulimit -v unlimited"), "and the remedy")
        XCTAssertFalse(result.stderr.contains("Backtrac"), "no crash report")
    }
}
#endif
