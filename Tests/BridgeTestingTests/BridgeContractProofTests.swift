import BridgeTesting
import XCTest

/// The contract test can fail: each way of breaking the fixture makes it fail with its own category.
@MainActor
final class BridgeContractProofTests: XCTestCase {
    /// Short: each broken fixture waits out at least one expectation.
    let timeout: TimeInterval = 2

    func assertContractTestFails(
        on html: String, with category: FailureCategory, file: StaticString = #filePath, line: UInt = #line
    ) {
        let run = BridgeContractTests.verifyBridge(html: html, timeout: timeout)
        XCTAssertFalse(run.failures.isEmpty, "the contract test passed on a broken fixture", file: file, line: line)
        XCTAssertTrue(
            run.failures.contains { $0.hasPrefix(category.rawValue) },
            "expected '\(category.rawValue)', got \(run.failures)", file: file, line: line)
        let others = Set(FailureCategory.allCases).subtracting([category])
        XCTAssertFalse(
            run.failures.contains { failure in others.contains { failure.hasPrefix($0.rawValue) } },
            "only '\(category.rawValue)' should fail, got \(run.failures)", file: file, line: line)
    }

    func testVersionAsStringFailsAsNativeDidNotReceive() throws {
        assertContractTestFails(
            on: try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#), with: .nativeDidNotReceive)
    }

    func testThrowingReceiverFailsAsPageDidNotAccept() throws {
        assertContractTestFails(on: try FixtureVariant.throwingReceiver(), with: .pageDidNotAccept)
    }

    func testMissingPostMessageFailsAsNativeDidNotReceive() throws {
        assertContractTestFails(on: try FixtureVariant.replacingReady(with: ""), with: .nativeDidNotReceive)
    }

    func testTheUnbrokenFixturePasses() throws {
        let run = BridgeContractTests.verifyBridge(html: try FixtureVariant.fixture(), timeout: timeout)
        XCTAssertEqual(run.failures, [])
    }
}
