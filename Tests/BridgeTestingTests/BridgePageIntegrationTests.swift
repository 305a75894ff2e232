import BridgeTesting
import Foundation
import XCTest

/// The real-page integration check: the deployed page named by `BRIDGE_PAGE_URL` keeps the bridge contract.
///
/// Kept apart from `BridgeContractTests`, which proves the contract on the bundled fixture with no network:
/// this one fetches a real page, so a failure says either that the page could not be fetched (not deployed,
/// DNS, refused, TLS, no response, HTTP status >= 400) or that it loaded and broke the contract. Skipped when
/// the variable is unset. Written against the cross-platform API only, so it runs unchanged in the iOS simulator
/// (`xcodebuild test` passes `TEST_RUNNER_BRIDGE_PAGE_URL` to the test runner as `BRIDGE_PAGE_URL`).
@MainActor
final class BridgePageIntegrationTests: XCTestCase {
    func testTheDeployedPageKeepsTheBridgeContract() async throws {
        if let failure = try await Self.run(environment: ProcessInfo.processInfo.environment) {
            XCTFail(failure)
        }
    }

    /// The environment variable naming the deployed page.
    nonisolated static let urlVariable = "BRIDGE_PAGE_URL"
    /// Optional: seconds to wait for each event (default 10).
    nonisolated static let timeoutVariable = "BRIDGE_PAGE_TIMEOUT"

    /// Runs the whole check as configured by `environment`; nil when the page passes, else the failure to report.
    ///
    /// - Throws: `XCTSkip` when `BRIDGE_PAGE_URL` is unset, ``PageIntegrationSettingError`` when a variable is malformed.
    static func run(environment: [String: String]) async throws -> String? {
        let url = try pageURL(from: environment)
        let timeout = try self.timeout(from: environment)
        try EngineEnvironment.prepare()
        let report = await verifyBridge(CheckConfiguration(page: .url(url), timeout: timeout), page: url.host ?? "page")
        // One configuration, one session: the check runs it whatever the page does.
        return verify(report.sessions[0])
    }

    /// The page's URL; skips with the reason when unset, so a run without a deployed page says why nothing ran.
    nonisolated static func pageURL(from environment: [String: String]) throws -> URL {
        guard let text = environment[urlVariable], !text.isEmpty else {
            throw XCTSkip(
                "\(urlVariable) is not set: set it to the deployed page's http(s) URL to run the real-page integration check (BridgeContractTests checks the fixture without it)"
            )
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw PageIntegrationSettingError(
                variable: urlVariable, rule: "must be an absolute http:// or https:// URL with a host",
                remedy: "set it to the page's full address, e.g. https://example.com/bridge.html")
        }
        return url
    }

    /// Seconds to wait for each event: `BRIDGE_PAGE_TIMEOUT`, or 10.
    nonisolated static func timeout(from environment: [String: String]) throws -> TimeInterval {
        guard let text = environment[timeoutVariable], !text.isEmpty else { return 10 }
        guard let seconds = TimeInterval(text), seconds > 0, seconds.isFinite else {
            throw PageIntegrationSettingError(
                variable: timeoutVariable, rule: "must be a positive number of seconds",
                remedy: "unset it for 10 s, or give e.g. 30")
        }
        return seconds
    }

    /// Nil when both directions passed; otherwise which kind of failure it is, then every failure and the timeline.
    nonisolated static func verify(_ report: SessionReport) -> String? {
        let failures = report.failures
        guard !failures.isEmpty else { return nil }
        let kind =
            failures.allSatisfy { $0.category == .pageUnreachable }
            ? "the page could not be fetched, so the contract was not checked"
            : "the page was fetched and broke the bridge contract"
        let details = failures.map(\.description).joined(separator: "\n")
        return "\(kind):\n\(details)\n\(report.text())"
    }
}

/// An integration-check setting that cannot be used: which variable, the rule it breaks, and the remedy.
struct PageIntegrationSettingError: Error, CustomStringConvertible {
    let variable: String
    let rule: String
    let remedy: String

    // The value is not shown: a page URL can carry a token.
    var description: String { "\(variable) \(rule); remedy: \(remedy)" }
}

/// How the integration check reads its settings, on every platform (no page needed).
final class PageIntegrationSettingsTests: XCTestCase {
    func testAnUnsetURLSkipsWithTheReason() {
        XCTAssertThrowsError(try BridgePageIntegrationTests.pageURL(from: [:])) { error in
            XCTAssertTrue(error is XCTSkip, "expected a skip, got \(error)")
            XCTAssertTrue("\(error)".contains("BRIDGE_PAGE_URL is not set"), "\(error)")
        }
        XCTAssertThrowsError(try BridgePageIntegrationTests.pageURL(from: ["BRIDGE_PAGE_URL": ""])) { error in
            XCTAssertTrue(error is XCTSkip, "an empty value is unset: \(error)")
        }
    }

    func testAMalformedURLFailsWithoutShowingIt() {
        for text in ["ftp://example.com/", "example.com/page", "http://", "https:///path?token=SECRET"] {
            XCTAssertThrowsError(try BridgePageIntegrationTests.pageURL(from: ["BRIDGE_PAGE_URL": text]), text) {
                error in
                XCTAssertTrue(error is PageIntegrationSettingError, "\(text): \(error)")
                XCTAssertTrue(
                    "\(error)".contains("BRIDGE_PAGE_URL must be an absolute http:// or https:// URL"), "\(error)")
                XCTAssertFalse("\(error)".contains("SECRET"), "\(error)")
            }
        }
    }

    func testAnHTTPSURLIsTaken() throws {
        let url = try BridgePageIntegrationTests.pageURL(from: ["BRIDGE_PAGE_URL": "https://example.com/bridge.html"])
        XCTAssertEqual(url.host, "example.com")
    }

    func testTheTimeoutDefaultsToTenAndRejectsNonsense() throws {
        XCTAssertEqual(try BridgePageIntegrationTests.timeout(from: [:]), 10)
        XCTAssertEqual(try BridgePageIntegrationTests.timeout(from: ["BRIDGE_PAGE_TIMEOUT": "2.5"]), 2.5)
        for text in ["0", "-1", "soon", "inf"] {
            XCTAssertThrowsError(try BridgePageIntegrationTests.timeout(from: ["BRIDGE_PAGE_TIMEOUT": text]), text)
        }
    }
}
