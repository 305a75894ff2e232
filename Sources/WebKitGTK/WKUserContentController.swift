#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking

/// Why a handler could not be registered (what Apple reports by raising an exception).
public struct WKScriptMessageHandlerRegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handler name that was refused.
    public let name: String
    /// Apple's exception text for the refusal.
    public let message: String
    public var description: String { message }
}

/// The handlers and scripts of one or more web views; every session should have its own.
@MainActor
open class WKUserContentController {
    struct Registration {
        enum Handler {
            case plain(any WKScriptMessageHandler)
            case withReply(any WKScriptMessageHandlerWithReply)
        }
        let handler: Handler
        let world: WKContentWorld
        let signalID: gulong
    }

    /// The engine's user content manager; one per controller.
    let manager: ManagerRef
    private var registrations: [String: Registration] = [:]
    /// Views using this controller, so a message can name its web view.
    var webViews = WeakSet<WKWebView>()
    static var liveCount = 0

    public init() {
        _ = try? WebKitGTKEnvironment.prepare()
        manager = webkit_user_content_manager_new()!
        Self.liveCount += 1
    }

    isolated deinit {
        for (name, registration) in registrations { unregister(name, registration) }
        g_object_unref(UnsafeMutableRawPointer(manager))
        Self.liveCount -= 1
    }

    /// Registers a handler for `window.webkit.messageHandlers.<name>` in the page world; a duplicate name is a programmer error.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {
        add(scriptMessageHandler, contentWorld: .page, name: name)
    }

    /// Registers a handler in a content world; a duplicate name is a programmer error, as on Apple's platforms.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String)
    {
        do { try register(.plain(scriptMessageHandler), world: world, name: name) } catch {
            preconditionFailure(error.message)
        }
    }

    /// Registers a handler whose reply settles the page's Promise; a duplicate name is a programmer error.
    open func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld, name: String
    ) {
        do { try register(.withReply(scriptMessageHandlerWithReply), world: contentWorld, name: name) } catch {
            preconditionFailure(error.message)
        }
    }

    /// Removes the page-world handler with this name and releases it; an unknown name does nothing.
    open func removeScriptMessageHandler(forName name: String) {
        removeScriptMessageHandler(forName: name, contentWorld: .page)
    }

    /// Removes the handler with this name from a content world; an unknown name does nothing.
    open func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {
        guard let registration = registrations[name], registration.world === contentWorld else { return }
        registrations[name] = nil
        unregister(name, registration)
    }

    /// Removes every handler from a content world.
    open func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld) {
        for (name, registration) in registrations where registration.world === contentWorld {
            registrations[name] = nil
            unregister(name, registration)
        }
    }

    /// Removes every handler in every world.
    open func removeAllScriptMessageHandlers() {
        let all = registrations
        registrations = [:]
        for (name, registration) in all { unregister(name, registration) }
    }

    /// Registers like `add(_:name:)` but reports a refusal instead of trapping, so tests can observe it.
    public func addRefusingDuplicates(
        _ scriptMessageHandler: any WKScriptMessageHandler, contentWorld: WKContentWorld = .page, name: String
    ) throws(WKScriptMessageHandlerRegistrationError) {
        try register(.plain(scriptMessageHandler), world: contentWorld, name: name)
    }

    /// Registers like `addScriptMessageHandler(_:contentWorld:name:)` but reports a refusal instead of trapping.
    public func addRefusingDuplicates(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld = .page,
        name: String
    ) throws(WKScriptMessageHandlerRegistrationError) {
        try register(.withReply(scriptMessageHandlerWithReply), world: contentWorld, name: name)
    }

    /// Names of the registered handlers.
    var handlerNames: [String] { registrations.keys.sorted() }

    // MARK: User scripts

    /// The scripts every page loaded by this controller's views gets, in the order they were added.
    public private(set) var userScripts: [WKUserScript] = []

    /// Injects `userScript` into every document loaded from now on (a page already loaded is not touched).
    open func addUserScript(_ userScript: WKUserScript) {
        userScripts.append(userScript)
        webkit_user_content_manager_add_script(manager, userScript.script)
    }

    /// Removes every user script; documents loaded from now on get none.
    open func removeAllUserScripts() {
        userScripts = []
        webkit_user_content_manager_remove_all_scripts(manager)
    }

    private func register(_ handler: Registration.Handler, world: WKContentWorld, name: String)
        throws(WKScriptMessageHandlerRegistrationError)
    {
        guard !name.isEmpty else {
            throw WKScriptMessageHandlerRegistrationError(
                name: name, message: "Attempt to add script message handler with an empty name.")
        }
        guard registrations[name] == nil else {
            throw WKScriptMessageHandlerRegistrationError(
                name: name,
                message: "Attempt to add script message handler with name '\(name)' when one already exists.")
        }
        // Connect before registering, as WebKitGTK asks; the closure holds only a weak route back.
        let route = Unmanaged.passRetained(MessageRoute(controller: self, name: name)).toOpaque()
        let signalID: gulong
        let registered: gboolean
        switch handler {
        case .plain:
            signalID = cwk_connect_script_message(
                manager, "script-message-received::\(name)",
                { _, result, data in
                    guard let result, let data else { return }
                    let route = Unmanaged<MessageRoute>.fromOpaque(data).takeUnretainedValue()
                    MainActor.assumeIsolated {
                        route.controller?.deliver(
                            name: route.name, value: webkit_javascript_result_get_js_value(result), reply: nil)
                    }
                }, route, releaseRoute)
            registered =
                world.name.map {
                    webkit_user_content_manager_register_script_message_handler_in_world(manager, name, $0)
                }
                ?? webkit_user_content_manager_register_script_message_handler(manager, name)
        case .withReply:
            signalID = cwk_connect_script_message_reply(
                manager, "script-message-with-reply-received::\(name)",
                { _, value, reply, data in
                    guard let value, let reply, let data else { return 0 }
                    let route = Unmanaged<MessageRoute>.fromOpaque(data).takeUnretainedValue()
                    return MainActor.assumeIsolated {
                        guard let controller = route.controller else { return 0 }
                        controller.deliver(name: route.name, value: value, reply: reply)
                        return 1
                    }
                }, route, releaseRoute)
            registered = webkit_user_content_manager_register_script_message_handler_with_reply(
                manager, name, world.name)
        }
        guard registered != 0 else {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), signalID)
            throw WKScriptMessageHandlerRegistrationError(
                name: name,
                message: "Attempt to add script message handler with name '\(name)' when one already exists.")
        }
        registrations[name] = Registration(handler: handler, world: world, signalID: signalID)
        MainContextDriver.shared.scheduleService()
    }

    private func unregister(_ name: String, _ registration: Registration) {
        if let world = registration.world.name {
            webkit_user_content_manager_unregister_script_message_handler_in_world(manager, name, world)
        } else {
            webkit_user_content_manager_unregister_script_message_handler(manager, name)
        }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), registration.signalID)
        MainContextDriver.shared.scheduleService()
    }

    private func deliver(name: String, value: JSValueRef?, reply: ReplyRef?) {
        guard let registration = registrations[name], let value else { return }
        let body: Any
        do { body = try JSValueConversion.foundationValue(value) as Any } catch {
            // Apple drops a message whose body cannot be converted; with a reply, settle the Promise instead of leaving it pending.
            if let reply {
                webkit_script_message_reply_return_error_message(
                    reply, "The message body could not be converted: \(error)")
            }
            return
        }
        let webView = webViews.first
        let frame = WKFrameInfo(
            isMainFrame: true, request: webView?.currentRequest ?? URLRequest(url: URL(string: "about:blank")!),
            webView: webView)
        let message = WKScriptMessage(
            body: body, webView: webView, frameInfo: frame, name: name, world: registration.world)
        switch registration.handler {
        case .plain(let handler):
            handler.userContentController(self, didReceive: message)
        case .withReply(let handler):
            guard let reply else { return }
            let box = ReplyBox(webkit_script_message_reply_ref(reply))
            handler.userContentController(self, didReceive: message) { value, errorMessage in
                box.send(value, errorMessage)
            }
        }
    }
}

