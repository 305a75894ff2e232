import BridgeContract
import Foundation

/// Runs the check `sessions` times, each in a fresh session, and returns the report over all of them.
///
/// Repeated sessions must each pass on their own: a handler left from an earlier one shows as a duplicate. With
/// `configuration.stress`, the sessions are the stressed ones and the report carries the stress verdict.
@MainActor
public func verifyBridge(_ configuration: CheckConfiguration, page: String = "page", sessions: Int = 1) async
    -> BridgeReport
{
    var reports: [SessionReport] = []
    // Stressed, the sessions are the stressed ones, and the verdict says which timings broke the page.
    let stress = await PageRun.run(configuration, count: sessions, record: { reports.append($0) })
    return BridgeReport(page: page, sessions: reports, stress: stress)
}

/// Checks an HTML page (loaded from `baseURL`'s folder, no network) against a contract.
@MainActor
public func verifyBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default,
    strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1
) async -> BridgeReport {
    await verifyBridge(
        html: html, baseURL: baseURL, contract: contract, play: nil, strictness: strictness, fields: fields,
        timeout: timeout, sessions: sessions)
}

/// The same check with a play of its own rather than the contract's (the tool's own tests).
@MainActor
package func verifyBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default, play: CheckPlay?,
    strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1
) async -> BridgeReport {
    await verifyBridge(
        CheckConfiguration(
            page: .html(html, baseURL: baseURL), contract: contract, timeout: timeout, strictness: strictness,
            fields: fields, play: play),
        page: "HTML page", sessions: sessions)
}

/// Checks the HTML page at `page` against the contract file at `contract` (its check section plays native).
///
/// A page or contract that cannot be read fails the report too, naming the file and the remedy.
@MainActor
public func verifyBridge(
    page: URL, contract: URL? = nil, strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1
) async -> BridgeReport {
    let name = page.lastPathComponent
    let html: String
    do {
        html = try String(contentsOf: page, encoding: .utf8)
    } catch {
        return BridgeReport(
            page: name, sessions: [],
            setupError: "the page \(name) can't be read as UTF-8 text: give the path of an HTML file")
    }
    var loaded = BridgeContract.default
    if let contract {
        do {
            loaded = try BridgeContract.load(contentsOf: contract)
            loaded.check = try loaded.check?.resolvingScripts(relativeTo: contract.deletingLastPathComponent())
        } catch {
            return BridgeReport(page: name, sessions: [], setupError: "\(error)")
        }
    }
    let configuration = CheckConfiguration(
        page: .html(html, baseURL: page), contract: loaded, timeout: timeout,
        strictness: strictness, fields: fields)
    return await verifyBridge(configuration, page: name, sessions: sessions)
}
