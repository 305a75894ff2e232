import Foundation

/// The fixture page shipped with the package, byte for byte as the product's source document gives it.
package enum BundledFixture {
    /// Where the fixture lies in this package's resources.
    package static var url: URL {
        guard let url = Bundle.module.url(forResource: "BridgeFixture", withExtension: "html") else {
            // The resource is declared in Package.swift; a missing file is a broken build, not user input.
            preconditionFailure("BridgeFixture.html is missing from the BridgeTesting resources: rebuild the package")
        }
        return url
    }

    /// The fixture's text.
    package static func html() throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }
}
