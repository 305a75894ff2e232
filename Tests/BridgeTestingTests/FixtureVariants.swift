import Foundation

/// The bundled fixture with one part changed, the way a page can break the bridge.
enum FixtureVariant {
    static let original = """
        window.webkit.messageHandlers.bridge.postMessage({
          kind: "ready",
          version: 1
        });
        """

    /// The fixture text itself.
    static func fixture() throws -> String {
        try String(contentsOf: FixtureBundle.url, encoding: .utf8)
    }

    /// The fixture with its ready post replaced by `script`.
    static func replacingReady(with script: String) throws -> String {
        let html = try fixture()
        precondition(html.contains(original), "the fixture's ready post changed: update FixtureVariant.original")
        return html.replacingOccurrences(of: original, with: script)
    }

    /// The fixture posting `body` (JS source) instead of the ready.
    static func posting(_ body: String) throws -> String {
        try replacingReady(with: "window.webkit.messageHandlers.bridge.postMessage(\(body));")
    }

    /// The fixture whose receiver throws whatever it gets.
    static func throwingReceiver() throws -> String {
        try receiverThrowing(#"new Error("Receiver refused")"#)
    }

    /// The fixture whose receiver throws `value` (a JS expression).
    static func receiverThrowing(_ value: String) throws -> String {
        let html = try fixture()
        let receiverStart = "window.bridgeReceive = function (message) {"
        precondition(html.contains(receiverStart), "the fixture's receiver changed: update FixtureVariant")
        return html.replacingOccurrences(of: receiverStart, with: receiverStart + "\n  throw \(value);")
    }
}
