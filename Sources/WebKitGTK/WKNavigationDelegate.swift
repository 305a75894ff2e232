#if os(Linux)
import Foundation
import FoundationNetworking

/// One load started by the web view; delegate callbacks pass the same object for the same load.
@MainActor
public final class WKNavigation {
    init() {}
}

/// What to do with a navigation response.
public enum WKNavigationResponsePolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    case download = 2
}

/// What to do with a navigation action.
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    case download = 2
}

/// The response of a navigation, before its body is loaded.
@MainActor
public final class WKNavigationResponse {
    /// Whether the response is for the main frame.
    public let isForMainFrame: Bool
    /// The response; an `HTTPURLResponse` for HTTP(S) loads, so callers can read the status.
    public let response: URLResponse
    /// Whether the engine can show the MIME type.
    public let canShowMIMEType: Bool

    init(isForMainFrame: Bool, response: URLResponse, canShowMIMEType: Bool) {
        self.isForMainFrame = isForMainFrame
        self.response = response
        self.canShowMIMEType = canShowMIMEType
    }
}

/// Follows a web view's loads; every method is optional.
@MainActor
public protocol WKNavigationDelegate: AnyObject {
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void)
}

extension WKNavigationDelegate {
    public func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {}
    public func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {}
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {}
    public func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {}
    public func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {}
    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {}
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) { decisionHandler(.allow) }
}
#endif
