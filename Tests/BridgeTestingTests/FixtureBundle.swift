import Foundation

/// This test target's copy of the fixture page (Xcode's twin of this file uses the test bundle).
enum FixtureBundle {
    static var url: URL {
        guard let url = Bundle.module.url(forResource: "BridgeFixture", withExtension: "html", subdirectory: "Fixtures")
        else { preconditionFailure("Fixtures/BridgeFixture.html is missing from the test resources") }
        return url
    }
}
