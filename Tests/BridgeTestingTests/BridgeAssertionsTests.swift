import BridgeAssertions
import BridgeContract
import XCTest

/// The one check behind `verifyBridge`/`assertBridge`: strict by default, lenient on request, structure only.
@MainActor
final class BridgeAssertionsTests: XCTestCase {
    static let timeout: TimeInterval = 3
    static let unknown = #"window.webkit.messageHandlers.bridge.postMessage({kind: "secret-4711"});"#
    static let ready = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#

    func testTheFixturePassesInOneLine() async throws {
        await assertBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout)
    }

    func testAnUnknownMessageBeforeTheReadyFailsAsNativeDidNotReceiveNamingItsStructureOnly() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.unknown + "\n" + Self.ready)
        let verdict = await verifyBridge(html: html, timeout: Self.timeout)
        let failure = try XCTUnwrap(verdict, "an unknown first message passed")
        XCTAssertTrue(failure.contains("FAIL: native did not receive the page's message"), failure)
        XCTAssertTrue(failure.contains("{kind: String}"), failure)
        XCTAssertTrue(failure.contains("unknown-kind"), failure)
        XCTAssertFalse(failure.contains("secret-4711"), "a value reached the failure text: \(failure)")
    }

    func testAnUnknownMessageIsOnlyListedWhenTheCheckIsLenient() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.unknown + "\n" + Self.ready)
        let failure = await verifyBridge(html: html, mode: .lenient, timeout: Self.timeout)
        XCTAssertNil(failure, failure ?? "")
    }

    func testADoubleReadyFailsAsNativeDidNotReceive() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.ready + "\n" + Self.ready)
        let verdict = await verifyBridge(html: html, timeout: Self.timeout)
        let failure = try XCTUnwrap(verdict, "a double ready passed")
        XCTAssertTrue(failure.contains("duplicate 'ready': it arrived 2 times"), failure)
    }

    func testRepeatedSessionsEachPassWithNoDuplicateCallbacks() async throws {
        let failure = await verifyBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout, sessions: 5)
        XCTAssertNil(failure, failure ?? "")
    }

    func testAPageThatCannotBeReadIsAFailureNamingTheFile() async {
        let missing = URL(fileURLWithPath: "/nonexistent/checkout.html")
        let failure = await verifyBridge(page: missing, timeout: Self.timeout)
        XCTAssertEqual(
            failure, "the page checkout.html can't be read as UTF-8 text: give the path of an HTML file")
    }
}
