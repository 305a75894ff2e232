#if os(Linux)
import Foundation
import FoundationNetworking

/// A namespace for scripts and message handlers; `.page` is the page's own world.
@MainActor
public final class WKContentWorld: NSObject {
    /// The world the page's own scripts run in.
    public static let page = WKContentWorld(name: nil)
    /// The default world for the app's own scripts, isolated from the page.
    public static let defaultClient = WKContentWorld(name: "WKDefaultClientWorld")

    private static var named: [String: WKContentWorld] = [:]

    /// The world with this name, created on first use.
    public static func world(name: String) -> WKContentWorld {
        if let world = named[name] { return world }
        let world = WKContentWorld(name: name)
        named[name] = world
        return world
    }

    /// The world's name; nil for the page world.
    public let name: String?

    private init(name: String?) { self.name = name }
}

/// The protocol, host and port of a frame's origin; the port is 0 when it is the scheme's default.
@MainActor
open class WKSecurityOrigin: NSObject {
    /// The scheme, without the colon ("https").
    open private(set) var `protocol`: String
    /// The host name; empty when the origin has none (about:blank, file URLs).
    open private(set) var host: String
    /// The port, or 0 for the scheme's default port.
    open private(set) var port: Int

    init(protocol: String, host: String, port: Int) {
        self.protocol = `protocol`
        self.host = host
        self.port = port
    }

    /// The origin of `url`, as WebKit serializes it (default ports are 0).
    convenience init(url: URL?) {
        self.init(Parts(url: url))
    }

    convenience init(_ parts: Parts) {
        self.init(protocol: parts.scheme, host: parts.host, port: parts.port)
    }

    /// An origin's values, kept by the view for its current page: every message of the page has this origin.
    struct Parts: Sendable {
        let scheme: String
        let host: String
        let port: Int

        init(url: URL?) {
            scheme = url?.scheme?.lowercased() ?? ""
            let defaultPort: Int? =
                switch scheme {
                case "http", "ws": 80
                case "https", "wss": 443
                default: nil
                }
            port = url?.port.flatMap { $0 == defaultPort ? nil : $0 } ?? 0
            host = url?.host ?? ""
        }
    }
}

/// A snapshot of the frame a message, dialog or navigation came from.
///
/// WebKitGTK's script-message signal names no frame: the engine tags messages posted from subframes (see
/// Docs/ENGINE.md); a message without a tag comes from the main frame.
@MainActor
open class WKFrameInfo: NSObject {
    /// Whether the frame is the main frame.
    open private(set) var isMainFrame: Bool
    /// The frame's current request.
    open private(set) var request: URLRequest
    /// The frame's security origin.
    open private(set) var securityOrigin: WKSecurityOrigin
    /// The web view that contains the frame.
    open private(set) weak var webView: WKWebView?

    init(isMainFrame: Bool, request: URLRequest, securityOrigin: WKSecurityOrigin, webView: WKWebView?) {
        self.isMainFrame = isMainFrame
        self.request = request
        self.securityOrigin = securityOrigin
        self.webView = webView
    }

    /// Parsed once: a URL parse costs more than the rest of a message's frame.
    private static let blank = URL(string: "about:blank")!

    /// The main frame of `webView` as it is now.
    static func mainFrame(of webView: WKWebView?) -> WKFrameInfo {
        if let frame = webView?.mainFrameInfo { return frame }
        return WKFrameInfo(
            isMainFrame: true, request: URLRequest(url: blank),
            securityOrigin: WKSecurityOrigin(WKSecurityOrigin.Parts(url: blank)), webView: webView)
    }
}

/// A message a page posted with `window.webkit.messageHandlers.<name>.postMessage(body)`.
@MainActor
open class WKScriptMessage: NSObject {
    /// The posted value, converted as Apple converts it (see Docs/ENGINE.md).
    open private(set) var body: Any
    /// The web view that sent the message.
    open private(set) weak var webView: WKWebView?
    /// The frame that sent the message.
    open private(set) var frameInfo: WKFrameInfo
    /// The handler name the page used.
    open private(set) var name: String
    /// The content world the handler was registered in.
    open private(set) var world: WKContentWorld

    init(body: Any, webView: WKWebView?, frameInfo: WKFrameInfo, name: String, world: WKContentWorld) {
        self.body = body
        self.webView = webView
        self.frameInfo = frameInfo
        self.name = name
        self.world = world
    }
}

/// Receives messages a page posts to a named handler.
@MainActor
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// Receives messages a page posts to a named handler and replies to the page's Promise.
///
/// Implement either the reply-handler form or the `async` form, as with Apple's protocol.
@MainActor
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
    ) {
        Task { @MainActor in
            let reply = await self.userContentController(userContentController, didReceive: message)
            replyHandler(reply.0, reply.1)
        }
    }

    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?) {
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<ReplyValue, Never>) in
            self.userContentController(userContentController, didReceive: message) { value, error in
                continuation.resume(returning: ReplyValue(value: value, errorMessage: error))
            }
        }
        return (reply.value, reply.errorMessage)
    }
}

/// A reply, boxed so it can cross a continuation (it is only used on the main actor).
struct ReplyValue: @unchecked Sendable {
    let value: Any?
    let errorMessage: String?
}

#endif
