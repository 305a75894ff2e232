// Declaration-only `WebKit`: Apple's WebKit Swift API as the Xcode 16 iOS SDK presents it, so that code meant for
// Apple platforms can be type-checked on Linux (scripts/apple-shape/check.sh). Never linked, never run: every body
// is `fatalError()`. Each declaration names the public header (WebKit's `UIProcess/API/Cocoa/*.h`, imported
// through ClangImporter) or the developer.apple.com/documentation/webkit page it follows. Only what the checked
// files use or commonly reach for is declared; anything missing fails the check loudly, never silently.
//
// `WK_SWIFT_UI_ACTOR` (WKFoundation.h) is `NS_SWIFT_UI_ACTOR`, which imports as `@MainActor`. The lines marked
// `// Xcode 16 SDK` are the protocols' annotations; check.sh deletes them to build the Xcode 15 variant, whose
// protocols carry no isolation. The classes keep `@MainActor` in both variants (WKWebView inherits it from
// UIView in every SDK), so the variants differ exactly where conformances need `@preconcurrency`.
//
// Objective-C `@optional` protocol requirements are declared as requirements with empty defaults in an extension
// (Linux has no `@objc`): a conformer may implement any of them, as on Apple platforms.

// Apple's WebKit module re-exports Foundation and, on iOS, UIKit (WKWebView.h imports <UIKit/UIKit.h>). On Linux,
// URLRequest and its kin live in FoundationNetworking; Apple's Foundation holds them.
@_exported import Foundation
@_exported import FoundationNetworking
@_exported import UIKit

// MARK: - WKError.h — developer.apple.com/documentation/webkit/wkerror

/// WKError.h: `WK_EXTERN NSString * const WKErrorDomain`.
public let WKErrorDomain: String = "WKErrorDomain"

/// WKError.h `typedef NS_ENUM(NSInteger, WKErrorCode)`, imported as the bridged error struct `WKError`
/// (documentation/webkit/wkerror, documentation/webkit/wkerror/code).
public struct WKError: CustomNSError, Hashable, @unchecked Sendable {
    /// WKError.h `WKErrorCode`.
    public enum Code: Int, Sendable, Equatable, Hashable {
        case unknown = 1
        case webContentProcessTerminated = 2
        case webViewInvalidated = 3
        case javaScriptExceptionOccurred = 4
        case javaScriptResultTypeIsUnsupported = 5
        case contentRuleListStoreCompileFailed = 6
        case contentRuleListStoreLookUpFailed = 7
        case contentRuleListStoreRemoveFailed = 8
        case contentRuleListStoreVersionMismatch = 9
        case attributedStringContentFailedToLoad = 10
        case attributedStringContentLoadTimedOut = 11
        case javaScriptInvalidFrameTarget = 12
        case navigationAppBoundDomain = 13
        case javaScriptAppBoundDomain = 14
        case duplicateCredential = 15
        case malformedCredential = 16
        case credentialNotFound = 17
    }

    /// documentation/webkit/wkerror/init(_:userinfo:)
    public init(_ code: Code, userInfo: [String: Any] = [:]) { fatalError() }
    /// documentation/webkit/wkerror/code-swift.property
    public var code: Code { fatalError() }
    /// The bridged NSError's user info: `[String: Any]`, not a WebKit type.
    public var userInfo: [String: Any] { fatalError() }
    public static var errorDomain: String { fatalError() }
    public var errorCode: Int { fatalError() }
    public var errorUserInfo: [String: Any] { fatalError() }
    public static func == (lhs: WKError, rhs: WKError) -> Bool { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }

    public static var unknown: Code { fatalError() }
    public static var webContentProcessTerminated: Code { fatalError() }
    public static var webViewInvalidated: Code { fatalError() }
    public static var javaScriptExceptionOccurred: Code { fatalError() }
    public static var javaScriptResultTypeIsUnsupported: Code { fatalError() }
    public static var javaScriptInvalidFrameTarget: Code { fatalError() }
}

// MARK: - WKSecurityOrigin.h, WKFrameInfo.h, WKContentWorld.h

