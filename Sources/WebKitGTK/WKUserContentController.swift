#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking
internal import WebKitGTKHost

/// Why a handler could not be registered (what Apple reports by raising an exception).
///
/// Package access: WebKitGTKSupport publishes the throwing registration for tests, out of Apple's names.
package struct RegistrationRefusal: Error, Sendable, Equatable {
    package let name: String
    package let message: String
}

/// The handlers and scripts of one or more web views; every session should have its own.
@MainActor
open class WKUserContentController: NSObject {
    /// A handler is registered per (content world, name), as on Apple's platforms.
    struct Key: Hashable {
        let world: String?
        let name: String
    }

    struct Registration {
        enum Handler {
            case plain(any WKScriptMessageHandler)
            case withReply(any WKScriptMessageHandlerWithReply)
            var expectsReply: Bool { if case .withReply = self { true } else { false } }
        }
        let handler: Handler
        let world: WKContentWorld
    }

    /// One engine signal per (kind, name): the engine's signal detail is the name alone, whatever the world.
    struct Connection: Hashable {
        let expectsReply: Bool
        let name: String
    }

    /// The engine's user content manager; one per controller.
    let manager: ManagerRef
    private var registrations: [Key: Registration] = [:]
    private var connections: [Connection: (signalID: gulong, users: Int)] = [:]
    /// Frame tagging per world that has handlers: the hidden handler and its script (see `FrameTagging`).
    private var tagging: [String?: FrameTagging] = [:]
    /// The frame of the subframe message being delivered, between its begin and end tags.
    private var pendingFrame: (world: String?, frame: FrameTagging.Frame)?
    /// Views using this controller, so a message can name its web view.
    var webViews = WeakSet<WKWebView>()
    static var liveCount = 0

    public override init() {
        _ = try? EngineEnvironment.prepare()
        manager = webkit_user_content_manager_new()!
        Self.liveCount += 1
    }

    isolated deinit {
        for (key, registration) in registrations { unregister(key, registration) }
        for (world, tag) in tagging { tag.remove(from: manager, world: world) }
        g_object_unref(UnsafeMutableRawPointer(manager))
        Self.liveCount -= 1
    }

