#if os(Linux)
import Foundation
import FoundationNetworking

/// One load started by the web view; delegate callbacks pass the same object for the same load.
@MainActor
public final class WKNavigation: NSObject {
    override init() {}
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

/// Why a navigation started, with Apple's raw values.
public enum WKNavigationType: Int, Sendable {
    case linkActivated = 0
    case formSubmitted = 1
    case backForward = 2
    case reload = 3
    case formResubmitted = 4
    case other = -1
}

/// A navigation about to start, offered to the navigation delegate.
///
/// WebKitGTK names neither the source frame nor the target frame of an in-page navigation: `sourceFrame` is the
/// main frame as it is now, and `targetFrame` is the main frame for a load in the view, nil for a new window.
@MainActor
open class WKNavigationAction: NSObject {
    /// The request the navigation will load.
    open private(set) var request: URLRequest
    /// Why the navigation started.
    open private(set) var navigationType: WKNavigationType
    /// The frame that asked for the navigation.
    open private(set) var sourceFrame: WKFrameInfo
    /// The frame that will load it; nil when it opens a new window.
    open private(set) var targetFrame: WKFrameInfo?

    init(request: URLRequest, navigationType: WKNavigationType, sourceFrame: WKFrameInfo, targetFrame: WKFrameInfo?) {
        self.request = request
        self.navigationType = navigationType
        self.sourceFrame = sourceFrame
        self.targetFrame = targetFrame
    }
}

/// The response of a navigation, before its body is loaded.
@MainActor
public final class WKNavigationResponse: NSObject {
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
public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void)
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
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) { decisionHandler(.allow) }
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) { decisionHandler(.allow) }
}
#endif
