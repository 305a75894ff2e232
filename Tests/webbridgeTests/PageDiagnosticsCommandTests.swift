#if os(Linux)
import Foundation
import EngineTestSupport
import XCTest

/// `webbridge check` shows the page's own errors and console messages, by file and line, in every format.
final class PageDiagnosticsCommandTests: XCTestCase {
    static let page = """
        <!doctype html><html><body><script src="app.js"></script><script>
        window.bridgeReceive = function (message) { document.body.dataset.received = message.value; };
        </script></body></html>
        """
    static let script = """
        console.log("starting", {token: "SECRET-4242"});
        console.error("bridge failed:", "SECRET-as-text-is-the-page's-own");
        startBridge();
        """

    func check(_ extra: [String]) throws -> CLIResult {
        let server = try LoopbackHTTPServer(routes: [
            "/page.html": .page(status: 200, html: Self.page),
            "/app.js": .file(contentType: "text/javascript", body: Self.script),
        ])
        defer { server.stop() }
        return try CLI.run(["check", "--url", server.url("/page.html").absoluteString] + extra)
    }

    func testTheUncaughtErrorIsOnTheTimelineAndInTheVerdict() throws {
        let result = try check([])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let error = "ReferenceError: Can't find variable: startBridge (app.js:3:12)"
        XCTAssertTrue(result.stdout.contains("page reported     uncaught error: " + error), result.stdout)
        XCTAssertTrue(result.stdout.contains("the page reported an uncaught error first: " + error), result.stdout)
        XCTAssertTrue(result.stdout.contains("console.error: bridge failed:"), result.stdout)
        XCTAssertFalse(result.stdout.contains("console.log"), "console.log without --console:\n\(result.stdout)")
    }

    func testConsoleAddsEveryLevelAndTheJSONCarriesThemAsStructure() throws {
        let result = try check(["--console", "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("console.log: starting Object"), result.stdout)
        XCTAssertTrue(result.stdout.contains("page reported"), result.stdout)
        XCTAssertFalse(result.stdout.contains("SECRET-4242"), "a console value reached the report:\n\(result.stdout)")
    }
}
#endif
