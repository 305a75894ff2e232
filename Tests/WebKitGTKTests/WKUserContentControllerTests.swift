#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

@MainActor
final class WKUserContentControllerTests: XCTestCase {
    func testRegisteringTheSameNameTwiceIsRefusedWithApplesMessage() async {
        let controller = WKUserContentController()
        controller.add(MessageCollector(), name: "bridge")
        XCTAssertThrowsError(try controller.addRefusingDuplicates(MessageCollector(), name: "bridge")) { error in
            XCTAssertEqual(
                (error as? WKScriptMessageHandlerRegistrationError)?.message,
                "Attempt to add script message handler with name 'bridge' when one already exists.")
        }
        XCTAssertThrowsError(
            try controller.addRefusingDuplicates(Replier(), name: "bridge"), "plain and reply handlers share names")
        XCTAssertEqual(controller.handlerNames, ["bridge"])
    }

    func testEmptyNameIsRefused() async {
        XCTAssertThrowsError(try WKUserContentController().addRefusingDuplicates(MessageCollector(), name: ""))
    }

    func testPostMessageRejectsInThePageAfterRemoval() async throws {
        let session = Session()
        await session.load("<script>window.held = window.webkit.messageHandlers.bridge</script>", in: self)
        session.controller.removeScriptMessageHandler(forName: "bridge")
        let outcome =
            try await session.webView.callAsyncJavaScript(
                """
                const out = [typeof window.webkit?.messageHandlers?.bridge];
                try { window.webkit.messageHandlers.bridge.postMessage(1); out.push('sent') } catch (e) { out.push(e.name) }
                try { await window.held.postMessage(2); out.push('resolved') } catch (e) { out.push(e.name) }
                return out
                """, contentWorld: .page) as? [String]
        XCTAssertEqual(outcome, ["undefined", "TypeError", "InvalidAccessError"])
        XCTAssertTrue(session.collector.bodies.isEmpty, "a removed handler must not receive messages")
    }