    /// Registers a handler for `window.webkit.messageHandlers.<name>` in the page world; a duplicate name is a programmer error.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {
        add(scriptMessageHandler, contentWorld: .page, name: name)
    }

    /// Registers a handler in a content world; a duplicate (world, name) is a programmer error, as on Apple's platforms.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String)
    {
        do { try register(.plain(scriptMessageHandler), world: world, name: name) } catch {
            preconditionFailure(error.message)
        }
    }

    /// Registers a handler whose reply settles the page's Promise; a duplicate (world, name) is a programmer error.
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
        let key = Key(world: contentWorld.name, name: name)
        guard let registration = registrations.removeValue(forKey: key) else { return }
        unregister(key, registration)
    }

    /// Removes every handler from a content world.
    open func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld) {
        for (key, registration) in registrations where key.world == contentWorld.name {
            registrations[key] = nil
            unregister(key, registration)
        }
    }

    /// Removes every handler in every world.
    open func removeAllScriptMessageHandlers() {
        let all = registrations
        registrations = [:]
        for (key, registration) in all { unregister(key, registration) }
    }

    /// Registers like `add(_:contentWorld:name:)` but reports a refusal instead of trapping (WebKitGTKSupport).
    package func registerRefusingDuplicates(
        _ handler: any WKScriptMessageHandler, contentWorld: WKContentWorld, name: String
    ) throws(RegistrationRefusal) {
        try register(.plain(handler), world: contentWorld, name: name)
    }

    /// Registers like `addScriptMessageHandler(_:contentWorld:name:)` but reports a refusal instead of trapping.
    package func registerRefusingDuplicates(
        _ handler: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld, name: String
    ) throws(RegistrationRefusal) {
        try register(.withReply(handler), world: contentWorld, name: name)
    }

    /// Names of the registered handlers.
    var handlerNames: [String] { registrations.keys.map(\.name).sorted() }

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
        // The engine's own frame-tagging scripts are not the app's: they stay.
        for (world, tag) in tagging { tag.install(in: manager, world: world) }
    }

    private func register(_ handler: Registration.Handler, world: WKContentWorld, name: String)
        throws(RegistrationRefusal)
    {
        guard !name.isEmpty else {
            throw RegistrationRefusal(name: name, message: "Attempt to add script message handler with an empty name.")
        }
        let key = Key(world: world.name, name: name)
        let refusal = RegistrationRefusal(
            name: name, message: "Attempt to add script message handler with name '\(name)' when one already exists.")
        guard registrations[key] == nil, !FrameTagging.isReserved(name) else { throw refusal }
        if tagging[world.name] == nil { tagging[world.name] = FrameTagging(controller: self, world: world.name) }
        // Connect before registering, as WebKitGTK asks.
        let connection = Connection(expectsReply: handler.expectsReply, name: name)
        connect(connection)
        let registered: gboolean
        switch handler {
        case .plain:
            registered =
                world.name.map {
                    webkit_user_content_manager_register_script_message_handler_in_world(manager, name, $0)
                }
                ?? webkit_user_content_manager_register_script_message_handler(manager, name)
        case .withReply:
            registered = webkit_user_content_manager_register_script_message_handler_with_reply(
                manager, name, world.name)
        }
        guard registered != 0 else {
            disconnect(connection)
            throw refusal
        }
        registrations[key] = Registration(handler: handler, world: world)
        MainContextDriver.shared.scheduleService()
    }

    private func connect(_ connection: Connection) {
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

    private func disconnect(_ connection: Connection) {
        guard let existing = connections[connection] else { return }
        if existing.users > 1 {
            connections[connection] = (existing.signalID, existing.users - 1)
            return
        }
        connections[connection] = nil
        g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), existing.signalID)
    }

    private func unregister(_ key: Key, _ registration: Registration) {
        if let world = key.world {
            webkit_user_content_manager_unregister_script_message_handler_in_world(manager, key.name, world)
        } else {
            webkit_user_content_manager_unregister_script_message_handler(manager, key.name)
        }
        disconnect(Connection(expectsReply: registration.handler.expectsReply, name: key.name))
        MainContextDriver.shared.scheduleService()
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

    private func deliver(name: String, value: JSValueRef?, reply: ReplyRef?) {
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

/// Tells the controller which frame a message came from: WebKitGTK's script-message signal does not.
///
/// A document-start script in every frame of a world wraps `postMessage` of the handlers' prototype so that a
/// post from a subframe (any frame, in a world other than the page's) is preceded by a "begin" tag naming the
/// frame and followed by an "end" tag, both posted to a hidden handler. Messages from one web process arrive in
/// the order they were posted, so the message between the two tags is the subframe's. The body itself is
/// untouched, and the page world's main frame is never wrapped.
@MainActor
final class FrameTagging {
    /// A subframe as its tag describes it.
    struct Frame {
        let isMainFrame: Bool
        let scheme: String
        let host: String
        let port: Int
        let url: URL?

        init?(_ value: Any?) {
            guard let fields = value as? [Any], fields.count == 5, let main = fields[0] as? NSNumber,
                let scheme = fields[1] as? String, let host = fields[2] as? String,
                let port = fields[3] as? NSNumber, let href = fields[4] as? String
            else { return nil }
            isMainFrame = main.boolValue
            self.scheme = scheme
            self.host = host
            self.port = port.intValue
            url = URL(string: href)
        }

        @MainActor
        func info(webView: WKWebView?) -> WKFrameInfo {
            WKFrameInfo(
                isMainFrame: isMainFrame, request: URLRequest(url: url ?? URL(string: "about:blank")!),
                securityOrigin: WKSecurityOrigin(protocol: scheme, host: host, port: port), webView: webView)
        }
    }

    static let reservedPrefix = "webkitgtkFrameTag"

    static func isReserved(_ name: String) -> Bool { name.hasPrefix(reservedPrefix) }

    let handlerName: String
    let script: OpaquePointer
    let signalID: gulong

    init(controller: WKUserContentController, world: String?) {
        // One hidden handler per world, named apart, so the signal tells which world a tag came from.
        handlerName =
            Self.reservedPrefix + (world.map { "_" + String($0.unicodeScalars.count) + "_" + Self.slug($0) } ?? "")
        script = Self.script(handlerName: handlerName, world: world)
        let route = Unmanaged.passRetained(TagRoute(controller: controller, world: world)).toOpaque()
        signalID = cwk_connect_script_message(
            controller.manager, "script-message-received::\(handlerName)",
            { _, result, data in
                guard let result, let data else { return }
                let route = Unmanaged<TagRoute>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated {
                    route.controller?.receiveFrameTag(webkit_javascript_result_get_js_value(result), world: route.world)
                }
            }, route, { data, _ in if let data { Unmanaged<TagRoute>.fromOpaque(data).release() } })
        _ =
            world.map {
                webkit_user_content_manager_register_script_message_handler_in_world(
                    controller.manager, handlerName, $0)
            }
            ?? webkit_user_content_manager_register_script_message_handler(controller.manager, handlerName)
        install(in: controller.manager, world: world)
    }

    func install(in manager: ManagerRef, world: String?) {
        webkit_user_content_manager_add_script(manager, script)
    }

    func remove(from manager: ManagerRef, world: String?) {
        if let world {
            webkit_user_content_manager_unregister_script_message_handler_in_world(manager, handlerName, world)
        } else {
            webkit_user_content_manager_unregister_script_message_handler(manager, handlerName)
        }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), signalID)
    }

    /// The engine's script for a world, made once per world and kept: every controller with handlers adds it, and
    /// making it anew (building its source, converting it for the engine) was a tenth of a session's own work.
    private static func script(handlerName: String, world: String?) -> OpaquePointer {
        if let script = scripts[world] { return script }
        let source = Self.source(handlerName: handlerName, wrapsMainFrame: world != nil)
        let script =
            world.map {
                webkit_user_script_new_for_world(
                    source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, $0,
                    nil, nil)
            }
            ?? webkit_user_script_new(
                source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        scripts[world] = script!
        return script!
    }

    /// One per world ever used; a process uses a handful.
    private static var scripts: [String?: OpaquePointer] = [:]

    private static func slug(_ text: String) -> String {
        String(text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "_" })
    }

    /// The wrapper: captured at document start, so later changes the page makes to globals do not affect it.
    static func source(handlerName: String, wrapsMainFrame: Bool) -> String {
        """
        (() => {
          const handlers = window.webkit && window.webkit.messageHandlers;
          const tag = handlers && handlers.\(handlerName);
          if (!tag) return;
          const main = window === window.top;
          if (main && !\(wrapsMainFrame)) return;
          const proto = Object.getPrototypeOf(tag);
          const descriptor = Object.getOwnPropertyDescriptor(proto, "postMessage");
          if (!descriptor || typeof descriptor.value !== "function") return;
          const post = descriptor.value, apply = Reflect.apply, origin = self.origin, loc = location;
          const where = () => {
            let url = null;
            try { url = origin && origin !== "null" ? new URL(origin) : null; } catch (e) {}
            const from = url || loc;
            return [main, from.protocol.slice(0, -1), from.hostname, Number(from.port) || 0, loc.href];
          };
          descriptor.value = {
            postMessage(body) {
              if (this === tag) return apply(post, this, arguments);
              apply(post, tag, [{ b: where() }]);
              try { return apply(post, this, arguments); } finally { apply(post, tag, [{ e: 1 }]); }
            }
          }.postMessage;
          Object.defineProperty(proto, "postMessage", descriptor);
        })();
        """
    }
}

/// The tag signal's user data: a weak way back to the controller and the world the tag handler lives in.
final class TagRoute: @unchecked Sendable {
    weak var controller: WKUserContentController?
    let world: String?
    init(controller: WKUserContentController, world: String?) {
        self.controller = controller
        self.world = world
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
