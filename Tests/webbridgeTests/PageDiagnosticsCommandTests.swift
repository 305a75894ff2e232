import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `webbridge check` on a page that logs and throws: its errors and warnings in the text, JSON and HTML reports,
/// named by the page's file (not its folder); other console levels with `--console`.
final class PageDiagnosticsCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-diag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The fixture in `pages/` with an app.js beside it and a script that logs, warns and throws.
    func page() throws -> (path: String, errorLine: Int) {
        let folder = scratch.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        XCTAssertTrue(html.contains("</body>"), "the fixture changed: update this test")
        html = html.replacingOccurrences(
            of: "</body>",
            with: """
                <script src="app.js"></script>
                <script>
                console.error("checkout failed");
                console.info("ready to pay");
                undefinedFunction();
                </script>
                </body>
                """)
        try html.write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "function warnSlow() {\n  console.warn(\"slow path\");\n}\nwarnSlow();\n".write(
            to: folder.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
        let line = (html.components(separatedBy: "\n").firstIndex { $0.contains("console.error(") } ?? -1) + 1
        return (folder.appendingPathComponent("page.html").path, line)
    }

    func testThePagesErrorsAndWarningsAreInEveryReportNamedByItsFile() throws {
        let (path, line) = try page()
        let json = scratch.appendingPathComponent("report.json").path
        let html = scratch.appendingPathComponent("report.html").path
        let junit = scratch.appendingPathComponent("junit.xml").path
        let result = try CLI.run([
            "check", "--page", path, "--report", "json=\(json)", "--report", "html=\(html)", "--report",
            "junit=\(junit)",
        ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let error = "console.error: checkout failed (page.html:\(line):14)"
        let warning = "console.warn: slow path (app.js:2:15)"
        XCTAssertTrue(result.stdout.contains("  console           \(error)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  console           \(warning)\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("pages/:"), "a location names the page's folder:\n\(result.stdout)")
        XCTAssertFalse(result.stdout.contains("ready to pay"), "console.info is recorded only with --console")
        // WebKit hides an uncaught error of a file page's script; the timeline says so, with the remedy.
        XCTAssertTrue(
            result.stdout.contains("page error        uncaught error, its text and place hidden by WebKit"),
            result.stdout)
        let report = try String(contentsOfFile: json, encoding: .utf8)
        XCTAssertTrue(report.contains("\"note\" : \"\(error)\""), report)
        XCTAssertTrue(report.contains("\"event\" : \"console\""), report)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains("data-event=\"console\""), page)
        XCTAssertTrue(page.contains(error), page)
        // JUnit: with the passing page → native case, where a dashboard shows a case's output.
        let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)), options: [])
        let output = try xml.nodes(forXPath: "//testcase[@name='session 1: page → native']/system-out")
        let junitText = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertEqual(output.count, 1, junitText)
        let lines = output.first?.stringValue?.components(separatedBy: "\n") ?? []
        XCTAssertTrue(lines.contains("console: \(error)"), "\(lines)")
        XCTAssertTrue(lines.contains("console: \(warning)"), "\(lines)")
    }

    func testEveryConsoleLevelWithTheConsoleOption() throws {
        let (path, line) = try page()
        let result = try CLI.run(["check", "--page", path, "--console"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("console.info: ready to pay (page.html:\(line + 1):13)"), result.stdout)
    }
}
