import XCTest

final class XcodeRunnerTestsPlaceholder: XCTestCase {
    func testPackageBuilds() { XCTAssertTrue(true) }
}
