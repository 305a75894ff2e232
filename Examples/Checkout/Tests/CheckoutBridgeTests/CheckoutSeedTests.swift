import BridgeContract
import CheckoutBridge
import Foundation
import XCTest

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The bridge step by step against Apple's WebKit API, the style of the source document's seed test:
/// async on the main actor, so it runs on Linux (WebKitGTK) and unchanged in the simulator.
@MainActor
final class CheckoutSeedTests: XCTestCase {
    final class Handler: NSObject, WKScriptMessageHandler {
        var onMessage: (@MainActor (Any) -> Void)?

        nonisolated func userContentController(
            _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
        ) {
            MainActor.assumeIsolated { onMessage?(message.body) }
        }
    }

    final class Navigation: NSObject, WKNavigationDelegate {
        let finished: XCTestExpectation
        init(_ finished: XCTestExpectation) { self.finished = finished }

        nonisolated func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
            MainActor.assumeIsolated { finished.fulfill() }
        }
    }

    func testCartReadyReachesNativeCodeAndThePageAcceptsTheCoupon() async throws {
        let bridge = try CheckoutBridge()
        let html = try String(
            contentsOf: Bundle.module.url(forResource: "checkout", withExtension: "html", subdirectory: "Fixtures")!,
            encoding: .utf8)
        let loaded = expectation(description: "page load did not finish")
        let ready = expectation(description: "native did not receive the page's message")

        // A new controller with the handler registered, then the configuration, then the web view.
        let controller = WKUserContentController()
        let handler = Handler()
        var failures: [String] = []
        handler.onMessage = { body in
            // The production code's typed decoding: the app and this test share the contract's fields.
            do {
                switch try CheckoutContract.PageToNative(body: body, mode: .strict, handler: "checkout") {
                case .cartReady(let cart):
                    if cart.items != 3 || cart.currency != "EUR" { failures.append("cartReady with other values") }
                    ready.fulfill()
                }
            } catch {
                failures.append(String(describing: error))
            }
        }
        controller.add(handler, name: bridge.contract.handler)
        defer { controller.removeScriptMessageHandler(forName: bridge.contract.handler) }
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let navigation = Navigation(loaded)
        webView.navigationDelegate = navigation
        _ = webView.loadHTMLString(html, baseURL: nil)

        await fulfillment(of: [ready, loaded], timeout: 10)
        XCTAssertEqual(failures, [])

        // Native answers only after didFinish, through the contract's encoder: the code never becomes script text.
        // The call returns undefined, which the async form cannot return (Apple traps on it): end on a value.
        _ = try await webView.evaluateJavaScript(try bridge.applyCoupon(code: "WELCOME", percent: 10) + "; true")
        let shown = try await webView.evaluateJavaScript("document.body.dataset.coupon")
        XCTAssertEqual(shown as? String, "WELCOME", "page did not accept the native message")
    }
}
