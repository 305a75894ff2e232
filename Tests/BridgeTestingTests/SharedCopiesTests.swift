import XCTest

/// The copies that must stay identical: the fixture page and the contract test the iOS simulator runs.
final class SharedCopiesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func assertSameBytes(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let contents = try paths.map { try Data(contentsOf: Self.root.appendingPathComponent($0)) }
        for (path, data) in zip(paths.dropFirst(), contents.dropFirst()) {
            XCTAssertEqual(data, contents[0], "\(path) differs from \(paths[0]): copy it over", file: file, line: line)
        }
    }

    func testEveryCopyOfTheFixtureIsTheSamePage() throws {
        try assertSameBytes([
            "Tests/BridgeTestingTests/Fixtures/BridgeFixture.html",
            "Sources/BridgeTesting/Resources/BridgeFixture.html",
            "Examples/Client/ClientTests/BridgeFixture.html",
        ])
    }

    func testTheSimulatorRunsTheSameContractTestAsThePackage() throws {
        try assertSameBytes([
            "Tests/BridgeTestingTests/BridgeContractTests.swift",
            "Examples/Client/ClientTests/BridgeContractTests.swift",
        ])
        try assertSameBytes([
            "Tests/BridgeTestingTests/BridgePageIntegrationTests.swift",
            "Examples/Client/ClientTests/BridgePageIntegrationTests.swift",
        ])
    }

    func testTheFixtureIsTheProductsPageByteForByte() throws {
        let fixture = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/BridgeTesting/Resources/BridgeFixture.html"),
            encoding: .utf8)
        // Anchors from the product's source document; a reformatted page would lose them.
        XCTAssertTrue(
            fixture.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n<body>\n<script>\n"))
        XCTAssertTrue(fixture.contains("throw new Error(\"Invalid native message\");"))
        XCTAssertTrue(fixture.hasSuffix("</script>\n</body>\n</html>\n"))
    }
}
