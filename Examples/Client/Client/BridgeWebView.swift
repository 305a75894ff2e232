import SwiftUI
import WebKit

/// A web view wired to the bridge contract: the page posts `{kind: "ready", version: 1}` to `bridge`,
/// the app answers with `window.bridgeReceive({"kind":"sync","value":"ok"})`.
struct BridgeWebView: UIViewRepresentable {
    @Binding var status: String

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
        controller.add(context.coordinator, name: "bridge")
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
        webView.configuration.userContentController.removeScriptMessageHandler(forName: "bridge")
    }

    /// Receives the page's messages and answers them.
    @MainActor
    final class Coordinator: NSObject, WKScriptMessageHandler {
        @Binding var status: String
        weak var webView: WKWebView?

        init(status: Binding<String>) { _status = status }

        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            guard let body = message.body as? [String: Any], body["kind"] as? String == "ready",
                let version = body["version"] as? NSNumber, CFGetTypeID(version) != CFBooleanGetTypeID(),
                version.intValue == 1
            else {
                // Structure only, never the page's values.
                status = "rejected a message: not a ready with version 1"
                return
            }
            status = "page ready"
            reply(["kind": "sync", "value": "ok"])
        }

        /// Encodes the answer with JSONSerialization (escaping U+2028/U+2029 too), never by pasting text.
        private func reply(_ message: [String: String]) {
            guard let data = try? JSONSerialization.data(withJSONObject: message),
                var json = String(data: data, encoding: .utf8)
            else { return }
            json = json.replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
            webView?.evaluateJavaScript("window.bridgeReceive(\(json))") { [weak self] _, error in
                if error != nil { self?.status = "page did not accept the native message" }
            }
        }
    }
}
