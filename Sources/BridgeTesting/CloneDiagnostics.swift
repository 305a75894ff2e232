import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// A page → native message WebKit could not clone, so it never reached native code: where the value that
/// cannot be cloned sits and its JS type, never a value.
///
/// WebKit structured-clones every `postMessage` body. A body holding a function, a Symbol, a Promise, a DOM
/// node or a Proxy cannot be cloned: WebKit drops the message, native code never hears of it, and the page's
/// `postMessage` promise never settles. The session's diagnostics script tells which value it was.
package struct UncloneableMessage: Sendable, Equatable, CustomStringConvertible {
    /// Where the value sits, from `body`: `body.callback`, `body.items[2]`, `body` itself.
    public let path: String
    /// Its JS type: `Function`, `Symbol`, `Promise`, `HTMLBodyElement`, `a getter that throws`…
    public let type: String

    public init(path: String, type: String) {
        self.path = path
        self.type = type
    }

    public var description: String { "\(path): \(type)" }

    /// Reads the diagnostics script's report; anything else (a page posting to the handler itself) is ignored.
    init?(report body: Any) {
        guard let report = body as? [String: Any], report["problem"] as? String == "not-cloneable",
            let path = report["path"] as? String, let type = report["type"] as? String
        else { return nil }
        // Bounded, so a page can't flood the timeline through this handler.
        self.init(path: String(path.prefix(200)), type: String(type.prefix(64)))
    }
}

/// The script and handler that let a session name a message WebKit dropped for not being cloneable.
enum CloneDiagnostics {
    /// The handler the diagnostics script reports to (a contract whose own handler has this name goes without).
    static let handlerName = "webbridgeDiagnostics"

    /// Wraps the bridge handler's `postMessage` in every frame, before the page's own scripts run: a message
    /// `structuredClone` refuses is reported (path and type only), then posted as before, and the page gets
    /// WebKit's own result. A body that clones is posted as its clone, so its getters run once, as in the app.
    @MainActor
    static func userScript(handler: String) -> WKUserScript {
        // Every session of a run uses the same handlers: each one's script is made once, not per session (a script
        // is immutable and may be added to any number of controllers, as on Apple's platforms).
        if let script = scripts[handler] { return script }
        let script = WKUserScript(
            source: source(handler: handler), injectionTime: .atDocumentStart, forMainFrameOnly: false)
        // Bounded: a process that checks many contracts keeps at most 16 (all are dropped when the 17th comes).
        if scripts.count >= 16 { scripts.removeAll() }
        scripts[handler] = script
        return script
    }

    @MainActor private static var scripts: [String: WKUserScript] = [:]

