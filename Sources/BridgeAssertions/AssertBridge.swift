import BridgeContract
@_exported import BridgeTesting
import Foundation
import XCTest

#if canImport(Testing)
import Testing
#endif

/// Fails the running test at the caller's line when the bridge breaks, and returns the report either way.
///
/// The failure is recorded through Swift Testing inside a `@Test`, and through XCTest otherwise, so the same line
/// works in both; its first line is the verdict (category and reason), which Xcode and CI annotations show.
///
/// ```swift
/// func testCheckoutBridge() async throws {
///     await assertBridge(page: Bundle.module.url(forResource: "checkout", withExtension: "html")!,
///                        contract: Bundle.module.url(forResource: "bridge-contract", withExtension: "json")!)
/// }
/// ```
@MainActor
@discardableResult
public func assertBridge(
    page: URL, contract: URL? = nil, strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> BridgeReport {
    let report = await verifyBridge(
        page: page, contract: contract, strictness: strictness, fields: fields, timeout: timeout, sessions: sessions)
    record(report, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return report
}

/// Fails the running test at the caller's line when the bridge of this HTML breaks, and returns the report.
@MainActor
@discardableResult
public func assertBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default,
    strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> BridgeReport {
    let report = await verifyBridge(
        html: html, baseURL: baseURL, contract: contract, strictness: strictness, fields: fields,
        timeout: timeout, sessions: sessions)
    record(report, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return report
}

/// Checks a suite: each page of `pages` (an HTML file, or a folder whose `*.html` and `*.htm` files are checked,
/// sorted, not its subfolders), each in fresh sessions of its own, and records one failure per failing page at the
/// caller's line, its text starting with the page's file name. Returns each page's report, in order.
///
/// ```swift
/// func testEveryPageKeepsTheBridge() async throws {
///     await assertBridge(pages: [Bundle.module.url(forResource: "pages", withExtension: nil)!],
///                        contract: Bundle.module.url(forResource: "bridge-contract", withExtension: "json")!)
/// }
/// ```
@MainActor
@discardableResult
public func assertBridge(
    pages: [URL], contract: URL? = nil, strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> [(page: URL, report: BridgeReport)] {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var files: [URL] = []
    for url in pages {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            files.append(url)
            continue
        }
        let found = ((try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [])
            .filter { ["html", "htm"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        if found.isEmpty { record("\(url.path): no *.html or *.htm page in the folder", at: site) }
        files += found
    }
    var reports: [(page: URL, report: BridgeReport)] = []
    for page in files {
        let report = await verifyBridge(
            page: page, contract: contract, strictness: strictness, fields: fields, timeout: timeout,
            sessions: sessions)
        if let text = report.failureText { record("\(page.lastPathComponent): \(text)", at: site) }
        reports.append((page, report))
    }
    return reports
}

/// `assertBridge` under the name Swift Testing's `#expect` suggests; the same check, recorded the same way.
@MainActor
@discardableResult
public func expectBridge(
    page: URL, contract: URL? = nil, strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> BridgeReport {
    await assertBridge(
        page: page, contract: contract, strictness: strictness, fields: fields, timeout: timeout, sessions: sessions,
        fileID: fileID,
        filePath: filePath, line: line, column: column)
}

/// `assertBridge(html:)` under the name Swift Testing's `#expect` suggests.
@MainActor
@discardableResult
public func expectBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default,
    strictness: ValidationMode = .strict, fields: ValidationMode = .strict,
    timeout: TimeInterval = CheckConfiguration.defaultTimeout, sessions: Int = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> BridgeReport {
    await assertBridge(
        html: html, baseURL: baseURL, contract: contract, strictness: strictness, fields: fields,
        timeout: timeout,
        sessions: sessions, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Where an assertion was written, in the forms both test libraries take.
struct CallSite {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

/// Records a failed report as a failure of the running test: a Swift Testing issue inside a `@Test`, else an
/// XCTest failure (the pattern of swift-snapshot-testing's `recordIssue`). A passing report records nothing.
func record(_ report: BridgeReport, at site: CallSite) {
    guard let text = report.failureText else { return }
    record(text, at: site)
}

/// Records `text` as a failure of the running test at `site`.
func record(_ text: String, at site: CallSite) {
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: text),
            sourceLocation: SourceLocation(
                fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line),
                column: Int(site.column)))
        return
    }
    #endif
    XCTFail(text, file: site.filePath, line: site.line)
}
