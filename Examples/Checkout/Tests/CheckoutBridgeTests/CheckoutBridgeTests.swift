import BridgeAssertions
import Foundation
import Testing
import XCTest

/// The team's whole bridge test: its page, its contract, one line each.
@MainActor
final class CheckoutBridgeTests: XCTestCase {
    func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    func testCheckoutPageKeepsTheBridgeContract() async {
        await assertBridge(page: fixture("checkout.html"), contract: contractURL())
    }

    func testItemsSentAsTextIsCaughtAndNamedByStructure() async throws {
        let report = await verifyBridge(page: fixture("checkout-items-as-text.html"), contract: contractURL())
        XCTAssertEqual(report.failedCategories, [.nativeDidNotReceive], report.failureText ?? "the broken page passed")
        let violation = try XCTUnwrap(report.sessions.first?.rejections.first?.violations.first)
        XCTAssertEqual(violation.path, "items")
        XCTAssertEqual(violation.rule, .wrongType)
        XCTAssertEqual(violation.expected, "Integer")
        XCTAssertEqual(violation.found, "String")
    }

    /// The contract file the app bundles, read from the app target's resources.
    func contractURL() -> URL {
        checkoutContractURL()
    }
}

/// The same check in Swift Testing.
@Test("the checkout page keeps the bridge contract")
@MainActor
func checkoutBridgeHolds() async {
    await expectBridge(
        page: Bundle.module.url(forResource: "checkout", withExtension: "html", subdirectory: "Fixtures")!,
        contract: checkoutContractURL())
}
