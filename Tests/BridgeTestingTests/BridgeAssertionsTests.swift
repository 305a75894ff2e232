import BridgeContract
import Foundation
import XCTest

@testable import BridgeAssertions

/// The one check behind `verifyBridge`/`assertBridge`: strict by default, lenient on request, structure only.
///
/// Recording in Swift Testing is shown in Examples/Checkout, a package of its own: Swift Testing runs suites in
/// parallel, and there the engine's child-process handling and `Process` (the contract module's node tests) do
/// not mix in one process.
@MainActor
final class BridgeAssertionsTests: XCTestCase {
    /// The default deadline: a verdict comes as soon as it is decided, so only a page that never answers waits it out.
    static let timeout = CheckConfiguration.defaultTimeout
    static let unknown = #"window.webkit.messageHandlers.bridge.postMessage({kind: "secret-4711"});"#
    static let ready = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#

    func testTheFixturePassesInOneLine() async throws {
        let report = await assertBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout)
        XCTAssertTrue(report.passed)
        XCTAssertNil(report.failureText)
    }

    func testAnUnknownMessageBeforeTheReadyFailsAsNativeDidNotReceiveNamingItsStructureOnly() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.unknown + "\n" + Self.ready)
        let report = await verifyBridge(html: html, timeout: Self.timeout)
        XCTAssertEqual(report.failedCategories, [.nativeDidNotReceive])
        let rejection = try XCTUnwrap(report.sessions.first?.rejections.first, "the unknown message was not refused")
        XCTAssertEqual(rejection.structure, "{kind: String}")
        XCTAssertEqual(rejection.violations.map(\.rule), [.unknownKind])
        let text = try XCTUnwrap(report.failureText)
        XCTAssertFalse(text.contains("secret-4711"), "a value reached the failure text: \(text)")
    }

    func testAnUnknownMessageIsOnlyListedWhenTheCheckIsLenient() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.unknown + "\n" + Self.ready)
        let report = await verifyBridge(html: html, strictness: .lenient, timeout: Self.timeout)
        XCTAssertTrue(report.passed, report.failureText ?? "")
    }

    func testTheValidationModeAndTheFieldModeAreSeparateChoices() async throws {
        let html = try FixtureVariant.posting(#"{kind: "ready", version: 1, theme: "dark"}"#)
        // A lenient check still refuses the ready for its undeclared field: it is not a valid ready.
        let strictFields = await verifyBridge(html: html, strictness: .lenient, timeout: Self.timeout)
        XCTAssertEqual(strictFields.failedCategories, [.nativeDidNotReceive])
        XCTAssertEqual(strictFields.sessions.first?.rejections.first?.violations.map(\.rule), [.unexpectedField])
        // Lenient fields accept it, whatever the check's strictness.
        let lenientFields = await verifyBridge(html: html, fields: .lenient, timeout: Self.timeout)
        XCTAssertTrue(lenientFields.passed, lenientFields.failureText ?? "")
    }

    func testADoubleReadyFailsAsNativeDidNotReceive() async throws {
        let html = try FixtureVariant.replacingReady(with: Self.ready + "\n" + Self.ready)
        let report = await verifyBridge(html: html, timeout: Self.timeout)
        XCTAssertEqual(report.failedCategories, [.nativeDidNotReceive])
        XCTAssertTrue(
            report.failures.contains { $0.detail.contains("duplicate 'ready': it arrived 2 times") },
            "\(report.failures)")
    }

    func testRepeatedSessionsEachPassWithNoDuplicateCallbacks() async throws {
        let report = await verifyBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout, sessions: 5)
        XCTAssertEqual(report.sessions.count, 5)
        XCTAssertTrue(report.passed, report.failureText ?? "")
    }

    func testAPageThatCannotBeReadIsAFailureNamingTheFile() async {
        let missing = URL(fileURLWithPath: "/nonexistent/checkout.html")
        let report = await verifyBridge(page: missing, timeout: Self.timeout)
        XCTAssertFalse(report.passed)
        XCTAssertEqual(
            report.failureText,
            "FAIL: the page checkout.html can't be read as UTF-8 text: give the path of an HTML file")
    }

    func testTheFailureTextStartsWithTheVerdictNotTheSession() async throws {
        let report = await verifyBridge(html: try FixtureVariant.throwingReceiver(), timeout: Self.timeout)
        let text = try XCTUnwrap(report.failureText, "a throwing receiver passed")
        let first = try XCTUnwrap(text.split(separator: "\n").first)
        XCTAssertTrue(first.hasPrefix("FAIL: page did not accept the native message: "), "first line: \(first)")
        XCTAssertTrue(first.contains("Receiver refused"), "the first line does not say why: \(first)")
        XCTAssertTrue(text.contains("\nsession 1\n"), text)
    }

    // MARK: Recording in XCTest

    /// Failures XCTest was asked to record while `capturing` is set, instead of failing this test.
    private nonisolated let captured = CapturedFailures()

    override nonisolated func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard captured.capture(description, file: filePath, line: lineNumber) else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testABrokenPageFailsTheXCTestAtTheCallersLine() async throws {
        let html = try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#)
        captured.start()
        let line = #line + 1
        let report = await assertBridge(html: html, timeout: Self.timeout)
        let failures = captured.stop()
        XCTAssertEqual(failures.count, 1, "one failure for one broken page: \(failures)")
        let failure = try XCTUnwrap(failures.first)
        XCTAssertEqual(failure.line, line)
        XCTAssertTrue(failure.file.hasSuffix("BridgeAssertionsTests.swift"), failure.file)
        // XCTFail's own prefix, then the report's text from its verdict line on.
        XCTAssertEqual(failure.description, "failed - " + (report.failureText ?? "(the report passed)"))
        XCTAssertTrue(failure.description.hasPrefix("failed - FAIL: native did not receive the page's message"))
    }

    /// A folder (and a list) of pages is one assertion: one failure per failing page, each naming its page, at the
    /// caller's line; passing pages record nothing.
    func testAFolderOfPagesRecordsOneFailurePerFailingPage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assert-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#)
        for (name, html) in [("a.html", broken), ("b.html", try FixtureVariant.fixture()), ("c.htm", broken)] {
            try html.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "not a page".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        captured.start()
        let line = #line + 1
        let reports = await assertBridge(pages: [folder], timeout: Self.timeout)
        let failures = captured.stop()
        XCTAssertEqual(reports.map(\.page.lastPathComponent), ["a.html", "b.html", "c.htm"])
        XCTAssertEqual(reports.map(\.report.passed), [false, true, false])
        XCTAssertEqual(failures.count, 2, "one failure per failing page: \(failures.map(\.description))")
        XCTAssertEqual(failures.map(\.line), [line, line])
        XCTAssertTrue(failures.first?.description.hasPrefix("failed - a.html: FAIL: native did not receive") == true)
        XCTAssertTrue(failures.last?.description.hasPrefix("failed - c.htm: FAIL: ") == true)

        captured.start()
        await assertBridge(
            pages: [folder.appendingPathComponent("b.html"), folder.appendingPathComponent("c.htm")],
            timeout: Self.timeout)
        XCTAssertEqual(captured.stop().map { $0.description.prefix(16) }, ["failed - c.htm: "])
    }

    func testAPassingPageRecordsNoFailure() async throws {
        captured.start()
        await assertBridge(html: try FixtureVariant.fixture(), timeout: Self.timeout)
        XCTAssertEqual(captured.stop().map(\.description), [])
    }
}

/// A lock-guarded list, since XCTest may record a failure from any thread.
final class CapturedFailures: @unchecked Sendable {
    struct Failure { let description: String, file: String, line: Int }
    private let lock = NSLock()
    private var failures: [Failure]?

    func start() { lock.withLock { failures = [] } }

    func stop() -> [Failure] {
        lock.withLock {
            defer { failures = nil }; return failures ?? []
        }
    }

    /// Keeps the failure when capturing; false lets XCTest record it as usual.
    func capture(_ description: String, file: String, line: Int) -> Bool {
        lock.withLock {
            guard failures != nil else { return false }
            failures?.append(Failure(description: description, file: file, line: line))
            return true
        }
    }
}
