import XCTest

final class BridgeTestingTestsPlaceholder: XCTestCase {
    func testPackageBuilds() { XCTAssertTrue(true) }
}