    static func source(handler: String) -> String {
        // The name goes in as a string literal, never as code.
        let name = ReceiverCall.stringLiteral(handler)
        return """
            (() => {
              "use strict";
              const handlers = window.webkit && window.webkit.messageHandlers;
              const target = handlers && handlers[\(name)];
              const report = handlers && handlers.\(handlerName);
              if (!target || !report || typeof structuredClone !== "function") return;
              // Looked up at each call, not captured: a page that breaks the prototype's postMessage must suffer
              // what it would suffer in the app, not be rescued by this wrapper.
              const proto = Object.getPrototypeOf(target);
              // Taken before the page runs: a page that replaces them later must not break its own messages here.
              const clone = structuredClone, apply = Reflect.apply, getPrototype = Object.getPrototypeOf;
              const MapType = Map, mapGet = Map.prototype.get, mapHas = Map.prototype.has, mapSet = Map.prototype.set;
              const ownNames = Object.getOwnPropertyNames, ownDescriptor = Object.getOwnPropertyDescriptor;
              const clones = (value) => { try { clone(value); return true; } catch (e) { return false; } };
              // A type is the engine's interface a value's prototype belongs to; never Object.prototype.toString,
              // which reads Symbol.toStringTag: page data. The names are read only when a message cannot be
              // cloned (a walk over the window's globals costs every document otherwise); the first name of a
              // prototype wins, and the engine's own globals come before any the page adds.
              let interfaces;
              const engineType = (value) => {
                try {
                  if (interfaces === undefined) {
                    interfaces = new MapType();
                    // An index loop and string comparison: no iterator or method the page could have replaced.
                    const names = ownNames(window);
                    for (let index = 0; index < names.length; index++) {
                      const name = names[index], first = name[0];
                      const descriptor = first >= "A" && first <= "Z" ? ownDescriptor(window, name) : undefined;
                      const constructor = descriptor && descriptor.value;
                      const prototype = typeof constructor === "function" ? constructor.prototype : undefined;
                      if (prototype && typeof prototype === "object" && !apply(mapHas, interfaces, [prototype])) {
                        apply(mapSet, interfaces, [prototype, name]);
                      }
                    }
                  }
                  for (let proto = getPrototype(value), depth = 0; proto !== null && depth < 64; depth++) {
                    const name = apply(mapGet, interfaces, [proto]);
                    if (name !== undefined) return name;
                    proto = getPrototype(proto);
                  }
                } catch (e) {}
                return "Object";
              };
              const typeName = (value) => {
                const type = typeof value;
                if (type === "function") return "Function";
                if (type === "symbol") return "Symbol";
                if (type !== "object" || value === null) return type;
                const name = engineType(value);
                return name === "Object" ? "Object that cannot be cloned (a Proxy?)" : name;
              };
              const step = (path, key) => typeof key === "number" ? path + "[" + key + "]"
                : /^[A-Za-z_$][\\w$]{0,63}$/.test(key) ? path + "." + key : path + "[…]";
              // The first value that cannot be cloned, depth first: its path (names only) and its type. Only plain
              // objects and arrays are entered: a platform object (a Window, a DOM node) is the answer itself.
              const find = (value, path, depth) => {
                if (typeof value !== "object" || value === null || depth >= 32) return { path, type: typeName(value) };
                const tag = engineType(value);
                if (tag !== "Object" && tag !== "Array") return { path, type: typeName(value) };
                let keys;
                try { keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value); }
                catch (e) { return { path, type: typeName(value) }; }
                for (const key of keys.slice(0, 1000)) {
                  let member;
                  try { member = value[key]; } catch (e) { return { path: step(path, key), type: "a getter that throws" }; }
                  if (!clones(member)) return find(member, step(path, key), depth + 1);
                }
                return { path, type: typeName(value) };
              };
              Object.defineProperty(target, "postMessage", {
                configurable: true, writable: true,
                value: function postMessage(message) {
                  // The clone is what is posted: the body's getters run once, as they do in the app, and WebKit
                  // clones a copy that holds the same data.
                  let copy;
                  try {
                    copy = clone(message);
                  } catch (e) {
                    try {
                      const found = find(message, "body", 0);
                      apply(report.postMessage, report, [{ problem: "not-cloneable", path: found.path, type: found.type }]);
                    } catch (e) {}
                    return apply(proto.postMessage, this, arguments);
                  }
                  return arguments.length === 0 ? apply(proto.postMessage, this, arguments) : apply(proto.postMessage, this, [copy]);
                },
              });
            })();
            """
    }
}

/// Keeps the controller's strong reference from retaining the session, like the bridge handler's.
@MainActor
final class WeakDiagnosticsHandler: NSObject, WKScriptMessageHandler {
    weak var session: BridgeSession?

    init(_ session: BridgeSession) { self.session = session }

    // Nonisolated for both SDK shapes, like the session's delegate methods.
    nonisolated func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) {
        MainActor.assumeIsolated {
            session?.messagesSeen += 1
            if let uncloneable = UncloneableMessage(report: message.body) {
                session?.dropped(uncloneable)
            } else if let diagnostic = PageDiagnostic(report: message.body) {
                session?.reported(diagnostic)
            } else if let receiver = ReceiverWatch.receiver(report: message.body) {
                session?.record(.receiverDefined, receiver)
            }
        }
    }
}
