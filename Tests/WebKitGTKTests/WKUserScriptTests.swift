#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// User scripts as Apple's WebKit runs them: before or after the page's own scripts, in the page's world or not.
@MainActor
final class WKUserScriptTests: XCTestCase {
    /// What the page and its iframe saw of `window.injected`, while parsing and once loaded.
    struct Seen: Equatable {
        var whileParsing: String
        var afterLoad: String
        var inFrameWhileParsing: String
        var inFrameAfterLoad: String
    }

    static let page = """
        <script>window.seenWhileParsing = String(window.injected)</script>
        <iframe srcdoc="<script>parent.seenInFrame = String(window.injected)</script>"></iframe>
        """

    /// Loads the page in a session whose controller got `scripts`; the caller tears the session down.
    func load(_ scripts: [WKUserScript], removingThemFirst: Bool = false) async throws -> (Seen, Session) {
        let session = Session()
        for script in scripts { session.controller.addUserScript(script) }
        if removingThemFirst { session.controller.removeAllUserScripts() }
        await session.load(Self.page, in: self)
        let values =
            try await session.webView.evaluateJavaScript(
                """
                [String(window.seenWhileParsing), String(window.injected), String(window.seenInFrame),
                 String(document.querySelector('iframe').contentWindow.injected)]
                """) as? [String] ?? []
        XCTAssertEqual(values.count, 4, "the page did not report what it saw")
        let seen =
            values.count == 4
            ? Seen(
                whileParsing: values[0], afterLoad: values[1], inFrameWhileParsing: values[2],
                inFrameAfterLoad: values[3])
            : Seen(whileParsing: "", afterLoad: "", inFrameWhileParsing: "", inFrameAfterLoad: "")
        return (seen, session)
    }

    func script(_ value: String, _ time: WKUserScriptInjectionTime, mainFrameOnly: Bool) -> WKUserScript {
        WKUserScript(source: "window.injected = '\(value)'", injectionTime: time, forMainFrameOnly: mainFrameOnly)
    }

    func testADocumentStartScriptRunsBeforeThePagesOwnScripts() async throws {
        let (seen, session) = try await load([script("start", .atDocumentStart, mainFrameOnly: true)])
        defer { session.tearDown() }
        // The iframe gets nothing from a main-frame-only script.
        XCTAssertEqual(
            seen,
            Seen(
                whileParsing: "start", afterLoad: "start", inFrameWhileParsing: "undefined",
                inFrameAfterLoad: "undefined"))
        XCTAssertEqual(session.controller.userScripts.count, 1)
    }

    func testADocumentEndScriptRunsAfterThemAndInEveryFrameWhenAsked() async throws {
        let (seen, session) = try await load([script("end", .atDocumentEnd, mainFrameOnly: false)])
        defer { session.tearDown() }
        // Inline scripts, the iframe's too, run before their document ends.
        XCTAssertEqual(
            seen,
            Seen(whileParsing: "undefined", afterLoad: "end", inFrameWhileParsing: "undefined", inFrameAfterLoad: "end")
        )
    }

    func testADocumentStartScriptForEveryFrameRunsBeforeAnIframesScripts() async throws {
        let (seen, session) = try await load([script("start", .atDocumentStart, mainFrameOnly: false)])
        defer { session.tearDown() }
        XCTAssertEqual(
            seen,
            Seen(whileParsing: "start", afterLoad: "start", inFrameWhileParsing: "start", inFrameAfterLoad: "start"))
    }

    func testAnIsolatedWorldScriptDoesNotTouchThePagesGlobals() async throws {
        let isolated = WKUserScript(
            source: "window.injected = 'isolated'", injectionTime: .atDocumentStart, forMainFrameOnly: true,
            in: .defaultClient)
        let (seen, session) = try await load([isolated])
        defer { session.tearDown() }
        XCTAssertEqual(seen.whileParsing, "undefined")
        XCTAssertEqual(seen.afterLoad, "undefined")
        let inItsWorld = try await session.webView.evaluateJavaScript(
            "String(window.injected)", contentWorld: .defaultClient)
        XCTAssertEqual(inItsWorld as? String, "isolated", "the script must have run, in its own world")
    }

    func testRemovedScriptsAreNotInjectedIntoTheNextDocument() async throws {
        let (seen, session) = try await load(
            [script("start", .atDocumentStart, mainFrameOnly: false)], removingThemFirst: true)
        defer { session.tearDown() }
        XCTAssertTrue(session.controller.userScripts.isEmpty)
        XCTAssertEqual(
            seen,
            Seen(
                whileParsing: "undefined", afterLoad: "undefined", inFrameWhileParsing: "undefined",
                inFrameAfterLoad: "undefined"))
    }
}
#endif
