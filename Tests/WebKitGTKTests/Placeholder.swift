import XCTest

final class WebKitGTKTestsPlaceholder: XCTestCase {
    func testPackageBuilds() { XCTAssertTrue(true) }
}
