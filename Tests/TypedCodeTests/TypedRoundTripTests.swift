import BridgeContract
import Foundation
import XCTest

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// Generated Swift sends a native message, a page typed from the generated declarations (checked by tsc in
/// BridgeContractTests) receives it and posts a typed message back, and generated Swift decodes it: on the real
/// engine, for the default, Hotwire and Capacitor contracts.
@MainActor
final class TypedRoundTripTests: XCTestCase {
    final class Handler: NSObject, WKScriptMessageHandler {
        var bodies: [Any] = []
        var arrived: XCTestExpectation?

        nonisolated func userContentController(
            _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
        ) {
            MainActor.assumeIsolated {
                bodies.append(message.body)
                arrived?.fulfill()
            }
        }
    }

    final class Navigation: NSObject, WKNavigationDelegate {
        let finished: XCTestExpectation
        init(_ finished: XCTestExpectation) { self.finished = finished }

        nonisolated func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
            MainActor.assumeIsolated { finished.fulfill() }
        }
    }

    /// A loaded web view showing `page`, with `handler` registered on `name`.
    func load(_ page: String, handler: Handler, name: String) async throws -> WKWebView {
        let url = try XCTUnwrap(Bundle.module.url(forResource: page, withExtension: "html", subdirectory: "Pages"))
        let controller = WKUserContentController()
        controller.add(handler, name: name)
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let loaded = expectation(description: "\(page).html did not finish loading")
        let navigation = Navigation(loaded)
        webView.navigationDelegate = navigation
        _ = webView.loadHTMLString(try String(contentsOf: url, encoding: .utf8), baseURL: nil)
        await fulfillment(of: [loaded], timeout: 10)
        return webView
    }

    /// Evaluates the call, then waits for the page's answer to arrive at `handler`.
    func send(_ call: ReceiverCall, to webView: WKWebView, answeredAt handler: Handler, _ what: String) async throws
        -> Any
    {
        let arrived = expectation(description: "the page did not post \(what) after \(call)")
        handler.arrived = arrived
        // The call returns undefined, which the async form cannot return (Apple traps on it): end on a value.
        _ = try await webView.evaluateJavaScript(call.script + "; true")
        await fulfillment(of: [arrived], timeout: 10)
        return try XCTUnwrap(handler.bodies.last)
    }

    func testDefaultContract() async throws {
        let handler = Handler()
        let webView = try await load("default", handler: handler, name: DefaultContract.contract.handler)
        let text = "a \u{2028} \"quoted\" </script> \u{FEFF} line"
        let call = try DefaultContract.NativeToPage.sync(.init(value: text)).receiverCall()
        let body = try await send(call, to: webView, answeredAt: handler, "ready")
        XCTAssertEqual(try DefaultContract.PageToNative(body: body), .ready(.init()))
        let received = try await webView.evaluateJavaScript("document.body.dataset.received")
        XCTAssertEqual(received as? String, text, "the page did not receive the text as sent")
    }

    func testHotwireContract() async throws {
        let handler = Handler()
        let webView = try await load("hotwire", handler: handler, name: HotwireContract.contract.handler)
        let register = try HotwireContract.NativeToPage.register(.init(value: ["form", "menu"])).receiverCall()
        let body = try await send(register, to: webView, answeredAt: handler, "form/connect")
        guard case .formConnect(let connect) = try HotwireContract.PageToNative(body: body) else {
            return XCTFail("the page's message is not form/connect")
        }
        XCTAssertEqual(connect.id, "1")
        XCTAssertEqual(connect.data.submitTitle, "form,menu")
        XCTAssertEqual(connect.data.metadata.url, "/checkout")
        // Native answers the request with its id; the page shows what it got.
        let answer = HotwireContract.FormConnectReplyMessage(
            answering: connect, data: .init(metadata: .init(url: connect.data.metadata.url), submitTitle: "Sent"))
        _ = try await webView.evaluateJavaScript(
            try HotwireContract.NativeToPage.formConnectReply(answer).receiverCall().script + "; true")
        let reply = try await webView.evaluateJavaScript("document.body.dataset.reply")
        XCTAssertEqual(reply as? String, "1:Sent")
    }

    func testCapacitorContract() async throws {
        let handler = Handler()
        let webView = try await load("capacitor", handler: handler, name: CapacitorContract.contract.handler)
        let result = deviceInfo(answering: "42", model: "iPhone 15")
        let call = try CapacitorContract.NativeToPage.deviceGetInfoResult(result).receiverCall()
        let body = try await send(call, to: webView, answeredAt: handler, "Console/log")
        guard case .consoleLog(let log) = try CapacitorContract.PageToNative(body: body) else {
            return XCTFail("the page's message is not Console/log")
        }
        XCTAssertEqual(log.options.level, "info")
        XCTAssertEqual(log.options.message, "iPhone 15 true")
    }
}