/// WKSecurityOrigin.h (documentation/webkit/wksecurityorigin).
@MainActor
open class WKSecurityOrigin: NSObject {
    open var `protocol`: String { fatalError() }
    open var host: String { fatalError() }
    open var port: Int { fatalError() }
}

/// WKFrameInfo.h (documentation/webkit/wkframeinfo): a snapshot of the frame a message or navigation came from.
@MainActor
open class WKFrameInfo: NSObject, NSCopying {
    open var isMainFrame: Bool { fatalError() }
    open var request: URLRequest { fatalError() }
    /// iOS 9.
    open var securityOrigin: WKSecurityOrigin { fatalError() }
    /// iOS 11.
    open var webView: WKWebView? { fatalError() }  // weak in the header
    nonisolated open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

/// WKContentWorld.h (documentation/webkit/wkcontentworld), iOS 14.
@MainActor
open class WKContentWorld: NSObject {
    open class var page: WKContentWorld { fatalError() }
    open class var defaultClient: WKContentWorld { fatalError() }
    open class func world(name: String) -> WKContentWorld { fatalError() }
    open var name: String? { fatalError() }
}

// MARK: - WKUserScript.h

/// WKUserScript.h `WKUserScriptInjectionTime`.
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart = 0
    case atDocumentEnd = 1
}

/// WKUserScript.h (documentation/webkit/wkuserscript).
@MainActor
open class WKUserScript: NSObject, NSCopying {
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) { fatalError() }
    /// iOS 14.
    public init(
        source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool,
        in contentWorld: WKContentWorld
    ) { fatalError() }
    open var source: String { fatalError() }
    open var injectionTime: WKUserScriptInjectionTime { fatalError() }
    open var isForMainFrameOnly: Bool { fatalError() }
    nonisolated open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

// MARK: - WKScriptMessage.h, WKScriptMessageHandler.h, WKScriptMessageHandlerWithReply.h

/// WKScriptMessage.h (documentation/webkit/wkscriptmessage).
@MainActor
open class WKScriptMessage: NSObject {
    /// "Allowed types are NSNumber, NSString, NSDate, NSArray, NSDictionary, and NSNull."
    open var body: Any { fatalError() }
    open var webView: WKWebView? { fatalError() }  // weak in the header
    open var frameInfo: WKFrameInfo { fatalError() }
    open var name: String { fatalError() }
    /// iOS 14.
    open var world: WKContentWorld { fatalError() }
}

/// WKScriptMessageHandler.h: `WK_SWIFT_UI_ACTOR @protocol WKScriptMessageHandler <NSObject>`.
@MainActor  // Xcode 16 SDK
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// WKScriptMessageHandlerWithReply.h (iOS 14): implement the block form or the async form.
@MainActor  // Xcode 16 SDK
public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void)
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?)
}

extension WKScriptMessageHandlerWithReply {
    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {}
    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?) { fatalError() }
}

// MARK: - WKUserContentController.h

/// WKUserContentController.h (documentation/webkit/wkusercontentcontroller). The handler is retained strongly.
@MainActor
open class WKUserContentController: NSObject {
    public override init() { fatalError() }
    open var userScripts: [WKUserScript] { fatalError() }
    open func addUserScript(_ userScript: WKUserScript) { fatalError() }
    open func removeAllUserScripts() { fatalError() }
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) { fatalError() }
    /// iOS 14.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String)
    { fatalError() }
    /// iOS 14.
    open func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld, name: String
    ) { fatalError() }
    open func removeScriptMessageHandler(forName name: String) { fatalError() }
    /// iOS 14.
    open func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) { fatalError() }
    /// iOS 14.
    open func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld) { fatalError() }
    /// iOS 14.
    open func removeAllScriptMessageHandlers() { fatalError() }
}

// MARK: - WKPreferences.h, WKWebpagePreferences.h, WKWebsiteDataStore.h, WKWebViewConfiguration.h