    func testReRegisteringAfterRemovalWorks() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        session.controller.removeScriptMessageHandler(forName: "bridge")
        let again = MessageCollector()
        let received = expectation(description: "the re-registered handler got the message")
        again.received = received
        session.controller.add(again, name: "bridge")
        _ = try await session.webView.evaluateJavaScript("window.webkit.messageHandlers.bridge.postMessage('again'), 1")
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(again.bodies.first as? String, "again")
        XCTAssertTrue(session.collector.bodies.isEmpty)
    }

    func testRemovingAnUnknownNameDoesNothing() async throws {
        let session = Session()
        session.controller.removeScriptMessageHandler(forName: "nobody")
        session.controller.removeScriptMessageHandler(forName: "bridge", contentWorld: .defaultClient)
        XCTAssertEqual(session.controller.handlerNames, ["bridge"])
    }

    func testTenThousandMessagesArriveInOrderWithNoneLost() async {
        let session = Session()
        let received = expectation(description: "all 10,000 messages arrived")
        session.collector.expectedCount = 10_000
        session.collector.received = received
        await session.load(
            "<script>for (let i = 0; i < 10000; i++) window.webkit.messageHandlers.bridge.postMessage(i)</script>",
            in: self)
        await fulfillment(of: [received], timeout: 30)
        let numbers = session.collector.bodies.compactMap { ($0 as? NSNumber)?.intValue }
        XCTAssertEqual(numbers, Array(0..<10_000))
    }

    func testReplyHandlerSettlesThePagePromise() async throws {
        let session = Session(handlerName: nil)
        let replier = Replier()
        replier.reply = { body -> (Any?, String?) in
            if (body as? String) == "fail" { return (nil, "refused") }
            let reply: [String: Any] = ["echo": body, "ok": true, "n": 1.5]
            return (reply, nil)
        }
        session.controller.addScriptMessageHandler(replier, contentWorld: .page, name: "ask")
        await session.load("<p>x</p>", in: self)
        let result =
            try await session.webView.callAsyncJavaScript(
                """
                const ok = await window.webkit.messageHandlers.ask.postMessage('hi');
                let failure; try { await window.webkit.messageHandlers.ask.postMessage('fail') } catch (e) { failure = e.message }
                return [ok.echo, ok.ok === true, ok.n, failure]
                """, contentWorld: .page) as? [Any]
        XCTAssertEqual(result?[0] as? String, "hi")
        XCTAssertEqual(result?[1] as? NSNumber, true)
        XCTAssertEqual(result?[2] as? NSNumber, 1.5)
        XCTAssertEqual(result?[3] as? String, "refused")
    }

    func testAsyncReplyFormSettlesThePagePromise() async throws {
        let session = Session(handlerName: nil)
        session.controller.addScriptMessageHandler(AsyncReplier(), contentWorld: .page, name: "ask")
        await session.load("<p>x</p>", in: self)
        let result = try await session.webView.callAsyncJavaScript(
            "return await window.webkit.messageHandlers.ask.postMessage('hi')", contentWorld: .page)
        XCTAssertEqual(result as? String, "async hi")
    }

    func testReplyHandlerNeverCalledRejectsThePromise() async throws {
        let session = Session(handlerName: nil)
        let replier = Replier()
        replier.ignoresMessages = true
        session.controller.addScriptMessageHandler(replier, contentWorld: .page, name: "ask")
        await session.load("<p>x</p>", in: self)
        let outcome =
            try await session.webView.callAsyncJavaScript(
                "try { await window.webkit.messageHandlers.ask.postMessage(1); return 'resolved' } catch (e) { return e.message }",
                contentWorld: .page) as? String
        XCTAssertEqual(outcome, "WKWebView API client did not respond to this postMessage")
    }

    func testRemovalReleasesTheHandlerWhileTheControllerLives() async {
        let session = Session(handlerName: nil)
        weak var handler: MessageCollector?
        do {
            let collector = MessageCollector()
            handler = collector
            session.controller.add(collector, name: "probe")
        }
        XCTAssertNotNil(handler, "the controller retains its handlers strongly")
        await session.load("<script>webkit.messageHandlers.probe.postMessage(1)</script>", in: self)
        session.controller.removeScriptMessageHandler(forName: "probe")
        XCTAssertNil(handler, "removeScriptMessageHandler(forName:) must release the handler")
    }

    func testHandlerIsReleasedAfterRemovalAndViewRelease() async {
        weak var handler: MessageCollector?
        weak var webView: WKWebView?
        do {
            let session = Session()
            handler = session.collector
            webView = session.webView
            await session.load("<script>webkit.messageHandlers.bridge.postMessage(1)</script>", in: self)
            session.tearDown()
        }
        XCTAssertNil(handler, "the handler outlived its removal and the view's release")
        XCTAssertNil(webView, "the web view outlived its session")
    }

    func testTwoHundredSessionsLeaveNoHandlerOrWebViewAlive() async throws {
        let handlersBefore = MessageCollector.live
        let viewsBefore = WKWebView.liveCount
        var handlers: [WeakBox<MessageCollector>] = []
        var views: [WeakBox<WKWebView>] = []
        for index in 0..<200 {
            let session = Session()
            handlers.append(WeakBox(session.collector))
            views.append(WeakBox(session.webView))
            let received = expectation(description: "session \(index) ready")
            session.collector.received = received
            await session.load(
                "<script>webkit.messageHandlers.bridge.postMessage({kind: 'ready', n: \(index)})</script>", in: self)
            await fulfillment(of: [received], timeout: 5)
            let echoed = try await session.webView.evaluateJavaScript("\(index) + 1") as? NSNumber
            XCTAssertEqual(echoed?.intValue, index + 1)
            session.tearDown()
        }
        XCTAssertEqual(handlers.filter { $0.value != nil }.count, 0, "handlers still alive")
        XCTAssertEqual(views.filter { $0.value != nil }.count, 0, "web views still alive")
        XCTAssertEqual(MessageCollector.live, handlersBefore)
        XCTAssertEqual(WKWebView.liveCount, viewsBefore)
    }
}

/// A weak reference, to count survivors.
@MainActor
final class WeakBox<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
#endif
