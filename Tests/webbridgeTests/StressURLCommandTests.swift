#if os(Linux)
import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

/// `webbridge check --url http://… --stress N` and `--replay`: the page and what it loads come through the
/// check's own delaying loopback proxy. The page's origin is a real HTTP server on loopback (a LoopbackServer
/// serving the race pages), the engine is real.
final class StressURLCommandTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-proxy-\(UUID().uuidString)")
    var origin: LoopbackServer!
    var play = ""

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        origin = try LoopbackServer(root: StressCommandTests.stress)
        // Native answers ready; the page must show the value (the late-script race's play).
        play = scratch.appendingPathComponent("after-ready.json").path
        try Data(
            #"{"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: play))
    }

    override func tearDownWithError() throws {
        origin.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    func url(_ name: String) -> String { origin.url(for: "\(name).html").absoluteString + "?from=test" }

    func testALateScriptByURLFailsUnderStressWithTheHeldResponseNamedAndItsReplayFailsAgain() throws {
        let unstressed = try CLI.run(["check", "--url", url("late-script"), "--play", play, "--repeat", "3"])
        XCTAssertEqual(unstressed.status, 0, unstressed.stdout + unstressed.stderr)
        let stressed = try CLI.run(
            ["check", "--url", url("late-script"), "--play", play, "--stress", "12"])
        XCTAssertEqual(stressed.status, 1, stressed.stdout + stressed.stderr)
        XCTAssertTrue(
            stressed.stdout.contains("stress: ") && stressed.stdout.contains("page did not accept the native message"),
            stressed.stdout)
        // The verdict's first distinct failure names the held response that made it.
        let verdict = stressed.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("stress: ") }
        let perturbation = try XCTUnwrap(verdict.first { $0.contains("perturbation: ") }, stressed.stdout)
        XCTAssertTrue(
            perturbation.contains("responses held: ") && perturbation.contains("/late-receiver.js "), perturbation)
        // The failure's own token (the first printed), run again three times: it fails every time.
        let token = try XCTUnwrap(StressCommandTests.tokens(verdict.joined(separator: "\n")).first, stressed.stdout)
        let replayed = try CLI.run(
            ["check", "--url", url("late-script"), "--play", play, "--replay", token, "--repeat", "3"])
        XCTAssertEqual(replayed.status, 1, replayed.stdout + replayed.stderr)
        XCTAssertTrue(
            replayed.stdout.contains("FAIL: page did not accept the native message (3 of 3 sessions failed)"),
            replayed.stdout)
        XCTAssertTrue(
            replayed.stdout.contains("replaying: ") && replayed.stdout.contains("responses held "), replayed.stdout)
        // Every request went to the page's own origin, query and all, through the proxy.
        XCTAssertTrue(origin.log.contains { $0.path == "/late-receiver.js" && $0.status == 200 })
    }

    func testTheRobustTwinByURLPassesUnderStressWithItsResponsesHeld() throws {
        let result = try CLI.run(
            [
                "check", "--url", url("late-script-robust"), "--play", play, "--stress", "20",
                "--format", "json",
            ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let json = try SchemaCheck.validReport(result.stdout)
        let page = try XCTUnwrap((json["pages"] as? [[String: Any]])?.first, result.stdout)
        let stress = try XCTUnwrap(page["stress"] as? [String: Any], result.stdout)
        XCTAssertEqual(stress["sessions"] as? Int, 20)
        XCTAssertEqual(stress["failed"] as? Int, 0)
        XCTAssertNil(stress["responsesNotHeld"], "an http: page is proxied")
        // The twin passed with its scripts held: the proxy was in the way.
        let sessions = try XCTUnwrap(page["sessions"] as? [[String: Any]])
        let held = sessions.filter { (($0["perturbed"] as? [String]) ?? []).contains { $0.contains("/late-") } }
        XCTAssertGreaterThan(held.count, 0, "no stressed session held a script: \(sessions.map { $0["perturbed"] })")
    }

    /// An https: page is loaded directly (the proxy speaks no TLS), as without stress: here its certificate is
    /// refused by the engine itself, and the verdict says why no response was held.
    func testAnHTTPSPageLoadsDirectlyAndTheVerdictSaysItsResponsesAreNotHeld() throws {
        let server = try LoopbackHTTPServer(
            routes: ["/page.html": .page(status: 200, html: "<p>page</p>")], untrustedHTTPS: true)
        defer { server.stop() }
        let result = try CLI.run(
            ["check", "--url", server.url("/page.html").absoluteString, "--stress", "1"])
        XCTAssertEqual(result.status, 4, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("TLS error"), "fetched directly, not through a proxy: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("responses not held: an https: page loads directly"), result.stdout)
    }

    /// SIGTERM in the middle of a stressed --url run: the run's proxy (a port the check listens on) is gone, and
    /// so is every process of the run.
    func testSIGTERMDuringAStressedURLRunLeavesNoProxyAndNoProcess() throws {
        let marker = UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["WEBBRIDGE_STRESS_PROBE"] = marker
        let run = try RunningCLI(
            ["check", "--url", url("late-script"), "--play", play, "--stress", "400", "--timeout", "2"],
            environment: environment)
        // The check listens only while a session's proxy runs: wait for one.
        let deadline = Date().addingTimeInterval(60)
        var proxyPort: Int?
        while proxyPort == nil, Date() < deadline, run.process.isRunning {
            proxyPort = Self.listeningPorts(of: run.process.processIdentifier).first
            if proxyPort == nil { usleep(5_000) }
        }
        let port = try XCTUnwrap(proxyPort, "the check never listened on a port (no proxy): \(run.stdout)")
        run.signal(SIGTERM)
        let result = try run.wait()
        XCTAssertEqual(result.status, 143, result.stdout + result.stderr)
        XCTAssertEqual(LoopbackPort.connectError(port), ECONNREFUSED, "the proxy's port still answers")
        let left = WebProcesses.carrying("WEBBRIDGE_STRESS_PROBE", marker)
        XCTAssertEqual(WebProcesses.waitForExit(of: left, timeout: 10), [], "the run's processes outlived it")
    }

    /// The TCP ports `pid` listens on: its socket descriptors matched against the kernel's listening sockets.
    static func listeningPorts(of pid: pid_t) -> [Int] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(
            fds.compactMap { fd -> String? in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
                guard let target, target.hasPrefix("socket:[") else { return nil }
                return String(target.dropFirst("socket:[".count).dropLast())
            })
        let table = (try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8)) ?? ""
        return table.components(separatedBy: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            // local_address, …, st (0A: listening), …, inode.
            guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) else { return nil }
            return fields[1].split(separator: ":").last.flatMap { Int($0, radix: 16) }
        }
    }
}
#endif
