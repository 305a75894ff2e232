#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking

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
            let from = url || loc;
            // An about:srcdoc or about:blank frame has its parent's origin (a file: page's has no host and
            // serializes as "null"): read it from the parent, which a sandboxed, opaque frame may not do.
            if (!url && loc.protocol === "about:") {
              try { const up = window.parent.location; if (up.protocol && up.protocol !== "about:") from = up; }
              catch (e) {}
            }
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
#endif
