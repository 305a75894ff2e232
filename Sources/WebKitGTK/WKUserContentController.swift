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
    // Used by message delivery (WKUserContentController+MessageDelivery.swift), so internal, not private.
    var registrations: [Key: Registration] = [:]
    var connections: [Connection: (signalID: gulong, users: Int)] = [:]
    /// Frame tagging per world that has handlers: the hidden handler and its script (see `FrameTagging`).
    private var tagging: [String?: FrameTagging] = [:]
    /// The frame of the subframe message being delivered, between its begin and end tags.
    var pendingFrame: (world: String?, frame: FrameTagging.Frame)?
    /// Views using this controller, so a message can name its web view.
    var webViews = WeakSet<WKWebView>()
    static var liveCount = 0

    public override init() {
        _ = try? WebKitGTKEnvironment.prepare()
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

    private func unregister(_ key: Key, _ registration: Registration) {
        if let world = key.world {
            webkit_user_content_manager_unregister_script_message_handler_in_world(manager, key.name, world)
        } else {
            webkit_user_content_manager_unregister_script_message_handler(manager, key.name)
        }
        disconnect(Connection(expectsReply: registration.handler.expectsReply, name: key.name))
        MainContextDriver.shared.scheduleService()
    }
}
#endif
