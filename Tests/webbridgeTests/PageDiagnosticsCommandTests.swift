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
        console.error("bridge failed:", "SECRET-4243", 7, null, ["SECRET-4244"]);
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
        XCTAssertTrue(result.stdout.contains("console.error: bridge failed: string number null Array"), result.stdout)
        XCTAssertFalse(result.stdout.contains("console.log"), "console.log without --console:\n\(result.stdout)")
    }

    func testConsoleAddsEveryLevelAndTheJSONCarriesThemAsStructure() throws {
        let result = try check(["--console", "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("console.log: starting Object"), result.stdout)
        XCTAssertTrue(result.stdout.contains("page reported"), result.stdout)
        XCTAssertFalse(result.stdout.contains("SECRET-4242"), "a console value reached the report:\n\(result.stdout)")
    }

    func testAConsoleMessagesOtherArgumentsShowOnlyTheirTypeInEveryFormat() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = ["junit", "html", "json"].flatMap {
            ["--report", "\($0)=" + folder.appendingPathComponent($0).path]
        }
        let result = try check(["--console"] + reports)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("console.error: bridge failed: string number null Array"), result.stdout)
        let written = try ["junit", "html", "json"].map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        XCTAssertTrue(written.allSatisfy { $0.contains("bridge failed: string number null Array") }, "\(written)")
        for output in [result.stdout, result.stderr] + written {
            XCTAssertFalse(output.contains("SECRET"), "a console argument's value was shown:\n\(output)")
        }
    }
}
#endif