/// WKPreferences.h (documentation/webkit/wkpreferences).
@MainActor
open class WKPreferences: NSObject {
    public override init() { fatalError() }
    open var minimumFontSize: CGFloat {
        get { fatalError() }
        set { fatalError() }
    }
    open var javaScriptCanOpenWindowsAutomatically: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// iOS 13.
    open var isFraudulentWebsiteWarningEnabled: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    /// iOS 15.4.
    open var isElementFullscreenEnabled: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

/// WKWebpagePreferences.h (documentation/webkit/wkwebpagepreferences), iOS 13.
@MainActor
open class WKWebpagePreferences: NSObject {
    public override init() { fatalError() }
    /// iOS 14.
    open var allowsContentJavaScript: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

/// WKWebsiteDataStore.h (documentation/webkit/wkwebsitedatastore).
@MainActor
open class WKWebsiteDataStore: NSObject {
    open class func `default`() -> WKWebsiteDataStore { fatalError() }
    /// A store that keeps nothing on disk: what isolated tests use.
    open class func nonPersistent() -> WKWebsiteDataStore { fatalError() }
    open var isPersistent: Bool { fatalError() }
    open class func allWebsiteDataTypes() -> Set<String> { fatalError() }
    open func removeData(
        ofTypes dataTypes: Set<String>, modifiedSince date: Date,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) { fatalError() }
    open func removeData(ofTypes dataTypes: Set<String>, modifiedSince date: Date) async { fatalError() }
}

/// WKWebViewConfiguration.h (documentation/webkit/wkwebviewconfiguration). WKWebView's initializer copies it.
@MainActor
open class WKWebViewConfiguration: NSObject, NSCopying {
    public override init() { fatalError() }
    open var userContentController: WKUserContentController {
        get { fatalError() }
        set { fatalError() }
    }
    open var preferences: WKPreferences {
        get { fatalError() }
        set { fatalError() }
    }
    open var websiteDataStore: WKWebsiteDataStore {
        get { fatalError() }
        set { fatalError() }
    }
    /// iOS 13.
    open var defaultWebpagePreferences: WKWebpagePreferences! {
        get { fatalError() }
        set { fatalError() }
    }
    open var applicationNameForUserAgent: String? {
        get { fatalError() }
        set { fatalError() }
    }
    /// iOS only.
    open var allowsInlineMediaPlayback: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    nonisolated open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

// MARK: - WKNavigation.h, WKNavigationAction.h, WKNavigationResponse.h, WKNavigationDelegate.h

/// WKNavigation.h (documentation/webkit/wknavigation): an opaque token for one load.
@MainActor
open class WKNavigation: NSObject {}

/// WKNavigationAction.h `WKNavigationType`.
public enum WKNavigationType: Int, Sendable {
    case linkActivated = 0
    case formSubmitted = 1
    case backForward = 2
    case reload = 3
    case formResubmitted = 4
    case other = -1
}

/// WKNavigationDelegate.h `WKNavigationActionPolicy`.
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    /// iOS 14.5.
    case download = 2
}

/// WKNavigationDelegate.h `WKNavigationResponsePolicy`.
public enum WKNavigationResponsePolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    /// iOS 14.5.
    case download = 2
}

/// WKNavigationAction.h (documentation/webkit/wknavigationaction).
@MainActor
open class WKNavigationAction: NSObject {
    open var sourceFrame: WKFrameInfo { fatalError() }
    open var targetFrame: WKFrameInfo? { fatalError() }
    open var navigationType: WKNavigationType { fatalError() }
    open var request: URLRequest { fatalError() }
    /// iOS 14.5.
    open var shouldPerformDownload: Bool { fatalError() }
}

/// WKNavigationResponse.h (documentation/webkit/wknavigationresponse).
@MainActor
open class WKNavigationResponse: NSObject {
    open var isForMainFrame: Bool { fatalError() }
    open var response: URLResponse { fatalError() }
    open var canShowMIMEType: Bool { fatalError() }
}

/// WKNavigationDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKNavigationDelegate <NSObject>`, every method `@optional`.
/// The navigation arguments are `null_unspecified`, hence `WKNavigation!`.
@MainActor  // Xcode 16 SDK
public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void)
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void)
    func webView(_ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse) async
        -> WKNavigationResponsePolicy
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!)
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)
    /// iOS 9.
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
}

