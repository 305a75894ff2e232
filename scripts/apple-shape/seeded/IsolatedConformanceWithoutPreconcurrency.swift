// expect: crosses into main actor-isolated code
// variant: xcode15
// Seeded mismatch: compiles against the Xcode 16 SDK, whose WKNavigationDelegate is @MainActor, but not against
// the Xcode 15 SDK's non-isolated protocol without `@preconcurrency` (or nonisolated methods).
import WebKit

@MainActor
final class Loader: NSObject, WKNavigationDelegate {
    var finished = false
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { finished = true }
}
