#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

/// `webbridge check --repeat N` and `--retries N` on a page that fails now and then: reported flaky, each failing
/// session's order of events against the passing ones, and a replay token that makes that order again.
///
/// The page (Fixtures/Flaky/receiver-on-a-timer.html) installs its receiver on a timer it starts while it parses;
/// its load, and so native's sync on didFinish, waits for a picture the test's own HTTP server on loopback holds
/// 250 ms. The server makes the page's work before that timer 1.5 s long in one session only (its `pace.js`,
/// answered differently on one request), as a busy machine makes one session of many late. The engine is real, and
/// so is the race: native's sync on didFinish finds no receiver in that session.
final class FlakyCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Flaky")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-flaky-\(UUID().uuidString)")
    var server: LoopbackHTTPServer!

    /// Serves the page, with its work late in request `slow` of `pace.js` (1-based; nil: never).
    func serve(slow: Int?) throws -> String {
        let html = try String(
            contentsOf: Self.fixtures.appendingPathComponent("receiver-on-a-timer.html"), encoding: .utf8)
        let pace = try String(contentsOf: Self.fixtures.appendingPathComponent("pace.js"), encoding: .utf8)
        server = try LoopbackHTTPServer(routes: [
            "/receiver-on-a-timer.html": .page(status: 200, html: html),
            "/pace.js": .numbered(
                contentType: "text/javascript; charset=utf-8",
                bodies: slow.map { [$0: "window.pageWork = 1500;"] } ?? [:], otherwise: pace),
            "/picture.svg": .held(
                milliseconds: 250, contentType: "image/svg+xml",
                body: #"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>"#),
        ])
        return server.url("/receiver-on-a-timer.html").absoluteString
    }

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        server?.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// The replay token printed after a session's explanation (`replay: --replay TOKEN (words)`).
    static func token(after session: Int, in text: String) -> String? {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  session \(session): ") }),
            start + 1 < lines.count, let range = lines[start + 1].range(of: "replay: --replay ")
        else { return nil }
        return lines[start + 1][range.upperBound...].split(separator: " ").first.map(String.init)
    }

    func testAPageThatFailsOneSessionInThirtyIsFlakyWithItsOrderOfEventsAndAReplayThatFailsTwentyOfTwenty() throws {
        let url = try serve(slow: 7)
        let json = path("flaky.json")
        let junit = path("flaky.xml")
        let html = path("flaky.html")
        let run = try CLI.run(
            [
                "check", "--url", url, "--repeat", "30", "--report", "json=\(json)", "--report", "junit=\(junit)",
                "--report", "html=\(html)",
            ], timeout: 300)
        let output = run.stdout + run.stderr
        // Flaky is still a failure: the race is in the bridge.
        XCTAssertEqual(run.status, 1, output)
        XCTAssertTrue(
            run.stdout.contains("FLAKY: page did not accept the native message (1 of 30 sessions failed, 29 passed)"),
            output)
        XCTAssertTrue(run.stdout.contains("flaky: 1 of 30 sessions failed, 29 passed"), output)
        // The failing session's order against the passing ones: native's sync ran before the receiver existed,
        // where in passing sessions it ran after.
        let explanation = try XCTUnwrap(
            run.stdout.components(separatedBy: "\n").first { $0.hasPrefix("  session 7: ") }, output)
        XCTAssertNotNil(
            explanation.range(
                of: #"sync was evaluated before window\.bridgeReceive existed "#
                    + #"\(not yet when the session ended\); in passing sessions it came \d+\.\d ms after$"#,
                options: .regularExpression), explanation)
        let token = try XCTUnwrap(Self.token(after: 7, in: run.stdout), output)
        XCTAssertTrue(token.hasPrefix("wbs1-"), token)

        // The JSON report says so, follows the schema, and a merge keeps it.
        let document = try SchemaCheck.validReport(try String(contentsOfFile: json, encoding: .utf8))
        let page = try SchemaCheck.onlyPage(document)
        XCTAssertEqual(page["outcome"] as? String, "flaky")
        let flaky = try XCTUnwrap(page["flaky"] as? [String: Any], "\(page)")
        let explanations = try XCTUnwrap(flaky["explanations"] as? [[String: Any]], "\(flaky)")
        XCTAssertEqual(explanations.map { $0["session"] as? Int }, [7])
        XCTAssertEqual(explanations.first?["replay"] as? String, token)
        let merged = try CLI.run(["report", "merge", json, "--format", "json"])
        XCTAssertEqual(merged.status, 1, merged.stdout + merged.stderr)
        let mergedPage = try SchemaCheck.onlyPage(try SchemaCheck.validReport(merged.stdout))
        XCTAssertEqual(mergedPage["outcome"] as? String, "flaky")
        XCTAssertEqual(
            ((mergedPage["flaky"] as? [String: Any])?["explanations"] as? [[String: Any]])?.first?["order"] as? String,
            explanations.first?["order"] as? String)

        // JUnit: the failing session's case carries the why, and the suite says flaky; the common schema holds.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"<property name="webbridge.outcome" value="flaky"/>"#), xml)
        XCTAssertTrue(xml.contains("<system-out>flaky: 1 of 30 sessions failed; session 7: sync was evaluated"), xml)
        let schema = Self.fixtures.deletingLastPathComponent().appendingPathComponent("junit-10.xsd").path
        let lint = try ExternalTool.run(["xmllint", "--noout", "--schema", schema, junit])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        // HTML: the page is marked flaky, with each failing session's order and replay.
        let page7 = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page7.contains(#"data-outcome="flaky""#), page7)
        XCTAssertTrue(page7.contains(#"<li data-session="7">"#) && page7.contains("--replay \(token)"), page7)

        // The token makes that order again, every time, although the page's work is now never late.
        let replayed = try CLI.run(["check", "--url", url, "--replay", token, "--repeat", "20"], timeout: 300)
        XCTAssertEqual(replayed.status, 1, replayed.stdout + replayed.stderr)
        XCTAssertTrue(
            replayed.stdout.contains("FAIL: page did not accept the native message (20 of 20 sessions failed)"),
            replayed.stdout + replayed.stderr)
    }

    func testRetriesRunAFailingPageAgainUntilItPassesAndCallItFlaky() throws {
        let url = try serve(slow: 1)
        let run = try CLI.run(["check", "--url", url, "--retries", "3"], timeout: 120)
        let output = run.stdout + run.stderr
        XCTAssertEqual(run.status, 1, output)
        // The first session failed, the first retry passed; no further retry ran.
        XCTAssertTrue(
            run.stdout.contains("FLAKY: page did not accept the native message (1 of 2 sessions failed, 1 passed)"),
            output)
        XCTAssertNotNil(Self.token(after: 1, in: run.stdout), output)
        // A page that always passes runs once, however many retries are allowed.
        server.stop()
        let steady = try serve(slow: nil)
        let passed = try CLI.run(["check", "--url", steady, "--retries", "3"], timeout: 120)
        XCTAssertEqual(passed.status, 0, passed.stdout + passed.stderr)
        XCTAssertTrue(passed.stdout.contains("PASS: both directions of the bridge hold (1 session)"), passed.stdout)
    }

    /// In a suite, the flaky page is printed in full with its explanation, its summary line says so, and its JUnit
    /// suite alone carries the flaky property; the passing page stays one line.
    func testASuiteNamesItsFlakyPageAndKeepsThePassingOneShort() throws {
        let url = try serve(slow: 3)
        let junit = path("suite.xml")
        let run = try CLI.run(
            [
                "check", "--page", CheckCommandTests.fixture.path, "--url", url, "--repeat", "10", "--reporter",
                "compact", "--report", "junit=\(junit)",
            ], timeout: 300)
        let output = run.stdout + run.stderr
        XCTAssertEqual(run.status, 1, output)
        XCTAssertTrue(
            run.stdout.contains("PASS  page 1 of 2: \(CheckCommandTests.fixture.path) (10 sessions)"), output)
        XCTAssertTrue(run.stdout.contains("flaky: 1 of 10 sessions failed, 9 passed"), output)
        XCTAssertNotNil(Self.token(after: 3, in: run.stdout), output)
        XCTAssertTrue(run.stdout.contains("  of them flaky (failed and passed): 1 page (127.0.0.1:"), output)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let flakySuites = xml.components(separatedBy: #"<property name="webbridge.outcome" value="flaky"/>"#)
        XCTAssertEqual(flakySuites.count - 1, 1, xml)
    }

    func testRetriesAndStressDoNotCombine() throws {
        let run = try CLI.run(["check", "--stress", "2", "--retries", "1"])
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("give --stress or --retries, not both"), run.stderr)
    }
}
#endif
