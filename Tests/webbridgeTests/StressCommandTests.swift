import BridgeTesting
import EngineTestSupport
import Foundation
import XCTest

/// `webbridge check --stress N`, `--replay TOKEN` and `--serve DIR` on the real engine, through the built binary.
final class StressCommandTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-stress-\(UUID().uuidString)")
    /// The race pages of the BridgeTesting tests, read in place.
    static let stress = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BridgeTestingTests/Fixtures/Stress")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func page(_ name: String) -> String { Self.stress.appendingPathComponent("\(name).html").path }

    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The tokens after `replay: --replay ` in `text`, in order.
    static func tokens(_ text: String) -> [String] {
        text.components(separatedBy: "\n").compactMap { line in
            line.range(of: "replay: --replay ").map { String(line[$0.upperBound...]) }
        }
    }

    func testStressNamesTheRaceAndItsReplayFailsAgainWhileTheTwinPasses() throws {
        let stressed = try CLI.run(["check", "--page", page("page-deadline"), "--stress", "20"])
        XCTAssertEqual(stressed.status, 1, stressed.stdout + stressed.stderr)
        XCTAssertTrue(stressed.stdout.contains("of 20 stressed sessions failed (seed "), stressed.stdout)
        XCTAssertTrue(stressed.stdout.contains("smallest that still fails: sync held"), stressed.stdout)
        // The last token printed is the shrunk one of the verdict.
        let token = try XCTUnwrap(Self.tokens(stressed.stdout).last, stressed.stdout)
        XCTAssertTrue(token.hasPrefix("wbs1-"))
        let replayed = try CLI.run(["check", "--page", page("page-deadline"), "--replay", token, "--repeat", "3"])
        XCTAssertEqual(replayed.status, 1, replayed.stdout + replayed.stderr)
        XCTAssertTrue(
            replayed.stdout.contains("FAIL: page did not accept the native message (3 of 3 sessions failed)"),
            replayed.stdout)
        XCTAssertTrue(replayed.stdout.contains("perturbation: sync held"), replayed.stdout)
        XCTAssertTrue(replayed.stdout.contains("150 ms deadline"), replayed.stdout)
        let twin = try CLI.run(["check", "--page", page("page-no-deadline"), "--replay", token])
        XCTAssertEqual(twin.status, 0, twin.stdout + twin.stderr)
        let unstressed = try CLI.run(["check", "--page", page("page-deadline"), "--repeat", "3"])
        XCTAssertEqual(unstressed.status, 0, unstressed.stdout + unstressed.stderr)
    }

    func testJSONAndJUnitCarryTheStressVerdictAndTheReplayTokens() throws {
        let junit = scratch.appendingPathComponent("report.xml").path
        let html = scratch.appendingPathComponent("report.html").path
        let result = try CLI.run(
            [
                "check", "--page", page("receiver-after-load"), "--stress", "20", "--format", "json",
                "--report", "junit=\(junit)", "--report", "html=\(html)",
            ])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        // The one JSON shape, valid against its schema: the page's stress verdict sits with the page.
        let json = try SchemaCheck.validReport(result.stdout)
        let pages = try XCTUnwrap(json["pages"] as? [[String: Any]], result.stdout)
        let stress = try XCTUnwrap(pages.first?["stress"] as? [String: Any], result.stdout)
        XCTAssertEqual(stress["sessions"] as? Int, 20)
        XCTAssertGreaterThan(stress["failed"] as? Int ?? 0, 0)
        let failures = try XCTUnwrap(stress["failures"] as? [[String: Any]])
        let first = try XCTUnwrap(failures.first)
        XCTAssertEqual(first["category"] as? String, "page-did-not-accept")
        XCTAssertTrue((first["replay"] as? String)?.hasPrefix("wbs1-") == true)
        XCTAssertTrue((first["words"] as? String)?.contains("timers fire") == true, "\(first)")
        XCTAssertNotNil(first["perturbation"] as? [String: Any])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(
            xml.contains("replay: --replay wbs1-"), "the failure body carries the token: \(xml.prefix(2_000))")
        XCTAssertTrue(xml.contains("perturbation: the page&apos;s timers fire"), String(xml.prefix(2_000)))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains("replay: <code>--replay wbs1-"), "the HTML diagram carries the token")
    }

    func testStressAppliesToEveryPageOfASuiteWithJobs() throws {
        let result = try CLI.run(
            [
                "check", "--page", page("ready-once-per-window"), "--page", page("ready-per-document"), "--stress",
                "15", "--jobs", "2", "--timeout", "5",
            ])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("2 pages"), result.stdout)
        XCTAssertTrue(result.stdout.contains("15 stressed sessions each"), result.stdout)
        let verdicts = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("stress: ") }
        XCTAssertEqual(verdicts.count, 2, result.stdout)
        XCTAssertTrue(verdicts[0].contains("native did not receive the page's message"), verdicts[0])
        XCTAssertTrue(verdicts[1].hasPrefix("stress: 0 of 15 stressed sessions failed"), verdicts[1])
    }

    func testConflictingOrBadTimingOptionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--stress", "5", "--repeat", "2"], "give --stress or --repeat, not both"),
            (["--stress", "5", "--replay", "wbs1-e30"], "give one of them"),
            (["--replay", "eyJzZWVkIjoxfQ"], "--replay: the token is not a stress replay token"),
            (["--replay", "wbs1-!!!"], "--replay: the token's perturbation cannot be read"),
            (["--replay", "wbs2-e30"], "--replay: the token is from another version of webbridge"),
            (["--stress", "0"], "--stress"),
            (["--serve", scratch.appendingPathComponent("missing").path], "not a folder"),
            (["--serve", scratch.path, "--page", page("page-deadline")], "is outside --serve"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["check"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout + result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// `--faults` draws life-cycle faults into stressed sessions only; a token carries its fault to `--replay`.
    func testFaultsNeedStressAndATokenReplaysItsFault() throws {
        let cases: [([String], String)] = [
            (["--faults", "handler-late"], "give it with --stress N"),
            (["--stress", "2", "--faults", "handler-gone"], "--faults"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["check", "--page", page("handler-at-parse")] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout + result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let token = Perturbation(fault: LifecycleFault(.handlerLate, milliseconds: 5)).token
        // The page's ready never comes: the session waits out a step (5 s, as the stressed races that wait do).
        let broken = try CLI.run(["check", "--page", page("handler-at-parse"), "--replay", token, "--timeout", "5"])
        XCTAssertEqual(broken.status, 1, broken.stdout + broken.stderr)
        XCTAssertTrue(broken.stdout.contains("native did not receive the page's message"), broken.stdout)
        XCTAssertTrue(
            broken.stdout.contains("the handler 'bridge' registered after the load started, 5 ms after didFinish"),
            broken.stdout)
        let twin = try CLI.run(["check", "--page", page("handler-awaited"), "--replay", token])
        XCTAssertEqual(twin.status, 0, twin.stdout + twin.stderr)
    }

    /// An ES-module page that fetches its configuration: it needs a server, which --serve gives it.
    func testServeLoadsESModulesAndFetchThroughTheChecksOwnServer() throws {
        let index = try write(
            "site/pages/index.html",
            "<!doctype html><meta charset=\"utf-8\"><body><script type=\"module\" src=\"../js/app.mjs\"></script></body>"
        )
        _ = try write(
            "site/js/app.mjs",
            """
            import { install } from "./receiver.mjs";
            const config = await (await fetch("../data/config.json")).json();
            install(config.observe);
            window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            """)
        _ = try write(
            "site/js/receiver.mjs",
            "export function install(where) { window.bridgeReceive = (m) => { document.body.dataset[where] = m.value; }; }"
        )
        _ = try write("site/data/config.json", #"{"observe": "received"}"#)
        let play = try write(
            "play.json",
            #"{"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]}"#
        )
        let site = scratch.appendingPathComponent("site").path
        let served = try CLI.run(["check", "--page", index, "--play", play, "--serve", site])
        XCTAssertEqual(served.status, 0, served.stdout + served.stderr)
        XCTAssertTrue(served.stdout.contains("ready received"), served.stdout)
        // From the file system the engine refuses the module: without --serve the page is refused at once.
        let unserved = try CLI.run(["check", "--page", index, "--play", play])
        XCTAssertEqual(unserved.status, 2, unserved.stdout + unserved.stderr)
        XCTAssertTrue(unserved.stderr.contains("the page loads ES modules"), unserved.stderr)
        XCTAssertTrue(unserved.stderr.contains("Remedy: serve its folder with the check: --serve "), unserved.stderr)
        // A stressed run serves it too, holding responses.
        let stressed = try CLI.run(
            ["check", "--page", index, "--play", play, "--serve", site, "--stress", "10"])
        XCTAssertEqual(stressed.status, 0, stressed.stdout + stressed.stderr)
        XCTAssertTrue(stressed.stdout.contains("stress: 0 of 10 stressed sessions failed"), stressed.stdout)
    }

    #if os(Linux)
    /// SIGTERM in the middle of a stressed run: the partial summary, exit 143, and no engine process of the run
    /// left behind, stopped or running (a paused web process is resumed or ended, never left stopped).
    func testSIGTERMDuringAStressedRunLeavesNoProcessBehind() throws {
        let marker = UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["WEBBRIDGE_STRESS_PROBE"] = marker
        let run = try RunningCLI(
            ["check", "--page", page("page-deadline"), "--stress", "400", "--timeout", "2"], environment: environment)
        XCTAssertTrue(run.waitForStdout(containing: "session 2"), "no failed session printed: \(run.stdout)")
        run.signal(SIGTERM)
        let result = try run.wait()
        XCTAssertEqual(result.status, 143, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("INTERRUPTED"), result.stdout)
        let left = WebProcesses.carrying("WEBBRIDGE_STRESS_PROBE", marker)
        XCTAssertEqual(
            WebProcesses.waitForExit(of: left, timeout: 10), [], "the run's engine processes outlived it")
    }

    /// SIGKILL while the web process is paused: no exit handler of the check runs, and a stopped process cannot
    /// notice its UI process is gone; it ends all the same (the pause watchdog ends what the check paused), so
    /// nothing is left stopped.
    func testAWebProcessPausedWhenTheCheckIsKilledEndsWithIt() throws {
        let marker = UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["WEBBRIDGE_STRESS_PROBE"] = marker
        let pausedLong = Perturbation(pauseAtFinish: 30_000).token
        let run = try RunningCLI(
            ["check", "--page", page("receiver-before-ready"), "--replay", pausedLong, "--timeout", "50"],
            environment: environment)
        let stopped = WebProcesses.waitForState(
            "T", of: { WebProcesses.carrying("WEBBRIDGE_STRESS_PROBE", marker) }, timeout: 30)
        XCTAssertFalse(stopped.isEmpty, "no web process of the check was paused: \(run.stdout)")
        run.signal(SIGKILL)
        _ = try run.wait()
        let left = WebProcesses.carrying("WEBBRIDGE_STRESS_PROBE", marker)
        defer { for pid in left { kill(pid, SIGKILL) } }
        XCTAssertEqual(
            WebProcesses.waitForExit(of: left, timeout: 20), [],
            "a process of the killed check outlived it (states: \(left.map { WebProcesses.state($0) ?? "-" }))")
    }
    #endif
}