/// Sends one reply to the page; a second call is a programmer error, as on Apple's platforms.
@MainActor
final class ReplyBox: Sendable {
    private nonisolated(unsafe) var reply: ReplyRef?
    private var sent = false

    init(_ reply: ReplyRef?) { self.reply = reply }

    isolated deinit {
        // Apple rejects a Promise whose reply block was never called.
        if let reply {
            webkit_script_message_reply_return_error_message(
                reply, "WKWebView API client did not respond to this postMessage")
            webkit_script_message_reply_unref(reply)
        }
    }

    func send(_ value: Any?, _ errorMessage: String?) {
        precondition(
            !sent,
            "replyHandler passed to userContentController:didReceiveScriptMessage:replyHandler: should not be called twice"
        )
        sent = true
        guard let reply else { return }
        self.reply = nil
        defer { webkit_script_message_reply_unref(reply); MainContextDriver.shared.scheduleService() }
        if let errorMessage {
            webkit_script_message_reply_return_error_message(reply, errorMessage)
            return
        }
        guard let literal = try? JavaScriptLiteral.render(value),
            let context = jsc_context_new()
        else {
            webkit_script_message_reply_return_error_message(
                reply, "The result value passed back from the WKWebView API client was unable to be serialized")
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let jsValue = jsc_context_evaluate(context, "(\(literal))", -1)
        webkit_script_message_reply_return_value(reply, jsValue)
        if let jsValue { g_object_unref(UnsafeMutableRawPointer(jsValue)) }
    }
}

/// The signal's user data: a weak way back to the controller, so GObject never retains Swift objects.
final class MessageRoute: @unchecked Sendable {
    weak var controller: WKUserContentController?
    let name: String
    init(controller: WKUserContentController, name: String) {
        self.controller = controller
        self.name = name
    }
}

let releaseRoute: GClosureNotify = { data, _ in
    if let data { Unmanaged<MessageRoute>.fromOpaque(data).release() }
}

/// A set of weak references, pruned as members go away.
struct WeakSet<Element: AnyObject> {
    private final class Box { weak var value: Element?; init(_ value: Element) { self.value = value } }
    private var boxes: [Box] = []
    mutating func insert(_ value: Element) {
        boxes.removeAll { $0.value == nil }
        if !boxes.contains(where: { $0.value === value }) { boxes.append(Box(value)) }
    }
    mutating func remove(_ value: Element) { boxes.removeAll { $0.value == nil || $0.value === value } }
    var first: Element? { boxes.lazy.compactMap(\.value).first }
}
#endif
