import BridgeTesting
import EngineTestSupport
import XCTest

/// The contract test can fail: each way of breaking the fixture makes it fail with its own category.
@MainActor
final class BridgeContractProofTests: XCTestCase {
    /// The default deadline: a verdict comes as soon as it is decided, so only a page that never posts waits it out.
    static let timeout = CheckConfiguration.defaultTimeout
    /// For a load that never ends (a request the server never answers): nothing a busy machine could still finish.
    static let neverLoads: TimeInterval = 2

    func assertContractTestFails(
        on html: String, with category: FailureCategory, timeout: TimeInterval = BridgeContractProofTests.timeout,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        let report = await BridgeContractTests.verifyBridge(html: html, timeout: timeout)
        XCTAssertEqual(
            report.failures.map(\.category), [category], "expected only '\(category.rawValue)', got \(report.failures)",
            file: file, line: line)
    }

    func testVersionAsStringFailsAsNativeDidNotReceive() async throws {
        await assertContractTestFails(
            on: try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#), with: .nativeDidNotReceive)
    }

    func testThrowingReceiverFailsAsPageDidNotAccept() async throws {
        await assertContractTestFails(on: try FixtureVariant.throwingReceiver(), with: .pageDidNotAccept)
    }

    func testMissingPostMessageFailsAsNativeDidNotReceive() async throws {
        await assertContractTestFails(on: try FixtureVariant.replacingReady(with: ""), with: .nativeDidNotReceive)
    }

    func testAPageThatNeverFinishesLoadingFailsAsPageLoadDidNotFinish() async throws {
        // An image whose request never ends holds didFinish back past the step timeout.
        let server = try LoopbackHTTPServer(routes: ["/never": .stall])
        defer { server.stop() }
        let html = try FixtureVariant.fixture().replacingOccurrences(
            of: "<body>", with: "<body><img src=\"\(server.url("/never"))\">")
        await assertContractTestFails(on: html, with: .pageLoadDidNotFinish, timeout: Self.neverLoads)
    }

    func testTheUnbrokenFixturePasses() async throws {
        let report = await BridgeContractTests.verifyBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout)
        XCTAssertEqual(report.failures, [])
    }

    func testRejectionsNeverCountAsTheReady() async throws {
        let html = try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#)
        let report = await BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout)
        XCTAssertEqual(report.pageMessagesReceived, 0)
        XCTAssertEqual(report.failures.map(\.category), [.nativeDidNotReceive])
    }

    func testSecondReadyInOneSessionFailsTheContractTestAsDuplicate() async throws {
        let post = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#
        let html = try FixtureVariant.replacingReady(with: post + "\n" + post)
        let report = await BridgeContractTests.verifyBridge(html: html, timeout: Self.timeout)
        XCTAssertTrue(
            report.failures.contains { $0.category == .nativeDidNotReceive && $0.detail.contains("duplicate 'ready'") },
            "\(report.failures)")
    }

    func testFiftySessionsInARowEachSeeExactlyOneReadyAndOneAcceptance() async throws {
        let html = try FixtureVariant.fixture()
        var reports: [SessionReport] = []
        for _ in 1...50 { reports.append(await BridgeContractTests.verifyBridge(html: html)) }
        // Checked after all sessions: a handler left from an earlier session would have counted twice.
        for (index, report) in reports.enumerated() {
            XCTAssertEqual(report.failures, [], "session \(index + 1)")
            XCTAssertEqual(report.pageMessagesReceived, 1, "session \(index + 1): page messages received")
            XCTAssertEqual(report.nativeMessagesAccepted, 1, "session \(index + 1): acceptances")
        }
    }
}
