import Foundation

/// This test target's copy of the fixture page: Xcode's twin of the package's `FixtureBundle.swift`.
///
/// The Resources phase puts `BridgeFixture.html` at the root of the ClientTests bundle (not the host app's
/// main bundle); `webbridge xcode preflight` checks that the phase holds it.
enum FixtureBundle {
    private final class Token {}

    static var url: URL {
        guard let url = Bundle(for: Token.self).url(forResource: "BridgeFixture", withExtension: "html") else {
            preconditionFailure("BridgeFixture.html is not in the ClientTests bundle: add it to the Resources phase")
        }
        return url
    }
}
