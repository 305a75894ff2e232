import Foundation
import XCTest

/// `webbridge check --format html` as a CI job runs it: one HTML document on stdout, the usual exit codes.
final class HTMLReportCommandTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BridgeTestingTests/Fixtures/BridgeFixture.html")

    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Asserts `output` is exactly one HTML document and nothing else.
    func assertOneDocument(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(
            output.hasPrefix("<!DOCTYPE html>\n"), "stdout does not start the document", file: file, line: line)
        XCTAssertTrue(output.hasSuffix("</html>\n"), "stdout does not end with it", file: file, line: line)
        XCTAssertEqual(
            output.components(separatedBy: "<html").count - 1, 1, "one <html> element", file: file, line: line)
        XCTAssertEqual(output.components(separatedBy: "</html>").count - 1, 1, "one </html>", file: file, line: line)
        XCTAssertTrue(
            output.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""),
            "the report forbids every load", file: file, line: line)
        XCTAssertFalse(
            output.contains("webbridge check:"), "the text transcript leaked into the report", file: file, line: line)
    }

    func testPassingFixtureWritesOneReportAndExitsZero() throws {
        let result = try CLI.run(["check", "--format", "html"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertOneDocument(result.stdout)
        XCTAssertTrue(result.stdout.contains(#"data-event="ready received""#), "the ready arrow is missing")
        XCTAssertFalse(result.stdout.contains(#"class="failure""#), "a passing run shows a failure")
    }

    func testThrowingReceiverWritesTheFailureAndExitsOne() throws {
        let html = try String(contentsOf: Self.fixture, encoding: .utf8)
        let start = "window.bridgeReceive = function (message) {"
        XCTAssertTrue(html.contains(start), "the fixture changed: update this test")
        let page = scratch.appendingPathComponent("throws.html")
        try html.replacingOccurrences(of: start, with: start + "\n  throw new Error(\"Receiver refused\");")
            .write(to: page, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", "--page", page.path, "--timeout", "10", "--format", "html"])
        XCTAssertEqual(result.status, 1, result.stderr)
        assertOneDocument(result.stdout)
        XCTAssertTrue(
            result.stdout.contains(#"<div class="failure" data-category="page did not accept the native message""#),
            "the failure is not marked:\n\(result.stdout)")
        XCTAssertTrue(result.stdout.contains(#"data-page="throws.html""#), "the page is not named")
    }

    func testTheHeaderCarriesTheRunsContractTimeoutAndEngineAndTheTitleNamesThePage() throws {
        let single = try CLI.run(["check", "--format", "html", "--timeout", "12"])
        XCTAssertEqual(single.status, 0, single.stderr)
        XCTAssertTrue(
            single.stdout.contains("<title>BridgeFixture.html (bundled) — webbridge check report</title>"),
            single.stdout)
        XCTAssertTrue(single.stdout.contains(#"<dd data-meta="contract">&#39;bridge&#39; v1</dd>"#), single.stdout)
        XCTAssertTrue(single.stdout.contains(#"<dd data-meta="timeout">12 s</dd>"#), single.stdout)
        XCTAssertTrue(single.stdout.contains(#"<dd data-meta="engine">WebKitGTK 2."#), single.stdout)
        XCTAssertTrue(
            single.stdout.range(
                of: #"<dd data-meta="date">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ</dd>"#, options: .regularExpression)
                != nil, single.stdout)

        let page = scratch.appendingPathComponent("a.html")
        try FileManager.default.copyItem(at: Self.fixture, to: page)
        let suite = try CLI.run(["check", "--page", page.path, "--page", page.path, "--format", "html"])
        XCTAssertEqual(suite.status, 0, suite.stderr)
        assertOneDocument(suite.stdout)
        XCTAssertTrue(suite.stdout.contains("<title>2 pages — webbridge check report</title>"), suite.stdout)
        XCTAssertTrue(suite.stdout.contains(#"<dd data-meta="engine">WebKitGTK 2."#), suite.stdout)
    }
}
