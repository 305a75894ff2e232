import XCTest

final class BridgeContractTestsPlaceholder: XCTestCase {
    func testPackageBuilds() { XCTAssertTrue(true) }
}
