#if !os(Linux)
#if canImport(WebKit)
import WebKit
#endif

/// Apple's WebKit loads no extension into its web processes: the page's own report is all there is, as in the app.
@MainActor
package enum EngineConsole {
    package static var unavailable: String? { nil }

    static func listen(_ webView: WKWebView, _ session: BridgeSession) {}
}
#endif
