#if os(Linux)
import WebKitGTK

/// The engine's own console, where this process hears it (Linux: WebBridge's web process extension, a library
/// beside the binary): the real text and place of errors WebKit hid from the page.
@MainActor
package enum EngineConsole {
    /// Why the engine's console is not heard here, for a check's verbose output; nil when it is.
    package static var unavailable: String? {
        guard case .failure(let reason) = WebProcessExtension.folder else { return nil }
        return "the engine's console is not heard (\(reason)): errors of a page file's scripts read \"Script error.\""
    }

    /// Sends `webView`'s uncaught errors, as the engine logged them, to `session`.
    static func listen(_ webView: WKWebView, _ session: BridgeSession) {
        webView.engineUncaughtError = { [weak session] text, url, line in
            session?.engineReported(text: text, url: url, line: line)
        }
    }
}
#endif
