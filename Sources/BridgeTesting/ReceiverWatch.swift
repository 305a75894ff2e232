import BridgeContract
import Foundation

/// Notes on the timeline when each receiver native calls becomes a function in the page (`receiver defined`),
/// so a repeated check can say whether native's call came before or after the page installed it.
///
/// A document-start script of the main frame puts a configurable accessor on `window` for each receiver named
/// `window.NAME` (or `NAME`); the page's own assignment (`window.bridgeReceive = …`, a `var`) goes through it, and
/// the first function assigned is reported to the session's diagnostics handler. The report and native's calls
/// travel on the same connection, in order, so `receiver defined` before `accepted` means the receiver existed
/// when the call ran. Not seen: a receiver declared with a top-level `function` statement or `defineProperty`
/// (either replaces the accessor), or nested under an object (`app.bridge.receive`), and the listener of a contract
/// whose native dispatches an event (`"dispatch"`): nothing is watched for its messages.
enum ReceiverWatch {
    /// The top-level receivers of `contract`'s native → page messages (and its default receiver), each once.
    ///
    /// A message native dispatches as an event's data has no receiver to watch: the page adds a listener, which the
    /// watch does not see, and an accessor for `dispatchEvent` would shadow the method native dispatches with.
    static func names(_ contract: BridgeContract) -> [String] {
        var names: [String] = []
        let calls = contract.messages.filter { $0.direction == .nativeToPage && $0.dispatch == nil }
            .map { contract.functionPath(of: $0) }
        let receiver = contract.dispatch == nil && !contract.receiver.isEmpty ? [contract.receiver] : []
        for path in receiver + calls {
            let name = path.hasPrefix("window.") ? String(path.dropFirst("window.".count)) : path
            guard isIdentifier(name), !names.contains(name) else {
                continue
            }
            names.append(name)
        }
        return names
    }

    /// The receiver a report of the watch script names (`window.NAME`); nil for any other report.
    static func receiver(report body: Any) -> String? {
        guard let report = body as? [String: Any], report["problem"] as? String == "receiver",
            let name = report["name"] as? String, isIdentifier(name)
        else { return nil }
        return "window." + name
    }

    /// A plain JavaScript identifier of ASCII letters, digits, `_` and `$`, not starting with a digit.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.unicodeScalars.count <= 200
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$")
        }
    }

    /// The script that watches `names`, for the main frame at document start.
    static func source(_ names: [String]) -> String {
        let list = names.map(ReceiverCall.stringLiteral).joined(separator: ", ")
        return """
            (() => {
              "use strict";
              const handlers = window.webkit && window.webkit.messageHandlers;
              const report = handlers && handlers.\(CloneDiagnostics.handlerName);
              if (!report) return;
              const post = Object.getPrototypeOf(report).postMessage, apply = Reflect.apply;
              for (const name of [\(list)]) {
                if (Object.getOwnPropertyDescriptor(window, name)) continue;
                let value, seen = false;
                Object.defineProperty(window, name, {
                  configurable: true, enumerable: true,
                  get() { return value; },
                  set(next) {
                    value = next;
                    if (seen || typeof next !== "function") return;
                    seen = true;
                    try { apply(post, report, [{ problem: "receiver", name }]); } catch (e) {}
                  },
                });
              }
            })();
            """
    }
}
