import BridgeTesting
import XCTest

/// The contract test can fail: each way of breaking the fixture makes it fail with its own category.
final class BridgeContractProofTests: XCTestCase {
    /// Short: each broken fixture waits out at least one expectation.
    static let timeout: TimeInterval = 2

    func assertContractTestFails(
        on html: String, with category: FailureCategory, file: StaticString = #filePath, line: UInt = #line
    ) {
        let run = MainActor.assumeIsolated { BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout) }
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
        let html = try FixtureVariant.fixture()
        let run = MainActor.assumeIsolated { BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout) }
        XCTAssertEqual(run.failures, [])
    }

    func testRejectionsNeverFulfilTheReadyExpectation() throws {
        let html = try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#)
        let run = MainActor.assumeIsolated { BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout) }
        XCTAssertEqual(run.readyCount, 0)
        XCTAssertTrue(
            run.failures.contains { $0.hasPrefix(FailureCategory.nativeDidNotReceive.rawValue) },
            "expected a 'native did not receive' failure, got \(run.failures)")
    }

    func testSecondReadyInOneSessionFailsTheContractTestAsDuplicate() throws {
        let post = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#
        let html = try FixtureVariant.replacingReady(with: post + "\n" + post)
        let run = MainActor.assumeIsolated { BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout) }
        XCTAssertTrue(run.failures.contains { $0.contains("duplicate ready") }, "\(run.failures)")
    }

    func testFiftySessionsInARowEachSeeExactlyOneReadyAndOneAcceptance() throws {
        let html = try FixtureVariant.fixture()
        let runs = MainActor.assumeIsolated { (1...50).map { _ in BridgeContractTests.verifyBridge(html: html) } }
        // Checked after all sessions: a handler left from an earlier session would have counted twice.
        for (index, run) in runs.enumerated() {
            XCTAssertEqual(run.failures, [], "session \(index + 1)")
            XCTAssertEqual(run.readyCount, 1, "session \(index + 1): ready count")
            XCTAssertEqual(run.acceptedCount, 1, "session \(index + 1): acceptance count")
        }
    }
}
