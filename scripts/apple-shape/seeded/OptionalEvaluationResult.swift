// expect: initializer for conditional binding must have Optional type
// Seeded mismatch: builds against WebKitGTK's old `async evaluateJavaScript(_:) -> Any?`, not against Apple's
// `-> Any`. The Apple-shape check must reject it.
import WebKit

@MainActor
func title(of webView: WKWebView) async throws -> String? {
    if let title = try await webView.evaluateJavaScript("document.title") {
        return title as? String
    }
    return nil
}
