import Foundation

/// Finds `BridgeFixture.html` inside the ClientTests bundle, where its Resources phase puts it.
enum FixtureBundle {
    private final class Token {}

    /// The test bundle (not the host app's main bundle, which does not hold the fixture).
    static var bundle: Bundle { Bundle(for: Token.self) }

    /// The fixture's URL, or nil when the Resources phase lost it (`webbridge xcode preflight` checks that).
    static var fixtureURL: URL? { bundle.url(forResource: "BridgeFixture", withExtension: "html") }

    /// The fixture's HTML text.
    static func fixtureHTML() throws -> String {
        guard let url = fixtureURL else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "BridgeFixture.html in \(bundle.bundlePath)"])
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
