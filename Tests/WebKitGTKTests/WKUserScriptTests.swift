#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK

/// User scripts as Apple's WebKit runs them: before or after the page's own scripts, in the page's world or not.
@MainActor
final class WKUserScriptTests: XCTestCase {
    /// The page records what it saw of `window.injected` while it parsed, and again once loaded.
    static let page = """
        <script>window.seenWhileParsing = String(window.injected)</script>
        <iframe srcdoc="<script>parent.seenInFrame = String(window.injected)</script>"></iframe>
        """

    func outcome(_ session: Session) async throws -> [String] {
        try await session.webView.evaluateJavaScript(
            """
            [String(window.seenWhileParsing), String(window.injected), String(window.seenInFrame),
             String(document.querySelector('iframe').contentWindow.injected)]
            """) as? [String]
            ?? []
    }

    func testADocumentStartScriptRunsBeforeThePagesOwnScripts() async throws {
        let session = Session()
        session.controller.addUserScript(
            WKUserScript(source: "window.injected = 'start'", injectionTime: .atDocumentStart, forMainFrameOnly: true))
        await session.load(Self.page, in: self)
        let seen = try await outcome(session)
        XCTAssertEqual(seen[0], "start", "the page's script must see what the user script set")
        XCTAssertEqual(seen[2], "undefined", "a main-frame-only script must not run in the iframe")
        XCTAssertEqual(seen[3], "undefined")
        XCTAssertEqual(session.controller.userScripts.count, 1)
        session.tearDown()
    }

    func testADocumentEndScriptRunsAfterThemAndInEveryFrameWhenAsked() async throws {
        let session = Session()
        session.controller.addUserScript(
            WKUserScript(source: "window.injected = 'end'", injectionTime: .atDocumentEnd, forMainFrameOnly: false))
        await session.load(Self.page, in: self)
        let seen = try await outcome(session)
        XCTAssertEqual(seen[0], "undefined", "the page's inline script runs before a document-end script")
        XCTAssertEqual(seen[1], "end")
        XCTAssertEqual(seen[2], "undefined", "the iframe's inline script ran before its document ended too")
        XCTAssertEqual(seen[3], "end", "a script for every frame runs in the iframe as well")
        session.tearDown()
    }

    func testADocumentStartScriptForEveryFrameRunsBeforeAnIframesScripts() async throws {
        let session = Session()
        session.controller.addUserScript(
            WKUserScript(source: "window.injected = 'start'", injectionTime: .atDocumentStart, forMainFrameOnly: false))
        await session.load(Self.page, in: self)
        let seen = try await outcome(session)
        XCTAssertEqual(seen[0], "start")
        XCTAssertEqual(seen[2], "start")
        session.tearDown()
    }

    func testAnIsolatedWorldScriptDoesNotTouchThePagesGlobals() async throws {
        let session = Session()
        session.controller.addUserScript(
            WKUserScript(
                source: "window.injected = 'isolated'", injectionTime: .atDocumentStart, forMainFrameOnly: true,
                in: .defaultClient))
        await session.load(Self.page, in: self)
        let seen = try await outcome(session)
        XCTAssertEqual(seen[0], "undefined")
        XCTAssertEqual(seen[1], "undefined")
        let inItsWorld = try await session.webView.evaluateJavaScript(
            "String(window.injected)", contentWorld: .defaultClient)
        XCTAssertEqual(inItsWorld as? String, "isolated", "the script must have run, in its own world")
        session.tearDown()
    }

    func testRemovedScriptsAreNotInjectedIntoTheNextDocument() async throws {
        let session = Session()
        session.controller.addUserScript(
            WKUserScript(source: "window.injected = 'start'", injectionTime: .atDocumentStart, forMainFrameOnly: true))
        session.controller.removeAllUserScripts()
        XCTAssertTrue(session.controller.userScripts.isEmpty)
        await session.load(Self.page, in: self)
        let seen = try await outcome(session)
        XCTAssertEqual(seen[0], "undefined")
        session.tearDown()
    }
}
#endif
