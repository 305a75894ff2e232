import BridgeContract
import BridgeReports
import BridgeTesting
import EngineTestSupport
import Foundation
import XCTest

/// The page's own errors and console messages reach the timeline with their file and line, and its first uncaught
/// error is named when it is why a message never came.
@MainActor
final class PageDiagnosticsTests: XCTestCase {
    /// Runs the check on `/page.html` (the page's own inline script) served over loopback HTTP beside `/app.js`:
    /// one origin, so WebKit shows the page's errors in full (a page file's errors it hides; see the last tests).
    func check(inline: String, appScript: String? = nil, console: Bool = false) async throws -> SessionReport {
        let external = appScript == nil ? "" : #"<script src="app.js"></script>"#
        let html = "<!doctype html><html><body>\(external)<script>\n\(inline)\n</script></body></html>"
        var routes: [String: LoopbackHTTPServer.Route] = ["/page.html": .page(status: 200, html: html)]
        if let appScript { routes["/app.js"] = .file(contentType: "text/javascript", body: appScript) }
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.stop() }
        var configuration = CheckConfiguration(page: .url(server.url("/page.html")))
        configuration.console = console
        return await BridgeCheck.run(configuration)
    }

    /// The same page as a file: loaded from a string with the file's URL as its base, as `--page` does.
    func checkFile(inline: String, appScript: String? = nil) async throws -> SessionReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-diagnostics-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try appScript?.write(to: folder.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
        let external = appScript == nil ? "" : #"<script src="app.js"></script>"#
        let html = "<!doctype html><html><body>\(external)<script>\n\(inline)\n</script></body></html>"
        return await BridgeCheck.run(
            CheckConfiguration(page: .html(html, baseURL: folder.appendingPathComponent("page.html"))))
    }

    func reported(_ report: SessionReport) -> [String] {
        report.timeline.filter { $0.event == .pageReported }.map(\.note)
    }

    func testAnUncaughtErrorNamesItsFileAndLineAndExplainsTheMissingReady() async throws {
        let report = try await check(inline: "// the page's own script\nstartBridge();")
        let error = "ReferenceError: Can't find variable: startBridge (page.html:3:12)"
        XCTAssertEqual(reported(report), ["uncaught error: " + error])
        let failure = try XCTUnwrap(report.pageToNative.failure)
        XCTAssertTrue(
            failure.detail.contains("the page reported an uncaught error first: " + error), failure.detail)
    }

    func testAHundredThousandConsoleLinesDuringLoadDoNotStopTheLoadAndAreCounted() async throws {
        let html = """
            <!doctype html><html><body><script>
            for (let line = 0; line < 100000; line += 1) console.error("line", line);
            window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            </script></body></html>
            """
        let server = try LoopbackHTTPServer(routes: ["/page.html": .page(status: 200, html: html)])
        defer { server.stop() }
        // The default deadline: the page is good, and logging must not make it look otherwise.
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/page.html"))))
        XCTAssertNil(report.load.failure, "\(report.load)")
        XCTAssertNil(report.pageToNative.failure, "\(String(describing: report.pageToNative.failure))")
        let notes = reported(report)
        XCTAssertEqual(notes.filter { $0.hasPrefix("console.error: line number") }.count, 20, "\(notes)")
        let budget = 100
        let leftOff = try XCTUnwrap(notes.first { $0.hasPrefix("console left off: ") }, "\(notes)")
        XCTAssertTrue(leftOff.hasPrefix("console left off: \(100_000 - budget) console messages after the first"))
        XCTAssertTrue(leftOff.hasSuffix("; the last: console.error: line number"), leftOff)
    }

    func testTheUncaughtErrorAfterAHundredConsoleMessagesIsStillInTheVerdict() async throws {
        let report = try await check(
            inline: "for (let line = 0; line < 150; line += 1) console.warn(\"starting\");\nstartBridge();")
        let failure = try XCTUnwrap(report.pageToNative.failure)
        let error = "ReferenceError: Can't find variable: startBridge"
        XCTAssertTrue(failure.detail.contains("the page reported an uncaught error first: " + error), failure.detail)
        let notes = reported(report)
        XCTAssertTrue(notes.contains { $0.hasPrefix("uncaught error: " + error) }, "\(notes)")
    }

    func testErrorsPastTheBudgetKeepTheFirstAndTheLastAndAreCounted() async throws {
        let html = """
            <!doctype html><html><body><script>
            for (let error = 0; error < 150; error += 1) setTimeout(() => { throw new Error("boom " + error); });
            setTimeout(() => Promise.reject(new TypeError("late")));
            setTimeout(() => window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1}));
            </script></body></html>
            """
        let server = try LoopbackHTTPServer(routes: ["/page.html": .page(status: 200, html: html)])
        defer { server.stop() }
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/page.html"))))
        XCTAssertNil(report.pageToNative.failure, "\(String(describing: report.pageToNative.failure))")
        let notes = reported(report)
        XCTAssertTrue(notes.contains { $0.hasPrefix("uncaught error: Error: boom 0 ") }, "\(notes)")
        let leftOff = notes.filter { $0.hasPrefix("errors left off: ") }
        XCTAssertEqual(leftOff.count, 1, "\(notes)")
        let last = try XCTUnwrap(leftOff.first)
        XCTAssertTrue(last.hasPrefix("errors left off: 51 uncaught errors or unhandled rejections after"), last)
        XCTAssertTrue(last.contains("; the last: unhandled rejection: TypeError: late"), last)
    }

    func testAHundredThousandRejectionsDuringLoadLeaveThePageResponsiveAndAreCounted() async throws {
        let html = """
            <!doctype html><html><body><script>
            window.bridgeReceive = function (message) { document.body.dataset.received = message.value; };
            for (let error = 0; error < 100000; error += 1) Promise.reject(new Error("r" + error));
            window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            </script></body></html>
            """
        let server = try LoopbackHTTPServer(routes: ["/page.html": .page(status: 200, html: html)])
        defer { server.stop() }
        // The default deadline: the page is good, and its rejections must not make it look otherwise.
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/page.html"))))
        XCTAssertNil(report.pageToNative.failure, "\(String(describing: report.pageToNative.failure))")
        XCTAssertNil(report.nativeToPage.failure, "\(String(describing: report.nativeToPage.failure))")
        let notes = reported(report)
        XCTAssertTrue(notes.contains { $0.hasPrefix("unhandled rejection: Error: r0 (page.html:") }, "\(notes)")
        let leftOff = try XCTUnwrap(notes.first { $0.hasPrefix("errors left off: ") }, "\(notes)")
        XCTAssertTrue(leftOff.hasPrefix("errors left off: \(100_000 - 100) uncaught errors or unhandled"), leftOff)
        XCTAssertTrue(leftOff.hasSuffix("; the last: unhandled rejection: Error: r99999"), leftOff)
    }

    func testCountsForgedInTheDiagnosticsChannelNeverOverflow() async throws {
        let html = """
            <!doctype html><html><body><script>
            const forge = (kind, text) => window.webkit.messageHandlers.webbridgeDiagnostics.postMessage(
              {problem: "page", kind, text, url: "", line: 0, column: 0});
            forge("console left off", "9000000000000000000 console.error: a");
            forge("console left off", "9100000000000000000 console.error: b");
            forge("errors left off", "9223372036854775807 uncaught error: a");
            forge("errors left off", "9223372036854775807 uncaught error: b");
            window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            </script></body></html>
            """
        let server = try LoopbackHTTPServer(routes: ["/page.html": .page(status: 200, html: html)])
        defer { server.stop() }
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/page.html"))))
        XCTAssertNil(report.pageToNative.failure, "\(String(describing: report.pageToNative.failure))")
        let notes = reported(report)
        XCTAssertTrue(notes.contains { $0.hasPrefix("errors left off: \(Int.max) ") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("console left off: 9000000000000000000 ") }, "\(notes)")
    }

    func testAnUnhandledRejectionAndConsoleErrorsAreRecordedWithoutTheirValues() async throws {
        let report = try await check(
            inline: """
                console.error("bridge failed:", {token: "SECRET-4242"}, 42);
                console.warn("slow start");
                console.log("only with --console");
                Promise.reject(new TypeError("no handler"));
                """)
        let notes = reported(report)
        // A console message's place comes from JavaScriptCore's stack, which does not always hold the caller.
        XCTAssertEqual(
            notes.prefix(2).map { $0.components(separatedBy: " (page.html:").first! },
            ["console.error: bridge failed: Object number", "console.warn: slow start"])
        XCTAssertTrue(
            notes.contains { $0.hasPrefix("unhandled rejection: TypeError: no handler (page.html:5") }, "\(notes)")
        XCTAssertFalse(notes.contains { $0.contains("only with --console") }, "\(notes)")
        XCTAssertFalse(notes.joined().contains("SECRET-4242"), "a console value reached the timeline: \(notes)")
        // The HTML report marks the page's unhandled errors, not the console messages it chose to write.
        let html = HTMLReport.render(
            RunReport(
                pages: [BridgeReport(page: "page.html", sessions: [report])],
                contract: RunReport.Contract(name: "bridge", version: 1)))
        let marks = html.components(separatedBy: "\n").filter { $0.contains("data-event=\"page reported\"") }
        XCTAssertEqual(
            marks.map { $0.contains("dot bad") }, notes.map { $0.hasPrefix("unhandled rejection") }, "\(marks)")
    }

    func testEveryConsoleLevelWhenAskedFor() async throws {
        let report = try await check(inline: #"console.log("hello"); console.debug("details");"#, console: true)
        XCTAssertEqual(
            reported(report).map { $0.components(separatedBy: " (page.html:").first! },
            ["console.log: hello", "console.debug: details"])
    }

    func testAFilePagesErrorWebKitHidesFromThePageShowsItsRealTextAndLine() async throws {
        // File URLs are each their own origin to WebKit: the page's error event reads only "Script error.". The
        // engine's console has the real text and line (the web process extension beside the binary sends them).
        let report = try await checkFile(inline: "", appScript: "// the app's script\nstartBridge();\n")
        let error = "ReferenceError: Can't find variable: startBridge (app.js:2)"
        XCTAssertEqual(reported(report), ["uncaught error: " + error])
        let failure = try XCTUnwrap(report.pageToNative.failure)
        XCTAssertTrue(failure.detail.contains("the page reported an uncaught error first: " + error), failure.detail)
    }

    func testEachHiddenErrorOfAFilePageGetsItsOwnTextInOrder() async throws {
        // Two script files, each throwing, and the page's inline script throwing in between (hidden too: a page
        // file's origin is opaque).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-diagnostics-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "first();\n".write(to: folder.appendingPathComponent("one.js"), atomically: true, encoding: .utf8)
        try "\n\nthrow new TypeError('two failed');\n".write(
            to: folder.appendingPathComponent("two.js"), atomically: true, encoding: .utf8)
        let html = """
            <!doctype html><html><body><script src="one.js"></script><script>
            inline();
            </script><script src="two.js"></script></body></html>
            """
        let report = await BridgeCheck.run(
            CheckConfiguration(page: .html(html, baseURL: folder.appendingPathComponent("page.html"))))
        XCTAssertEqual(
            reported(report),
            [
                "uncaught error: ReferenceError: Can't find variable: first (one.js:1)",
                "uncaught error: ReferenceError: Can't find variable: inline (page.html:2)",
                "uncaught error: TypeError: two failed (two.js:3)",
            ])
    }

    func testAFilePageCannotReadItsOtherFilesAsInTheApp() async throws {
        // Why the check does not unmask a file page's errors with WebKit's file access from file URLs: that also
        // lets the page fetch and XHR its other files, which a WKWebView refuses by default (measured: with it on,
        // fetch answers and a synchronous XHR reads the file), so a page could pass here and fail in the app.
        let report = try await checkFile(
            inline: """
                fetch("app.js").then(() => console.error("fetch answered"), () => console.error("fetch refused"));
                const request = new XMLHttpRequest();
                try { request.open("GET", "app.js", false); request.send(); console.error("XHR read " + request.status); }
                catch (error) { console.error("XHR refused"); }
                """, appScript: "// nothing\n")
        let notes = reported(report).map { $0.components(separatedBy: " (page.html:").first! }
        XCTAssertTrue(notes.contains("console.error: fetch refused"), "\(notes)")
        XCTAssertTrue(notes.contains("console.error: XHR refused"), "\(notes)")
    }

    func testTheChecksOwnFailedCallIsNotThePagesError() async throws {
        // No receiver: native's call throws, and the Linux engine also tells the page of it. That is the call's
        // verdict, not an error of the page's.
        let report = try await checkFile(
            inline: #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#)
        XCTAssertEqual(report.nativeToPage.failure?.category, .pageDidNotAccept)
        XCTAssertEqual(reported(report), [])
    }

    func testAPageThatReplacesItsOwnToolsIsStillHeard() async throws {
        let report = try await check(
            inline: """
                Function.prototype.apply = function () { throw new Error("apply replaced"); };
                EventTarget.prototype.addEventListener = function () {};
                Reflect.apply = function () {};
                console.error("after the damage");
                missing();
                """)
        let notes = reported(report)
        XCTAssertTrue(notes.contains { $0.hasPrefix("console.error: after the damage") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("uncaught error: ReferenceError") }, "\(notes)")
    }

    func testAnInjectedUserScriptThatThrowsOrDoesNotParseIsNamed() async throws {
        // The app's scripts, injected before the page's own: the second throws, the third does not parse.
        var play = try BridgeCheck.plan(CheckConfiguration(page: .html("", baseURL: nil)))
        play.userScripts = [
            UserScriptSpec(source: "window.appReady = true;"),
            UserScriptSpec(source: "throw new Error('boom');"),
            UserScriptSpec(source: "function ( {"),
        ]
        let report = await BridgeCheck.run(
            CheckConfiguration(page: .html(try FixtureVariant.fixture(), baseURL: nil), play: play))
        XCTAssertTrue(report.passed, "\(report.failures)")
        let notes = reported(report)
        XCTAssertEqual(notes.count, 2, "\(notes)")
        XCTAssertTrue(
            notes[0].hasPrefix("uncaught error: the app's user script #2 of 3 threw or does not parse"), notes[0])
        XCTAssertTrue(
            notes[1].hasPrefix("uncaught error: the app's user script #3 of 3 threw or does not parse"), notes[1])
    }
}