extension WKNavigationDelegate {
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {}
    public func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
    { fatalError() }
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {}
    public func webView(_ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse) async
        -> WKNavigationResponsePolicy
    { fatalError() }
    public func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {}
    public func webView(
        _ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!
    ) {}
    public func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {}
    public func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {}
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {}
    public func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {}
    public func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {}
    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {}
}

// MARK: - WKUIDelegate.h, WKWindowFeatures.h

/// WKWindowFeatures.h (documentation/webkit/wkwindowfeatures).
@MainActor
open class WKWindowFeatures: NSObject {}

/// WKUIDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKUIDelegate <NSObject>`, every method `@optional`. Without a
/// delegate (or without the method) WebKit answers alert with nothing, confirm with false and prompt with null.
@MainActor  // Xcode 16 SDK
public protocol WKUIDelegate: NSObjectProtocol {
    func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView?
    func webViewDidClose(_ webView: WKWebView)
    func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void)
    func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo
    ) async
    func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void)
    func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo
    ) async -> Bool
    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (String?) -> Void)
    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo
    ) async -> String?
}

extension WKUIDelegate {
    public func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView? { nil }
    public func webViewDidClose(_ webView: WKWebView) {}
    public func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {}
    public func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo
    ) async {}
    public func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {}
    public func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo
    ) async -> Bool { fatalError() }
    public func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {}
    public func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo
    ) async -> String? { fatalError() }
}

// MARK: - WKWebView.h and the Swift overlay (WebKitSwiftOverlay.swift)

/// WKWebView.h (documentation/webkit/wkwebview): a UIView on iOS.
@MainActor
open class WKWebView: UIView {
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError() }
    /// A copy of the configuration the view was created with.
    open var configuration: WKWebViewConfiguration { fatalError() }
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    open weak var uiDelegate: (any WKUIDelegate)?
    open var url: URL? { fatalError() }
    open var title: String? { fatalError() }
    open var isLoading: Bool { fatalError() }
    open var estimatedProgress: Double { fatalError() }
    open var customUserAgent: String? {
        get { fatalError() }
        set { fatalError() }
    }
    /// iOS 16.4.
    @available(iOS 16.4, macOS 13.3, *)
    open var isInspectable: Bool {
        get { fatalError() }
        set { fatalError() }
    }

    @discardableResult open func load(_ request: URLRequest) -> WKNavigation? { fatalError() }
    @discardableResult open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? { fatalError() }
    /// iOS 9.
    @discardableResult open func loadFileURL(_ URL: URL, allowingReadAccessTo readAccessURL: URL) -> WKNavigation? {
        fatalError()
    }
    @discardableResult open func reload() -> WKNavigation? { fatalError() }
    open func stopLoading() { fatalError() }

    /// documentation/webkit/wkwebview/evaluatejavascript(_:completionhandler:)
    open func evaluateJavaScript(
        _ javaScriptString: String, completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) { fatalError() }
    /// The async import of `evaluateJavaScript:completionHandler:`: its block takes `_Nullable id` (not
    /// `_Nullable_result`), so the result is non-optional `Any` and a script that yields nothing traps.
    @discardableResult open func evaluateJavaScript(_ javaScriptString: String) async throws -> Any { fatalError() }
    /// WebKitSwiftOverlay.swift, iOS 14.
    public func evaluateJavaScript(
        _ javaScript: String, in frame: WKFrameInfo? = nil, in contentWorld: WKContentWorld,
        completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil
    ) { fatalError() }
    /// WebKitSwiftOverlay.swift, iOS 15.
    @discardableResult public func evaluateJavaScript(
        _ javaScript: String, in frame: WKFrameInfo? = nil, contentWorld: WKContentWorld
    ) async throws -> Any? { fatalError() }
    /// WebKitSwiftOverlay.swift, iOS 14.
    public func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo? = nil,
        in contentWorld: WKContentWorld,
        completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil
    ) { fatalError() }
    /// WebKitSwiftOverlay.swift, iOS 15.
    @discardableResult public func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo? = nil,
        contentWorld: WKContentWorld
    ) async throws -> Any? { fatalError() }
}
