import BridgeTesting
import Foundation

/// The bundled fixture with one part changed, the way a page can break the bridge: the reports are drawn from
/// real checks of these pages (BridgeTestingTests has the full set, over its own copy of the fixture).
enum FixtureVariant {
    static let original = """
        window.webkit.messageHandlers.bridge.postMessage({
          kind: "ready",
          version: 1
        });
        """

    /// The fixture text itself, as the package ships it.
    static func fixture() throws -> String { try BundledFixture.html() }

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

    /// The fixture whose receiver throws an error.
    static func throwingReceiver() throws -> String {
        let html = try fixture()
        let receiverStart = "window.bridgeReceive = function (message) {"
        precondition(html.contains(receiverStart), "the fixture's receiver changed: update FixtureVariant")
        return html.replacingOccurrences(
            of: receiverStart, with: receiverStart + "\n  throw new Error(\"Receiver refused\");")
    }
}
