#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

@MainActor
final class WKFrameInfoTests: XCTestCase {
    func testMainFrameMessageCarriesTheMainFrameAndItsOrigin() async throws {
        let session = Session()
        let received = expectation(description: "the main frame's message")
        session.collector.received = received
        var frames: [WKFrameInfo] = []
        session.collector.onMessage = { frames.append($0.frameInfo) }
        session.webView.loadHTMLString(
            "<script>window.webkit.messageHandlers.bridge.postMessage('top')</script>",
            baseURL: URL(string: "https://app.example:8443/index.html"))
        await fulfillment(of: [received], timeout: 5)
        let frame = try XCTUnwrap(frames.first)
        XCTAssertTrue(frame.isMainFrame)
        XCTAssertEqual(frame.securityOrigin.protocol, "https")
        XCTAssertEqual(frame.securityOrigin.host, "app.example")
        XCTAssertEqual(frame.securityOrigin.port, 8443)
        XCTAssertEqual(frame.request.url?.absoluteString, "https://app.example:8443/index.html")
        XCTAssertTrue(frame.webView === session.webView)
    }

    func testMainFrameMessagesFollowThePageAsItsURLChanges() async throws {
        // The main frame's snapshot is kept per page URL: a new URL must give the next message a new one.
        let session = Session()
        session.collector.expectedCount = 2
        let received = expectation(description: "a message before and one after history.pushState")
        session.collector.received = received
        var frames: [WKFrameInfo] = []
        session.collector.onMessage = { frames.append($0.frameInfo) }
        session.webView.loadHTMLString(
            """
            <script>
            window.webkit.messageHandlers.bridge.postMessage('before');
            history.pushState(null, '', '/moved?step=2');
            window.webkit.messageHandlers.bridge.postMessage('after');
            </script>
            """, baseURL: URL(string: "https://app.example/start.html"))
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(
            frames.map { $0.request.url?.absoluteString },
            ["https://app.example/start.html", "https://app.example/moved?step=2"])
        XCTAssertEqual(frames.map(\.isMainFrame), [true, true])
    }

    func testIframeMessageSaysSoAndKeepsItsBodyExactly() async throws {
        let session = Session()
        session.collector.expectedCount = 2
        let received = expectation(description: "the iframe's message, then the main frame's")
        session.collector.received = received
        var frames: [WKFrameInfo] = []
        session.collector.onMessage = { frames.append($0.frameInfo) }
        let inner =
            "<script>window.webkit.messageHandlers.bridge.postMessage({kind:'ready',list:[1,'x',null]})</script>"
        session.webView.loadHTMLString(
            """
            <iframe srcdoc="\(inner.replacingOccurrences(of: "\"", with: "&quot;"))"
              onload="window.webkit.messageHandlers.bridge.postMessage('top')"></iframe>
            """, baseURL: URL(string: "https://app.example/"))
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(frames.map(\.isMainFrame), [false, true])
        let body = try XCTUnwrap(session.collector.bodies.first as? NSDictionary)
        XCTAssertEqual(body, ["kind": "ready", "list": [1, "x", NSNull()]] as NSDictionary)
        XCTAssertEqual(frames.first?.securityOrigin.host, "app.example", "a srcdoc frame has its parent's origin")
        XCTAssertEqual(session.collector.bodies.last as? String, "top")
    }

    func testCrossOriginIframeReportsItsOwnOrigin() async throws {
        let framed = try LoopbackHTTPServer(routes: [
            "/frame.html": .page(
                status: 200, html: "<script>window.webkit.messageHandlers.bridge.postMessage('from frame')</script>")
        ])
        defer { framed.stop() }
        let session = Session()
        let received = expectation(description: "the cross-origin iframe's message")
        session.collector.received = received
        var frames: [WKFrameInfo] = []
        session.collector.onMessage = { frames.append($0.frameInfo) }
        session.webView.loadHTMLString(
            "<iframe src=\"\(framed.url("/frame.html").absoluteString)\"></iframe>",
            baseURL: URL(string: "http://app.example/"))
        await fulfillment(of: [received], timeout: 10)
        let frame = try XCTUnwrap(frames.first)
        XCTAssertFalse(frame.isMainFrame)
        XCTAssertEqual(frame.securityOrigin.protocol, "http")
        XCTAssertEqual(frame.securityOrigin.host, "127.0.0.1")
        XCTAssertEqual(frame.securityOrigin.port, framed.port)
        XCTAssertEqual(frame.request.url, framed.url("/frame.html"))
    }

    func testMessageAfterADroppedIframeMessageIsTheMainFrames() async throws {
        // The engine drops an uncloneable body: its frame tag must not stick to the next message.
        let session = Session()
        let received = expectation(description: "the main frame's message after the iframe's dropped one")
        session.collector.received = received
        var frames: [WKFrameInfo] = []
        session.collector.onMessage = { frames.append($0.frameInfo) }
        let inner =
            "<script>try { window.webkit.messageHandlers.bridge.postMessage({f: () => 1}) } catch (e) {}</script>"
        session.webView.loadHTMLString(
            """
            <iframe srcdoc="\(inner)" onload="window.webkit.messageHandlers.bridge.postMessage('top')"></iframe>
            """, baseURL: URL(string: "https://app.example/"))
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.collector.bodies.map { $0 as? String }, ["top"])
        XCTAssertEqual(frames.map(\.isMainFrame), [true])
    }

    func testHandlersAreKeyedByWorldAndName() async throws {
        let session = Session()
        let inApp = MessageCollector()
        let app = WKContentWorld.world(name: "app")
        session.controller.add(inApp, contentWorld: app, name: "bridge")
        XCTAssertThrowsError(
            try session.controller.addRefusingDuplicates(MessageCollector(), contentWorld: app, name: "bridge"))
        await session.load("<p>x</p>", in: self)
        let pageReceived = expectation(description: "the page world's handler got the page's message")
        session.collector.received = pageReceived
        let appReceived = expectation(description: "the app world's handler got the app world's message")
        inApp.received = appReceived
        var worlds: [String?] = []
        inApp.onMessage = { worlds.append($0.world.name) }
        _ = try await session.webView.evaluateJavaScript(
            "window.webkit.messageHandlers.bridge.postMessage('in app'), 1", in: nil, contentWorld: app)
        _ = try await session.webView.evaluateJavaScript(
            "window.webkit.messageHandlers.bridge.postMessage('in page'), 1")
        await fulfillment(of: [pageReceived, appReceived], timeout: 5)
        XCTAssertEqual(session.collector.bodies.map { $0 as? String }, ["in page"])
        XCTAssertEqual(inApp.bodies.map { $0 as? String }, ["in app"])
        XCTAssertEqual(worlds, ["app"])
        session.controller.removeScriptMessageHandler(forName: "bridge", contentWorld: app)
        let stillThere = try await session.webView.evaluateJavaScript("typeof window.webkit.messageHandlers.bridge")
        XCTAssertEqual(stillThere as? String, "object", "removing from one world keeps the page world's handler")
    }
}
#endif
