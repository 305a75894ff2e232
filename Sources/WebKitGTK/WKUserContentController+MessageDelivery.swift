#if os(Linux)
import CWebKitGTK
import Foundation
internal import WebKitGTKHost

// A page's script messages reaching the controller's handlers: one engine signal per (kind, name), the frame tag
// that names a subframe's message, the handler's lookup, and the one reply a reply handler sends.

extension WKUserContentController {
    func connect(_ connection: Connection) {
        if let existing = connections[connection] {
            connections[connection] = (existing.signalID, existing.users + 1)
            return
        }
        // The closure holds only a weak route back.
        let route = Unmanaged.passRetained(MessageRoute(controller: self, name: connection.name)).toOpaque()
        let signalID: gulong
        if connection.expectsReply {
            signalID = cwk_connect_script_message_reply(
                manager, "script-message-with-reply-received::\(connection.name)",
                { _, value, reply, data in
                    guard let value, let reply, let data else { return 0 }
                    let route = Unmanaged<MessageRoute>.fromOpaque(data).takeUnretainedValue()
                    return MainActor.assumeIsolated {
                        guard let controller = route.controller else { return 0 }
                        controller.deliver(name: route.name, value: value, reply: reply)
                        return 1
                    }
                }, route, releaseRoute)
        } else {
            signalID = cwk_connect_script_message(
                manager, "script-message-received::\(connection.name)",
                { _, result, data in
                    guard let result, let data else { return }
                    let route = Unmanaged<MessageRoute>.fromOpaque(data).takeUnretainedValue()
                    MainActor.assumeIsolated {
                        route.controller?.deliver(
                            name: route.name, value: webkit_javascript_result_get_js_value(result), reply: nil)
                    }
                }, route, releaseRoute)
        }
        connections[connection] = (signalID, 1)
    }

    func disconnect(_ connection: Connection) {
        guard let existing = connections[connection] else { return }
        if existing.users > 1 {
            connections[connection] = (existing.signalID, existing.users - 1)
            return
        }
        connections[connection] = nil
        g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), existing.signalID)
    }

    /// A frame tag from the hidden handler of `world`: a subframe's begin (with its frame) or end.
    func receiveFrameTag(_ value: JSValueRef?, world: String?) {
        guard let value, let tag = try? JSValueConversion.foundationValue(value) as? [String: Any] else { return }
        if let frame = FrameTagging.Frame(tag["b"]) {
            pendingFrame = (world, frame)
        } else {
            pendingFrame = nil
        }
    }

    func deliver(name: String, value: JSValueRef?, reply: ReplyRef?) {
        guard let value else { return }
        // The world comes from the frame tag when there is one; an untagged message is from the page world's main frame.
        let tagged = pendingFrame
        let expectsReply = reply != nil
        func matching(_ key: Key) -> (key: Key, registration: Registration)? {
            registrations[key].flatMap { $0.handler.expectsReply == expectsReply ? (key, $0) : nil }
        }
        // Tagged world first, then the page world; a name registered only elsewhere gets an untagged message too.
        let found =
            tagged.flatMap { matching(Key(world: $0.world, name: name)) } ?? matching(Key(world: nil, name: name))
            ?? registrations.keys.lazy.filter { $0.name == name }.compactMap(matching).first
        guard let (key, registration) = found else { return }
        let body: Any
        do {
            // As Apple's import has it: the value itself, and only `undefined` (nil) boxed in `Any` as an Optional.
            let converted = try JSValueConversion.foundationValue(value)
            if let converted { body = converted } else { body = converted as Any }
        } catch {
            // Apple drops a message whose body cannot be converted; with a reply, settle the Promise instead of leaving it pending.
            if let reply {
                webkit_script_message_reply_return_error_message(
                    reply, "The message body could not be converted: \(error)")
            }
            return
        }
        let webView = webViews.first
        let frame: WKFrameInfo
        if let tagged, tagged.world == key.world {
            frame = tagged.frame.info(webView: webView)
        } else {
            frame = WKFrameInfo.mainFrame(of: webView)
        }
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
#endif
