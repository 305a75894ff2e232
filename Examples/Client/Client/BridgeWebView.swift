import BridgeContract
import SwiftUI
import WebKit

/// A web view wired to the bridge contract: the page posts `{kind: "ready", version: 1}` to `bridge`,
/// the app answers with `window.bridgeReceive({"kind":"sync","value":"ok"})`.
///
/// Both directions go through `BridgeContract`, the field definitions the tests check: the page's message is
/// validated by `BridgeContract.validate`, the answer is built and escaped by `ReceiverCall`. No hand-written check.
struct BridgeWebView: UIViewRepresentable {
    @Binding var status: String

    /// The contract the page speaks; production apps load theirs with `BridgeContract.load(contentsOf:)`.
    static let contract = BridgeContract.default

    /// The page the app shows; production apps load their own page that speaks the same contract.
    static let page = """
        <!doctype html><meta name="viewport" content="width=device-width">
        <body><p id="state">waiting</p><script>
        window.bridgeReceive = function (message) {
          if (!message || message.kind !== "sync" || typeof message.value !== "string") {
            throw new Error("Invalid native message");
          }
          document.getElementById("state").textContent = "native said " + message.value;
        };
        window.webkit.messageHandlers.bridge.postMessage({ kind: "ready", version: 1 });
        </script></body>
        """

    func makeCoordinator() -> Coordinator { Coordinator(status: $status) }

    func makeUIView(context: Context) -> WKWebView {
        // The handler is registered before the web view exists, so the first message can't be lost.
        let controller = WKUserContentController()
        controller.add(context.coordinator, name: Self.contract.handler)
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        let webView = WKWebView(frame: .zero, configuration: configuration)
        context.coordinator.webView = webView
        webView.loadHTMLString(Self.page, baseURL: nil)
        return webView
    }

    func updateUIView(_ webView: WKWebView, context: Context) {}

    static func dismantleUIView(_ webView: WKWebView, coordinator: Coordinator) {
        // Removing the handler breaks the controller -> handler retain cycle.
        webView.configuration.userContentController.removeScriptMessageHandler(forName: contract.handler)
    }

    /// Receives the page's messages and answers them.
    @MainActor
    final class Coordinator: NSObject, WKScriptMessageHandler {
        @Binding var status: String
        weak var webView: WKWebView?

        init(status: Binding<String>) { _status = status }

        /// `nonisolated` compiles warning-free with both SDKs: the Xcode 16 SDK declares WKScriptMessageHandler
        /// `@MainActor`, the Xcode 15 SDK does not (where `@preconcurrency` would be needed, and Xcode 16 warns that it
        /// has no effect). WebKit calls handlers on the main thread with either, which `assumeIsolated` checks.
        nonisolated func userContentController(
            _ controller: WKUserContentController, didReceive message: WKScriptMessage
        ) {
            MainActor.assumeIsolated { receive(message) }
        }

        private func receive(_ message: WKScriptMessage) {
            switch BridgeWebView.contract.validate(message.body, direction: .pageToNative) {
            case .invalid(let violations):
                // Structure only (field paths and types), never the page's values.
                status = "rejected a message: " + violations.map(\.description).joined(separator: "; ")
            case .valid(let ready):
                status = "page \(ready.kind)"
                reply(["kind": "sync", "value": "ok"])
            }
        }

        /// Sends a native → page message through the contract: checked, JSON-encoded, U+2028/U+2029/U+FEFF escaped.
        private func reply(_ message: [String: any Sendable]) {
            let call: ReceiverCall
            do {
                call = try ReceiverCall(contract: BridgeWebView.contract, message: message)
            } catch {
                status = "did not send: \(error)"
                return
            }
            webView?.evaluateJavaScript(call.script) { [weak self] _, error in
                if error != nil { self?.status = "the page did not accept \(call)" }
            }
        }
    }
}
