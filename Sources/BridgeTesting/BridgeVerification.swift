import BridgeContract
import Foundation

/// Runs the check and returns nil when both directions hold, or the failure as a CI log should show it.
///
/// The text is the failing session's timeline and verdicts (structure only, never values), e.g.
/// ```
/// session 1
///      0.0 ms  load started
///     12.4 ms  message rejected  {kind: String, version: String}: version: expected Number 1, found String …
///   page → native  FAIL     native did not receive the page's message: no valid 'ready'; what arrived instead: …
///   native → page  PASS     document.body.dataset.received shows the sent text
/// FAIL: native did not receive the page's message (1 of 1 session failed)
/// ```
/// - Parameter sessions: how many fresh sessions to run; repeated runs must show no duplicate callbacks.
@MainActor
public func verifyBridge(_ configuration: CheckConfiguration, sessions: Int = 1) async -> String? {
    var reports: [SessionReport] = []
    var failed: [String] = []
    for index in 1...max(1, sessions) {
        let report = await BridgeCheck.run(configuration)
        reports.append(report)
        if !report.passed { failed.append(ReportRendering.text(session: index, report)) }
    }
    guard !failed.isEmpty else { return nil }
    return (failed + [ReportRendering.summary(reports)]).joined(separator: "\n")
}

/// Checks an HTML page (loaded from `baseURL`'s folder, no network) against a contract; nil when it holds.
@MainActor
public func verifyBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default, play: CheckPlay? = nil,
    mode: ValidationMode = .strict, timeout: TimeInterval = 10, sessions: Int = 1
) async -> String? {
    await verifyBridge(
        CheckConfiguration(
            page: .html(html, baseURL: baseURL), contract: contract, timeout: timeout, mode: mode, play: play),
        sessions: sessions)
}

/// Checks the HTML page at `page` against the contract file at `contract` (its check section plays native).
///
/// A page or contract that cannot be read is a failure too, naming the file and the remedy.
@MainActor
public func verifyBridge(
    page: URL, contract: URL? = nil, mode: ValidationMode = .strict, timeout: TimeInterval = 10, sessions: Int = 1
) async -> String? {
    let html: String
    do {
        html = try String(contentsOf: page, encoding: .utf8)
    } catch {
        return "the page \(page.lastPathComponent) can't be read as UTF-8 text: give the path of an HTML file"
    }
    var loaded = BridgeContract.default
    if let contract {
        do {
            loaded = try BridgeContract.load(contentsOf: contract)
            loaded.check = try loaded.check?.resolvingScripts(relativeTo: contract.deletingLastPathComponent())
        } catch {
            return "\(error)"
        }
    }
    return await verifyBridge(
        html: html, baseURL: page.deletingLastPathComponent(), contract: loaded, mode: mode, timeout: timeout,
        sessions: sessions)
}
