import XCTest

final class webbridgeTestsPlaceholder: XCTestCase {
    func testPackageBuilds() { XCTAssertTrue(true) }
}
