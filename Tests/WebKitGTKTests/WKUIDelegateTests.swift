#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Answers the page's dialogs as told and records what it was asked.
@MainActor
final class DialogAnswerer: NSObject, WKUIDelegate {
    var asked: [String] = []
    var frames: [WKFrameInfo] = []
    var confirmAnswer = true
    var promptAnswer: String? = "from native"
    /// Holds completions instead of calling them, to answer later (or never).
    var deferred: [@MainActor () -> Void] = []
    var defers = false
    var dropsCompletions = false
    var onAsk: (() -> Void)?

    func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {
        record("alert:\(message)", frame)
        answer { completionHandler() }
    }

    func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        record("confirm:\(message)", frame)
        let answer = confirmAnswer
        self.answer { completionHandler(answer) }
    }

    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        record("prompt:\(prompt):\(defaultText ?? "nil")", frame)
        let answer = promptAnswer
        self.answer { completionHandler(answer) }
    }

    private func record(_ question: String, _ frame: WKFrameInfo) {
        asked.append(question)
        frames.append(frame)
        onAsk?()
    }

    private func answer(_ completion: @escaping @MainActor () -> Void) {
        if dropsCompletions { return }
        if defers { deferred.append(completion) } else { completion() }
    }
}

@MainActor
final class WKUIDelegateTests: XCTestCase {
    /// A page that asks all three dialogs while it parses and posts the answers.
    static let dialogPage = """
        <script>
        alert('hello');
        const confirmed = confirm('sure?');
        const typed = prompt('name?', 'default');
        window.webkit.messageHandlers.bridge.postMessage({ confirmed, typed, typedIsNull: typed === null });
        </script>
        """

    func testWithoutUIDelegateDialogsNeverBlockAndAnswerLikeWKWebView() async throws {
        let session = Session()
        let received = expectation(description: "the page posted its dialog answers")
        session.collector.received = received
        await session.load(Self.dialogPage, in: self)
        await fulfillment(of: [received], timeout: 5)
        let body = try XCTUnwrap(session.collector.bodies.first as? [String: Any])
        XCTAssertEqual(body["confirmed"] as? NSNumber, false, "confirm gives false without a UI delegate")
        XCTAssertEqual(body["typedIsNull"] as? NSNumber, true, "prompt gives null without a UI delegate")
        XCTAssertEqual(session.recorder.events, ["start", "commit", "message", "finish"])
    }

    func testUIDelegateAnswersAlertConfirmAndPromptWithTheMainFrame() async throws {
        let session = Session()
        let answerer = DialogAnswerer()
        session.webView.uiDelegate = answerer
        let received = expectation(description: "the page posted the delegate's answers")
        session.collector.received = received
        session.webView.loadHTMLString(Self.dialogPage, baseURL: URL(string: "https://app.example/index.html"))
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(answerer.asked, ["alert:hello", "confirm:sure?", "prompt:name?:default"])
        let body = try XCTUnwrap(session.collector.bodies.first as? [String: Any])
        XCTAssertEqual(body["confirmed"] as? NSNumber, true)
        XCTAssertEqual(body["typed"] as? String, "from native")
        XCTAssertTrue(answerer.frames.allSatisfy(\.isMainFrame))
        XCTAssertEqual(answerer.frames.first?.securityOrigin.host, "app.example")
    }

    func testPromptAnsweredAtDocumentStartFeedsAUserScript() async throws {
        // Capacitor's injected script uses prompt() at document start as a synchronous channel to native.
        let session = Session()
        let answerer = DialogAnswerer()
        answerer.promptAnswer = "{\"platform\":\"ios\"}"
        session.webView.uiDelegate = answerer
        session.controller.addUserScript(
            WKUserScript(
                source: "window.nativeAnswer = prompt('$$CapacitorSync$$');", injectionTime: .atDocumentStart,
                forMainFrameOnly: true))
        let received = expectation(description: "the page posted what the document-start prompt returned")
        session.collector.received = received
        await session.load(
            "<script>window.webkit.messageHandlers.bridge.postMessage(String(window.nativeAnswer))</script>", in: self)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.collector.bodies.first as? String, "{\"platform\":\"ios\"}")
        XCTAssertEqual(
            answerer.asked, ["prompt:$$CapacitorSync$$:"], "prompt() without a default passes an empty default")
    }

    func testLaterAnswerUnblocksThePageOnlyThen() async throws {
        let session = Session()
        let answerer = DialogAnswerer()
        answerer.defers = true
        answerer.promptAnswer = "later"
        session.webView.uiDelegate = answerer
        let asked = expectation(description: "the delegate was asked")
        answerer.onAsk = { asked.fulfill() }
        let received = expectation(description: "the page posted after the late answer")
        session.collector.received = received
        session.webView.loadHTMLString(
            "<script>window.webkit.messageHandlers.bridge.postMessage(prompt('wait'))</script>", baseURL: nil)
        await fulfillment(of: [asked], timeout: 5)
        XCTAssertTrue(session.collector.bodies.isEmpty, "the page must wait for the answer")
        answerer.deferred.removeFirst()()
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.collector.bodies.first as? String, "later")
    }

    func testDroppedCompletionHandlerDoesNotLeaveThePageBlocked() async throws {
        let session = Session()
        let answerer = DialogAnswerer()
        answerer.dropsCompletions = true
        session.webView.uiDelegate = answerer
        let received = expectation(description: "the page went on after the delegate dropped the completion")
        session.collector.received = received
        session.webView.loadHTMLString(
            "<script>window.webkit.messageHandlers.bridge.postMessage(confirm('ok?'))</script>", baseURL: nil)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.collector.bodies.first as? NSNumber, false)
    }
}
#endif
