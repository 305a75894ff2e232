import BridgeContract
import EngineTestSupport
import XCTest

@testable import BridgeTesting

/// The page's own trouble on the timeline: uncaught errors, unhandled rejections, console.error and console.warn
/// (every level with `allConsoleLevels`), each with the script's file name and line, on the real engine.
@MainActor
final class PageDiagnosticsTests: XCTestCase {
    /// The fixture with a script of its own after the bridge's: `script` runs at the end of the body.
    static func fixture(appending script: String) throws -> String {
        let html = try FixtureVariant.fixture()
        XCTAssertTrue(html.contains("</body>"), "the fixture changed: update this test")
        return html.replacingOccurrences(
            of: "</body>", with: "<script src=\"app.js\"></script>\n<script>\n\(script)\n</script>\n</body>")
    }

    /// 1-based line of the first line of `html` that contains `text`.
    static func line(of text: String, in html: String) -> Int {
        (html.components(separatedBy: "\n").firstIndex { $0.contains(text) } ?? -1) + 1
    }

    static let appScript = "function warnSlow() {\n  console.warn(\"slow path\");\n}\nwarnSlow();\n"
    static let pageScript = """
        console.error("checkout failed", 42);
        console.log("hello");
        Promise.reject(new TypeError("nope"));
        undefinedFunction();
        """

    /// Checks the page as a deployed site serves it: the page and its app.js on a loopback server.
    func servedCheck(allConsoleLevels: Bool = false) async throws -> (SessionReport, String) {
        let html = try Self.fixture(appending: Self.pageScript)
        let server = try LoopbackHTTPServer(routes: [
            "/shop/page.html": .page(status: 200, html: html),
            "/shop/app.js": .file(contentType: "text/javascript", body: Self.appScript),
        ])
        defer { server.stop() }
        var configuration = CheckConfiguration(page: .url(server.url("/shop/page.html")), timeout: 10)
        configuration.allConsoleLevels = allConsoleLevels
        return (await BridgeCheck.run(configuration), html)
    }

    func testErrorsRejectionsAndConsoleErrorsAndWarningsAreOnTheTimelineWithFileAndLine() async throws {
        let (report, html) = try await servedCheck()
        XCTAssertTrue(report.passed, "the page's own errors are not the bridge's: \(report.failures)")
        let notes = report.timeline.filter { $0.event == .console || $0.event == .pageError }
            .map { "\($0.event.rawValue): \($0.note)" }
        let error = Self.line(of: "console.error(", in: html)
        let rejection = Self.line(of: "Promise.reject(", in: html)
        let uncaught = Self.line(of: "undefinedFunction()", in: html)
        XCTAssertEqual(
            notes.sorted(),
            [
                "console: console.error: checkout failed 42 (page.html:\(error):14)",
                "console: console.warn: slow path (app.js:2:15)",
                "page error: uncaught ReferenceError: Can't find variable: undefinedFunction (page.html:\(uncaught):18)",
                "page error: unhandled rejection: TypeError: nope (page.html:\(rejection):29)",
            ].sorted(), "\(report.timeline)")
        XCTAssertFalse(notes.contains { $0.contains("hello") }, "console.log is recorded only when asked")
    }

    func testEveryConsoleLevelWhenAsked() async throws {
        let (report, html) = try await servedCheck(allConsoleLevels: true)
        let log = Self.line(of: "console.log(", in: html)
        XCTAssertTrue(
            report.timeline.contains { $0.event == .console && $0.note == "console.log: hello (page.html:\(log):12)" },
            "\(report.timeline)")
    }

    nonisolated func testAScriptURLIsNamedByItsFileNotItsFolder() {
        XCTAssertEqual(PageDiagnostic.fileName("file:///work/pages/checkout.html"), "checkout.html")
        XCTAssertEqual(PageDiagnostic.fileName("https://shop.example/app/main.js?v=2"), "main.js")
        XCTAssertEqual(PageDiagnostic.fileName("https://shop.example/app/"), "shop.example/app/")
        XCTAssertEqual(PageDiagnostic.fileName(""), "")
    }
}
