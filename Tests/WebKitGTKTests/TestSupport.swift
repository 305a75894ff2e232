#if os(Linux)
import Foundation
import Glibc
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Records navigation events in order and fulfils expectations for them.
@MainActor
final class NavigationRecorder: NSObject, WKNavigationDelegate {
    var events: [String] = []
    var finished: XCTestExpectation?
    var failedProvisionally: XCTestExpectation?
    var failed: XCTestExpectation?
    var terminated: XCTestExpectation?
    var provisionalError: (any Error)?
    var committedError: (any Error)?
    var response: WKNavigationResponse?
    var responsePolicy: WKNavigationResponsePolicy = .allow
    var onFinish: (() -> Void)?
    var navigations: [ObjectIdentifier] = []

    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        events.append("start")
        navigations.append(ObjectIdentifier(navigation))
    }
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) { events.append("commit") }
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        events.append("finish")
        navigations.append(ObjectIdentifier(navigation))
        onFinish?()
        finished?.fulfill()
    }
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        events.append("fail")
        committedError = error
        failed?.fulfill()
    }
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {
        events.append("failProvisional")
        provisionalError = error
        failedProvisionally?.fulfill()
    }
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        events.append("terminated")
        terminated?.fulfill()
    }
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {
        response = navigationResponse
        decisionHandler(responsePolicy)
    }
}

/// Collects the messages posted to one handler, fulfilling an expectation per message or at a count.
@MainActor
final class MessageCollector: NSObject, WKScriptMessageHandler {
    var bodies: [Any] = []
    var names: [String] = []
    var mainFrame: [Bool] = []
    var received: XCTestExpectation?
    var expectedCount = 1
    var onMessage: ((WKScriptMessage) -> Void)?
    var events: [String] = []
    weak var recorder: NavigationRecorder?
    static var live = 0

    override init() { Self.live += 1 }
    isolated deinit { Self.live -= 1 }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        bodies.append(message.body)
        names.append(message.name)
        mainFrame.append(message.frameInfo.isMainFrame)
        recorder?.events.append("message")
        onMessage?(message)
        if bodies.count == expectedCount { received?.fulfill() }
    }
}

/// Replies to each message with a value computed from its body.
@MainActor
final class Replier: NSObject, WKScriptMessageHandlerWithReply {
    var reply: (Any) -> (Any?, String?) = { ($0, nil) }
    var ignoresMessages = false
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        if ignoresMessages { return }
        let (value, error) = reply(message.body)
        replyHandler(value, error)
    }
}

/// Replies through the `async` form of the protocol.
@MainActor
final class AsyncReplier: NSObject, WKScriptMessageHandlerWithReply {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?) {
        await Task.yield()
        return ((message.body as? String).map { "async " + $0 }, nil)
    }
}

/// One web view with its own controller, a collector named "bridge" and a navigation recorder.
@MainActor
final class Session {
    let controller = WKUserContentController()
    let collector = MessageCollector()
    let recorder = NavigationRecorder()
    let webView: WKWebView

    init(handlerName: String? = "bridge", store: WKWebsiteDataStore = .default()) {
        if let handlerName { controller.add(collector, name: handlerName) }
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        configuration.websiteDataStore = store
        webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = recorder
        collector.recorder = recorder
    }

    /// Loads `html` and waits for didFinish.
    func load(_ html: String, in test: XCTestCase, timeout: TimeInterval = 10) async {
        let finished = test.expectation(description: "didFinish for the inline page")
        recorder.finished = finished
        webView.loadHTMLString(html, baseURL: nil)
        await test.fulfillment(of: [finished], timeout: timeout)
        recorder.finished = nil
    }

    func tearDown() {
        controller.removeScriptMessageHandler(forName: "bridge")
        webView.navigationDelegate = nil
    }
}

#endif
