#if os(Linux)
import Foundation
import FoundationNetworking

/// A namespace for scripts and message handlers; `.page` is the page's own world.
@MainActor
public final class WKContentWorld {
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

/// Which frame a message or script belongs to (WebKitGTK's 4.1 API only reports main-frame messages).
@MainActor
public final class WKFrameInfo {
    /// Whether the frame is the main frame.
    public let isMainFrame: Bool
    /// The frame's current request.
    public let request: URLRequest
    /// The web view that contains the frame.
    public private(set) weak var webView: WKWebView?

    init(isMainFrame: Bool, request: URLRequest, webView: WKWebView?) {
        self.isMainFrame = isMainFrame
        self.request = request
        self.webView = webView
    }
}

/// A message a page posted with `window.webkit.messageHandlers.<name>.postMessage(body)`.
@MainActor
open class WKScriptMessage {
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
public protocol WKScriptMessageHandler: AnyObject {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// Receives messages a page posts to a named handler and replies to the page's Promise.
///
/// Implement either the reply-handler form or the `async` form, as with Apple's protocol.
@MainActor
public protocol WKScriptMessageHandlerWithReply: AnyObject {
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
