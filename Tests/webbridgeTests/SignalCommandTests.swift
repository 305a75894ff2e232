#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Signals sent as a CI runner and a closed terminal send them: to webbridge's whole process group (its engine's
/// web and network processes with it). Each stops the run with 128 + its number, the INTERRUPTED line, a partial
/// summary, and every `--report` file complete, the pages that never ran marked "not run".
final class SignalCommandTests: XCTestCase {
    var scratch: URL!
    var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        server = try LoopbackHTTPServer(routes: ["/stall": .stall])
    }

    override func tearDownWithError() throws {
        server.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    var stall: String { server.url("/stall").absoluteString }
    var stallName: String { "127.0.0.1:\(server.url("/").port!)/stall" }

    func good() throws -> String {
        let path = scratch.appendingPathComponent("good.html").path
        try FileManager.default.copyItem(atPath: CheckCommandTests.fixture.path, toPath: path)
        return path
    }

    /// Starts `arguments` as its own process group (a session on a pty), so a signal to the group reaches it and
    /// the engine's processes, never the test runner.
    func start(_ arguments: [String], marker: String) throws -> TerminalRun {
        try TerminalRun(arguments, environment: ["WEBBRIDGE_SIGNAL_PROBE": marker, "NO_COLOR": "1"])
    }

    func assertNothingLeft(_ marker: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let left = WebProcesses.waitForExit(of: WebProcesses.carrying("WEBBRIDGE_SIGNAL_PROBE", marker), timeout: 15)
        for pid in left { kill(pid, SIGKILL) }
        XCTAssertEqual(left, [], "\(context): processes webbridge started outlived it", file: file, line: line)
    }

    // MARK: Suites

    func testSIGTERMSIGHUPAndSIGQUITToTheGroupDuringASuiteKeepEveryReportWhole() throws {
        let good = try good()
        for (number, name, status) in [(SIGTERM, "SIGTERM", 143), (SIGHUP, "SIGHUP", 129), (SIGQUIT, "SIGQUIT", 131)] {
            let marker = UUID().uuidString
            let json = scratch.appendingPathComponent("\(name).json").path
            let junit = scratch.appendingPathComponent("\(name).xml").path
            let html = scratch.appendingPathComponent("\(name).html").path
            let run = try start(
                [
                    "check", "--page", good, "--url", stall, "--page", good, "--jobs", "1", "--timeout", "60",
                    "--report", "json=\(json)", "--report", "junit=\(junit)", "--report", "html=\(html)",
                ], marker: marker)
            XCTAssertTrue(run.waitForOutput(containing: "page 1 of 3"), "\(name): page 1 did not finish:\n\(run.raw)")
            XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "\(name): page 2 was never requested")
            kill(-run.pid, number)
            let result = try run.wait()
            XCTAssertFalse(result.signalled, "\(name) killed the run:\n\(result.raw)")
            XCTAssertEqual(result.status, Int32(status), "\(name):\n\(result.raw)")
            let screen = TerminalRun.screen(result.raw)
            XCTAssertTrue(
                screen.contains("INTERRUPTED: interrupted by \(name) after 1 of 3 pages; so far:"),
                "\(name):\n\(screen.joined(separator: "\n"))")
            XCTAssertTrue(screen.contains("NOT RUN: 2 pages (\(stallName), \(good))"), screen.joined(separator: "\n"))
            XCTAssertEqual(
                screen.last(where: { !$0.isEmpty }),
                "INTERRUPTED by \(name): 1 of 3 pages ran (1 passed, 0 failed), 2 did not run",
                "\(name):\n\(screen.joined(separator: "\n"))")
            XCTAssertFalse(screen.contains { $0.contains("web content process") }, screen.joined(separator: "\n"))

            let document = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any],
                "\(name): the JSON report is not a JSON object")
            XCTAssertEqual(document["interrupted"] as? Bool, true)
            XCTAssertEqual(document["pageCount"] as? Int, 1)
            XCTAssertEqual(document["notRun"] as? [String], [stallName, good])

            let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)), options: [])
            let suites = try xml.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
            XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, [good, stallName, good])
            let skipped = try xml.nodes(forXPath: "/testsuites/testsuite[2]/testcase/skipped")
            XCTAssertEqual(skipped.count, 1, "\(name): the page that never ran is not a skipped case")
            XCTAssertEqual(
                try xml.nodes(forXPath: "/testsuites/testsuite").compactMap {
                    ($0 as? XMLElement)?.attribute(forName: "skipped")?.stringValue
                }, ["0", "1", "1"])

            let page = try String(contentsOfFile: html, encoding: .utf8)
            XCTAssertTrue(page.hasSuffix("</html>\n"), "\(name): the HTML report is cut")
            XCTAssertTrue(page.contains("<h2>Not run (2)</h2>"), page)
            XCTAssertTrue(page.contains("<li data-page=\"\(stallName)\">"), page)
            assertNothingLeft(marker, name)
        }
    }

    // MARK: Single checks

    func testSIGTERMToTheGroupDuringRepeatedSessionsStopsWithThePartialSummaryEveryTime() throws {
        for attempt in 1...5 {
            let marker = UUID().uuidString
            let json = scratch.appendingPathComponent("repeat-\(attempt).json").path
            let run = try start(
                ["check", "--repeat", "100000", "--report", "json=\(json)"], marker: marker)
            XCTAssertTrue(
                run.waitForOutput(containing: "native → page  PASS"), "run \(attempt): no session finished:\n\(run.raw)"
            )
            kill(-run.pid, SIGTERM)
            let result = try run.wait()
            XCTAssertFalse(result.signalled, "run \(attempt) was killed by SIGTERM:\n\(result.raw)")
            XCTAssertEqual(result.status, 143, "run \(attempt):\n\(result.raw)")
            let screen = TerminalRun.screen(result.raw)
            let last = try XCTUnwrap(screen.last(where: { !$0.isEmpty }), result.raw)
            XCTAssertTrue(
                last.hasPrefix("INTERRUPTED: interrupted by SIGTERM after ")
                    && last.contains(" of 100000 sessions; so far: PASS: both directions of the bridge hold (")
                    && last.contains("; did not run: ") && last.hasSuffix(" of 100000"),
                "run \(attempt):\n\(screen.joined(separator: "\n"))")
            let document = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            XCTAssertEqual(document["interrupted"] as? Bool, true)
            XCTAssertEqual(document["passed"] as? Bool, true, "run \(attempt): a session cut short was counted")
            assertNothingLeft(marker, "run \(attempt)")
        }
    }

    func testSIGTERMBeforeTheFirstSessionEndsGivesNoVerdict() throws {
        let marker = UUID().uuidString
        let json = scratch.appendingPathComponent("none.json").path
        let html = scratch.appendingPathComponent("none.html").path
        let run = try start(
            ["check", "--url", stall, "--timeout", "60", "--report", "json=\(json)", "--report", "html=\(html)"],
            marker: marker)
        XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "the page was never requested")
        kill(-run.pid, SIGTERM)
        let result = try run.wait()
        XCTAssertEqual(result.status, 143, result.raw)
        let screen = TerminalRun.screen(result.raw)
        XCTAssertTrue(
            screen.contains("INTERRUPTED: interrupted by SIGTERM before the first of 1 session finished; no verdict"),
            screen.joined(separator: "\n"))
        XCTAssertFalse(screen.contains { $0.contains("PASS") }, screen.joined(separator: "\n"))
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        XCTAssertEqual(document["passed"] as? Bool, false, "no session finished: the JSON report is no pass")
        let pages = try XCTUnwrap(document["pages"] as? [[String: Any]])
        XCTAssertEqual(pages.first?["sessionCount"] as? Int, 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains(#"<p class="verdict none" data-passed="false">NO VERDICT</p>"#), page)
        XCTAssertTrue(page.contains("no verdict: no session finished"), page)
        assertNothingLeft(marker, "SIGTERM before the first session")
    }
}
#endif
