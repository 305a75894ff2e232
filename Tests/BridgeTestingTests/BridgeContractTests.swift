import BridgeContract
import BridgeTesting
import XCTest

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The bridge contract, both directions, on the real WebKit engine: the page's first message reaches native code
/// with the contract's fields, and the page accepts native's message.
///
/// The same file runs in the package (`swift test`, WebKitGTK on Linux, WKWebView on macOS) and in the iOS
/// simulator (`Examples/Client`, `xcodebuild test -only-testing:ClientTests/BridgeContractTests`). The verdict is
/// the library's: the session, the play built from the contract, and each failure's category.
@MainActor
final class BridgeContractTests: XCTestCase {
    func testPageAndNativeCodeKeepTheBridgeContract() async throws {
        let html = try String(contentsOf: FixtureBundle.url, encoding: .utf8)
        let report = await Self.verifyBridge(html: html)
        // One expectation per direction; a failure's text starts with its category.
        XCTAssertTrue(report.load.passed, "\(report.load.failure?.description ?? report.load.note)")
        XCTAssertTrue(
            report.pageToNative.passed, "\(report.pageToNative.failure?.description ?? report.pageToNative.note)"
        )
        XCTAssertTrue(
            report.nativeToPage.passed, "\(report.nativeToPage.failure?.description ?? report.nativeToPage.note)"
        )
        XCTAssertEqual(report.pageMessagesReceived, 1, "exactly one page message reaches native code")
        XCTAssertEqual(report.nativeMessagesAccepted, 1, "the page accepts native's message exactly once")
    }

    /// Checks `html` against the default contract in a fresh session: the library's check, as `webbridge check` runs it.
    static func verifyBridge(html: String, timeout: TimeInterval = CheckConfiguration.defaultTimeout) async
        -> SessionReport
    {
        let report = await BridgeTesting.verifyBridge(
            CheckConfiguration(page: .html(html, baseURL: nil), timeout: timeout), page: "seed fixture")
        // One configuration, one session: the check runs it whatever the page does.
        return report.sessions[0]
    }
}
