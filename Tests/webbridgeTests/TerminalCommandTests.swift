#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

/// `webbridge check` on a real terminal (a pseudo-terminal it controls, as from a shell): the progress line never
/// glued to a report line, the compact reporter, colour, Ctrl-C, and a reader that closes the pipe.
final class TerminalCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Copies the fixture to `name` in the scratch folder, `broken` with `version: "1"`; returns its path.
    func page(_ name: String, broken: Bool = false) throws -> String {
        var html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        if broken { html = html.replacingOccurrences(of: "version: 1", with: #"version: "1""#) }
        let path = scratch.appendingPathComponent(name).path
        try html.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A progress line as the terminal shows it: `page 1/2, 0 failed, 1.4 s…`.
    static let progress = try! NSRegularExpression(pattern: #"(page|session) \d+/\d+, \d+ failed, [0-9.]+ s"#)

    static func progressLines(in text: String) -> [String] {
        text.components(separatedBy: "\r").filter {
            progress.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
        }
    }

    // MARK: The progress line

    func testTheProgressLineGivesWayToEveryLineTicksWhileWaitingAndNamesThePage() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let pages = try (1...3).map { try page("p\($0).html") }
        let stall = server.url("/stall").absoluteString
        let run = try TerminalRun(
            ["check"] + pages.flatMap { ["--page", $0] } + ["--url", stall, "--jobs", "1", "--timeout", "60"])
        // While the stalled page waits, the line keeps counting and names it.
        let waiting = "; waiting on 127.0.0.1:\(server.url("/").port!)/stall"
        XCTAssertTrue(
            run.waitForOutput(timeout: 60) { raw in
                Set(Self.progressLines(in: raw).filter { $0.hasSuffix(waiting) }).count >= 3
            }, "the progress line was not redrawn while the last page waited, naming it:\n\(run.raw)")
        run.interrupt()
        let result = try run.wait()
        XCTAssertEqual(result.status, 130, result.raw)
        let screen = TerminalRun.screen(result.raw)
        // Erased before each line and at the end: no line on the screen holds a progress line, glued or not.
        let glued = screen.filter { !Self.progressLines(in: $0).isEmpty }
        XCTAssertEqual(glued, [], "a progress line stayed on the screen:\n\(screen.joined(separator: "\n"))")
        XCTAssertEqual(
            screen.filter { $0.hasPrefix("PASS  page ") }.count, 3, screen.joined(separator: "\n"))
    }

    // MARK: The compact reporter

    func testASuiteOnATerminalPrintsOneLineAPassingPageAndAFailureInFull() throws {
        let good = try page("good.html")
        let broken = try page("broken.html", broken: true)
        let run = try TerminalRun(["check", "--page", good, "--page", broken, "--jobs", "1"])
        let result = try run.wait()
        XCTAssertEqual(result.status, 1, result.raw)
        let screen = TerminalRun.screen(result.raw)
        XCTAssertTrue(screen.contains("PASS  page 1 of 2: \(good) (1 session)"), screen.joined(separator: "\n"))
        XCTAssertFalse(screen.contains("== page 1 of 2: \(good)"), screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("== page 2 of 2: \(broken)"), screen.joined(separator: "\n"))
        XCTAssertTrue(
            screen.contains { $0.hasPrefix("  page → native  FAIL     native did not receive") },
            screen.joined(separator: "\n"))

        // --reporter full prints every block on a terminal; a pipe gets the full report unless compact is asked.
        let full = TerminalRun.screen(
            try TerminalRun(["check", "--page", good, "--page", broken, "--jobs", "1", "--reporter", "full"]).wait()
                .raw)
        XCTAssertTrue(full.contains("== page 1 of 2: \(good)"), full.joined(separator: "\n"))
        let piped = try CLI.run(["check", "--page", good, "--page", broken, "--jobs", "1"])
        XCTAssertTrue(piped.stdout.contains("== page 1 of 2: \(good)\n"), piped.stdout)
        let compact = try CLI.run(["check", "--page", good, "--page", broken, "--jobs", "1", "--reporter", "compact"])
        XCTAssertTrue(compact.stdout.contains("PASS  page 1 of 2: \(good) (1 session)\n"), compact.stdout)
        XCTAssertTrue(compact.stdout.contains("== page 2 of 2: \(broken)\n"), compact.stdout)
        let wrong = try CLI.run(["check", "--reporter", "dots"])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("--reporter"), wrong.stderr)
    }

    // MARK: Colour

    func testVerdictsAreColouredOnATerminalAndPlainWithNO_COLOROrThroughAPipe() throws {
        let broken = try page("broken.html", broken: true)
        let coloured = try TerminalRun(["check", "--page", broken]).wait()
        XCTAssertEqual(coloured.status, 1, coloured.raw)
        XCTAssertTrue(coloured.raw.contains("  page → native  \u{1B}[31mFAIL\u{1B}[0m"), coloured.raw)
        XCTAssertTrue(coloured.raw.contains("  native → page  \u{1B}[32mPASS\u{1B}[0m"), coloured.raw)
        XCTAssertTrue(coloured.raw.contains("\r\n\u{1B}[31mFAIL\u{1B}[0m: native did not receive"), coloured.raw)

        let plain = try TerminalRun(["check", "--page", broken], environment: ["NO_COLOR": "1"]).wait()
        XCTAssertEqual(plain.status, 1, plain.raw)
        XCTAssertFalse(plain.raw.contains("\u{1B}"), plain.raw)
        XCTAssertTrue(plain.raw.contains("\r\nFAIL: native did not receive"), plain.raw)

        let piped = try CLI.run(["check", "--page", broken])
        XCTAssertFalse((piped.stdout + piped.stderr).contains("\u{1B}"), piped.stdout)
    }

    /// A CI log is a pipe: FORCE_COLOR or `--color always` colours it; `--color never` keeps a terminal plain.
    func testFORCE_COLORAndColorAlwaysColourAPipeAndColorNeverATerminal() throws {
        let broken = try page("broken.html", broken: true)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["FORCE_COLOR"] = "1"
        let forced = try CLI.run(["check", "--page", broken], environment: environment)
        XCTAssertEqual(forced.status, 1, forced.stderr)
        XCTAssertTrue(forced.stdout.contains("\n\u{1B}[31mFAIL\u{1B}[0m: native did not receive"), forced.stdout)
        let always = try CLI.run(["check", "--page", broken, "--color", "always"])
        XCTAssertTrue(always.stdout.contains("  page → native  \u{1B}[31mFAIL\u{1B}[0m"), always.stdout)
        let never = try TerminalRun(["check", "--page", broken, "--color", "never"]).wait()
        XCTAssertEqual(never.status, 1, never.raw)
        XCTAssertFalse(never.raw.contains("\u{1B}["), never.raw)
        let merged = scratch.appendingPathComponent("merged-colour.json").path
        _ = try CLI.run(["check", "--page", broken, "--report", "json=\(merged)"])
        let merge = try CLI.run(["report", "merge", merged, "--color", "always"])
        XCTAssertTrue(merge.stdout.contains("\u{1B}[31mFAIL\u{1B}[0m: "), merge.stdout)
        let wrong = try CLI.run(["check", "--color", "sometimes"])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
    }

    // MARK: Ctrl-C

    /// Ctrl-C sends SIGINT to the whole foreground group: webbridge, and the engine's web and network processes
    /// (Xvfb has a session of its own). Every run must end 130 with the partial summary, never a verdict over a
    /// session the signal cut short.
    func testCtrlCFromTheTerminalExits130WithThePartialSummaryEveryTime() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let good = try page("good.html")
        let stall = server.url("/stall").absoluteString
        for attempt in 1...10 {
            let marker = UUID().uuidString
            let run = try TerminalRun(
                ["check", "--page", good, "--url", stall, "--jobs", "1", "--timeout", "60"],
                environment: ["WEBBRIDGE_SIGNAL_PROBE": marker])
            defer { for pid in WebProcesses.carrying("WEBBRIDGE_SIGNAL_PROBE", marker) { kill(pid, SIGKILL) } }
            XCTAssertTrue(
                run.waitForOutput(containing: "page 1 of 2"), "run \(attempt): page 1 did not finish:\n\(run.raw)")
            XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "run \(attempt): page 2 was never requested")
            run.interrupt()
            let result = try run.wait()
            XCTAssertFalse(result.signalled, "run \(attempt) was killed by the signal:\n\(result.raw)")
            XCTAssertEqual(result.status, 130, "run \(attempt):\n\(result.raw)")
            let screen = TerminalRun.screen(result.raw)
            XCTAssertTrue(
                screen.contains("INTERRUPTED: interrupted by SIGINT after 1 of 2 pages; so far:"),
                "run \(attempt):\n\(screen.joined(separator: "\n"))")
            XCTAssertTrue(screen.contains("pages: 1 passed, 0 failed (of 1)"), screen.joined(separator: "\n"))
            // The last line says the run was stopped, what ran and what did not: never a green PASS.
            XCTAssertEqual(
                screen.last(where: { !$0.isEmpty }),
                "INTERRUPTED by SIGINT: 1 of 2 pages ran (1 passed, 0 failed), 1 did not run",
                "run \(attempt):\n\(screen.joined(separator: "\n"))")
            XCTAssertFalse(screen.contains { $0.hasPrefix("PASS:") }, screen.joined(separator: "\n"))
            let left = WebProcesses.waitForExit(
                of: WebProcesses.carrying("WEBBRIDGE_SIGNAL_PROBE", marker), timeout: 15)
            XCTAssertEqual(left, [], "run \(attempt): processes webbridge started outlived it")
        }
    }

    // MARK: A closed stdout

    func testAReaderThatClosesThePipeEndsTheRunQuietlyWith141() throws {
        // `webbridge check | head -1`: head exits after the header; the next line finds the pipe closed.
        let result = try CLI.runWrapped(
            ["/bin/bash", "-c", #""$0" "$@" | head -1; exit "${PIPESTATUS[0]}""#], ["check", "--repeat", "3"])
        XCTAssertEqual(result.status, 141, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("webbridge check: BridgeFixture.html (bundled)"), result.stdout)
        XCTAssertEqual(result.stderr, "", "a closed pipe is not an error to report")
    }
}
#endif
