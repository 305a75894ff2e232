#if os(Linux)
import Foundation
import EngineTestSupport
import XCTest

/// A page that logs and throws past the diagnostics' budgets: every report format says how many console lines
/// and how many errors were left off and which came last, and keeps the first error, which the verdict names.
final class PageDiagnosticsBudgetCommandTests: XCTestCase {
    /// 300 console lines (100 kept), the error that stops the ready, then 150 uncaught errors and a rejection.
    static let script = """
        for (let line = 0; line < 300; line += 1) console.error("line", line);
        for (let error = 0; error < 150; error += 1) setTimeout(() => { throw new Error("boom " + error); });
        setTimeout(() => Promise.reject(new TypeError("late")));
        startBridge();
        """
    static let firstError = "ReferenceError: Can't find variable: startBridge (app.js:4:12)"
    static let consoleLeftOff = "console left off: 200 console messages after the first 100 of a document"
    static let lastConsoleLine = "; the last: console.error: line number"
    static let errorsLeftOff =
        "errors left off: 151 uncaught errors or unhandled rejections after the first 100 diagnostics or 100 errors "
        + "of a document, counted only; the last: unhandled rejection: TypeError: late"

    /// What one check of the page wrote (stdout in text, and each report file), then the merge of its JSON.
    struct Written {
        var text = "", json = "", junit = "", html = "", merged = "", mergedHTML = ""
    }

    /// The check runs once (it waits for the ready until its default deadline); each test reads one format.
    nonisolated(unsafe) static var written: Result<Written, any Error>?

    func written() throws -> Written {
        if let done = Self.written { return try done.get() }
        let result = Result { try Self.run() }
        Self.written = result
        return try result.get()
    }

    static func run() throws -> Written {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = { (name: String) in folder.appendingPathComponent(name).path }
        let server = try LoopbackHTTPServer(routes: [
            "/page.html": .page(status: 200, html: #"<!doctype html><html><body><script src="app.js"></script>"#),
            "/app.js": .file(contentType: "text/javascript", body: script),
        ])
        defer { server.stop() }
        let check = try CLI.run(
            ["check", "--url", server.url("/page.html").absoluteString]
                + ["json", "junit", "html"].flatMap { ["--report", "\($0)=" + file($0)] })
        XCTAssertEqual(check.status, 1, check.stdout + check.stderr)
        let merge = try CLI.run(["report", "merge", file("json"), "--format", "json", "--report", "html=" + file("m")])
        XCTAssertEqual(merge.status, 1, merge.stdout + merge.stderr)
        let read = { (name: String) in try String(contentsOfFile: file(name), encoding: .utf8) }
        return Written(
            text: check.stdout, json: try read("json"), junit: try read("junit"), html: try read("html"),
            merged: merge.stdout, mergedHTML: try read("m"))
    }

    /// The counts, the last of each left off, and the first error named by the verdict, in `written` (JUnit's
    /// and HTML's entities read as the characters they stand for).
    func assertLeftOffAndFirstErrorKept(_ written: String, _ format: String) {
        var output = written
        for (entity, character) in [("&#39;", "'"), ("&apos;", "'"), ("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">")] {
            output = output.replacingOccurrences(of: entity, with: character)
        }
        output = output.replacingOccurrences(of: "&amp;", with: "&")
        for expected in [Self.consoleLeftOff, Self.lastConsoleLine, Self.errorsLeftOff] {
            XCTAssertTrue(output.contains(expected), "\(format) lacks \"\(expected)\":\n\(output)")
        }
        XCTAssertTrue(
            output.contains("the page reported an uncaught error first: " + Self.firstError),
            "\(format): the verdict does not name the first error:\n\(output)")
        XCTAssertFalse(output.contains("boom 1"), "\(format) kept an error past the budget with its text:\n\(output)")
    }

    func testTheTextReportSaysWhatWasLeftOff() throws {
        assertLeftOffAndFirstErrorKept(try written().text, "text")
    }

    func testTheJSONReportSaysWhatWasLeftOff() throws {
        let json = try written().json
        _ = try SchemaCheck.validReport(json)
        assertLeftOffAndFirstErrorKept(json, "JSON")
    }

    func testTheJUnitReportSaysWhatWasLeftOff() throws {
        assertLeftOffAndFirstErrorKept(try written().junit, "JUnit")
    }

    func testTheHTMLReportSaysWhatWasLeftOff() throws {
        assertLeftOffAndFirstErrorKept(try written().html, "HTML")
    }

    func testTheMergedReportSaysWhatWasLeftOff() throws {
        let written = try written()
        _ = try SchemaCheck.validReport(written.merged)
        assertLeftOffAndFirstErrorKept(written.merged, "merged JSON")
        assertLeftOffAndFirstErrorKept(written.mergedHTML, "merged HTML")
    }
}
#endif
