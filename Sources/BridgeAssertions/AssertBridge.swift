import BridgeContract
@_exported import BridgeTesting
import Foundation
import XCTest

#if canImport(Testing)
import Testing
#endif

/// Fails the test at the caller's line when the bridge breaks, with `verifyBridge`'s text.
///
/// ```swift
/// func testCheckoutBridge() async throws {
///     await assertBridge(page: Bundle.module.url(forResource: "checkout", withExtension: "html")!,
///                        contract: Bundle.module.url(forResource: "bridge-contract", withExtension: "json")!)
/// }
/// ```
@MainActor
public func assertBridge(
    page: URL, contract: URL? = nil, mode: ValidationMode = .strict, timeout: TimeInterval = 10, sessions: Int = 1,
    file: StaticString = #filePath, line: UInt = #line
) async {
    if let failure = await verifyBridge(
        page: page, contract: contract, mode: mode, timeout: timeout, sessions: sessions)
    {
        XCTFail(failure, file: file, line: line)
    }
}

/// Fails the test at the caller's line when the bridge of this HTML breaks.
@MainActor
public func assertBridge(
    html: String, baseURL: URL? = nil, contract: BridgeContract = .default, play: CheckPlay? = nil,
    mode: ValidationMode = .strict, timeout: TimeInterval = 10, sessions: Int = 1,
    file: StaticString = #filePath, line: UInt = #line
) async {
    if let failure = await verifyBridge(
        html: html, baseURL: baseURL, contract: contract, play: play, mode: mode, timeout: timeout, sessions: sessions)
    {
        XCTFail(failure, file: file, line: line)
    }
}

#if canImport(Testing)
/// Records a Swift Testing issue at the caller's line when the bridge breaks.
@MainActor
public func expectBridge(
    page: URL, contract: URL? = nil, mode: ValidationMode = .strict, timeout: TimeInterval = 10, sessions: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    if let failure = await verifyBridge(
        page: page, contract: contract, mode: mode, timeout: timeout, sessions: sessions)
    {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}
#endif
