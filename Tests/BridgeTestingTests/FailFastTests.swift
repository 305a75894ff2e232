import BridgeContract
import BridgeTesting
import Foundation
import XCTest

/// A verdict comes as soon as it is decided, not when the step's timeout runs out: each check here has a
/// 600 s step timeout and must end long before it.
@MainActor
final class FailFastTests: XCTestCase {
    /// Far beyond any real page, so a check that waits it out cannot pass.
    static let stepTimeout: TimeInterval = 600
    /// How long a decided verdict may take to arrive here, cold engine included.
    static let decidedWithin: TimeInterval = 30

    /// Runs the check and fails if its report does not come before `decidedWithin`; the bound ends it either way.
    func decidedReport(
        _ page: CheckConfiguration.Page, contract: BridgeContract = .default,
        strictness: ValidationMode = .strict, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SessionReport {
        let configuration = CheckConfiguration(
            page: page, contract: contract, timeout: Self.stepTimeout, bound: 3 * Self.decidedWithin,
            strictness: strictness)
        let done = expectation(description: "the verdict, once decided, without waiting out the step timeout")
        final class Box: @unchecked Sendable { var report: SessionReport? }
        let box = Box()
        Task { @MainActor in
            box.report = await BridgeCheck.run(configuration)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: Self.decidedWithin)
        return try XCTUnwrap(
            box.report, "the check waited for an event its verdict no longer needed", file: file, line: line)
    }

    func testAStrictRejectionDecidesPageToNativeAtOnce() async throws {
        let html = try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#)
        let report = try await decidedReport(.html(html, baseURL: nil))
        XCTAssertEqual(report.pageToNative.failure?.category, .nativeDidNotReceive)
        XCTAssertEqual(report.rejections.first?.violations.first?.rule, .wrongType)
        // The rest of the session still ran: native's message went and the page took it.
        XCTAssertTrue(report.nativeToPage.passed)
    }

    func testADuplicateReadyDecidesPageToNativeAtOnceWhileAnotherMessageIsAwaited() async throws {
        let ready = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#
        let html = try FixtureVariant.replacingReady(with: ready + "\n" + ready)
        // The page never sends "done": only the duplicate can end the wait before the step timeout.
        let contract = try BridgeContract(
            jsonData: Data(
                #"""
                {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive",
                 "messages": [
                   {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
                   {"kind": "done", "direction": "page-to-native"},
                   {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}],
                 "check": {"steps": [{"after": "didFinish", "send": "sync", "value": {"value": "ok"}}],
                           "expect": ["ready", "done"]}}
                """#.utf8))
        let report = try await decidedReport(.html(html, baseURL: nil), contract: contract)
        XCTAssertEqual(report.pageToNative.failure?.category, .nativeDidNotReceive)
        XCTAssertTrue(report.pageToNative.failure?.detail.contains("duplicate 'ready'") == true, "\(report.failures)")
    }

    func testAReplyThePageShowsWrongFailsAtOnceNamingTheValuesStructure() async throws {
        let folder = try XCTUnwrap(
            Bundle.module.url(forResource: "reply-handler", withExtension: nil, subdirectory: "Fixtures/Protocols"))
        var contract = try BridgeContract.load(contentsOf: folder.appendingPathComponent("contract.json"))
        contract.check = try contract.check?.resolvingScripts(relativeTo: folder)
        let passing = try String(contentsOf: folder.appendingPathComponent("pass.html"), encoding: .utf8)
        let shown = #"document.body.dataset.received = user.admin ? "admin" : "member""#
        XCTAssertTrue(passing.contains(shown), "pass.html changed: update this test")
        let wrong = passing.replacingOccurrences(of: shown, with: #"document.body.dataset.received = "member""#)
        let report = try await decidedReport(.html(wrong, baseURL: folder), contract: contract)
        XCTAssertEqual(report.nativeToPage.failure?.category, .pageDidNotAccept)
        XCTAssertEqual(
            report.nativeToPage.failure?.detail,
            "the reply to getUser: document.body.dataset.received shows another String than the expected one")
    }

    /// Two sends shown at one place: the second is judged on the change it makes, not on what the first left.
    static let twoSends = Data(
        #"""
        {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive",
         "messages": [
           {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
           {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}],
         "check": {"steps": [
           {"after": "didFinish", "send": "sync", "value": {"value": "one"},
            "accepted": {"expression": "document.body.dataset.shown", "equals": "one"}},
           {"after": "ready", "send": "sync", "value": {"value": "two"},
            "accepted": {"expression": "document.body.dataset.shown", "equals": "two"}}]}}
        """#.utf8)

    /// A page that shows what it received a few tasks later, transformed by `shown` (JS, of `message.value`).
    static func showing(_ shown: String) -> String {
        """
        <!doctype html><body><script>
        window.bridgeReceive = function (message) {
          setTimeout(() => { document.body.dataset.shown = \(shown); }, 20);
        };
        window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
        </script></body>
        """
    }

    func testAnObservedSendPassesOnTheChangeItMakes() async throws {
        let contract = try BridgeContract(jsonData: Self.twoSends)
        let report = try await decidedReport(.html(Self.showing("message.value"), baseURL: nil), contract: contract)
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    func testAnObservedSendThePageShowsWrongFailsAtOnce() async throws {
        let contract = try BridgeContract(jsonData: Self.twoSends)
        let report = try await decidedReport(
            .html(Self.showing("message.value.toUpperCase()"), baseURL: nil), contract: contract)
        XCTAssertEqual(report.nativeToPage.failure?.category, .pageDidNotAccept)
        XCTAssertTrue(
            report.nativeToPage.failure?.detail.hasSuffix(
                "document.body.dataset.shown shows another String than the expected one") == true,
            "\(report.failures)")
    }

    /// A page that answers every native message by sending its first message again (a component that reconnects on
    /// each reply) once kept native answering forever; an expected message now triggers its steps once.
    func testAPageThatRepeatsItsTriggerOnEveryAnswerCannotKeepNativeAnsweringForever() async throws {
        let contract = try BridgeContract(
            jsonData: Data(
                #"""
                {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive",
                 "messages": [
                   {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
                   {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}],
                 "check": {"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}}]}}
                """#.utf8))
        let html = """
            <!doctype html><body><script>
            const post = () => window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            window.bridgeReceive = function (message) { setTimeout(post, 0); };
            post();
            </script></body>
            """
        for strictness in [ValidationMode.strict, .lenient] {
            let report = try await decidedReport(
                .html(html, baseURL: nil), contract: contract, strictness: strictness)
            let sent = report.timeline.filter { $0.event == .sent }.count
            XCTAssertEqual(sent, 1, "\(strictness): native answered the repeated trigger \(sent) times")
            XCTAssertTrue(report.nativeToPage.passed, "\(strictness): \(report.failures)")
            // Whether the second ready lands before the session ends is the page's timing; if it does, strict
            // mode names it as a duplicate, and lenient mode lists it.
            if strictness == .lenient {
                XCTAssertTrue(report.pageToNative.passed, "\(report.failures)")
            } else if let failure = report.pageToNative.failure {
                XCTAssertTrue(failure.detail.contains("duplicate"), "\(report.failures)")
            }
        }
    }

    func testAPageThatNeverShowsTheValueFailsAtTheStepDeadlineNamingWhatDidNotHappen() async throws {
        let contract = try BridgeContract(jsonData: Self.twoSends)
        let silent = Self.showing("message.value").replacingOccurrences(of: "setTimeout(", with: "void (")
        let configuration = CheckConfiguration(page: .html(silent, baseURL: nil), contract: contract, timeout: 0.5)
        let report = await BridgeCheck.run(configuration)
        XCTAssertEqual(
            report.nativeToPage.failure?.detail,
            "sync (window.bridgeReceive): document.body.dataset.shown did not show the expected String value within 0.5 s"
        )
    }
}
