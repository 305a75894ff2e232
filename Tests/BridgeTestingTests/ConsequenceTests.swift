import BridgeContract
import BridgeTesting
import Foundation
import XCTest

/// A page that does not take native's message never sends what it sends only after taking it: one cause, one
/// category ("page did not accept the native message"), the page's later messages listed as its consequences, and
/// the verdict as soon as the refusal decides it.
@MainActor
final class ConsequenceTests: XCTestCase {
    /// The page says ready; native answers with sync; the page says done only once it took sync.
    static let contractJSON =
        #"""
        {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive",
         "messages": [
           {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
           {"kind": "done", "direction": "page-to-native"},
           {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}],
         "check": {"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": "ACCEPTED"}],
                   "expect": ["ready", "done"]}}
        """#

    /// A page whose receiver is `receiver` (JavaScript defining it); it says done from inside the receiver.
    static func page(_ receiver: String) -> String {
        """
        <!doctype html><body><script>
        const post = (body) => window.webkit.messageHandlers.bridge.postMessage(body);
        \(receiver)
        post({kind: "ready", version: 1});
        </script></body>
        """
    }

    static let passing = "window.bridgeReceive = function (message) { post({kind: \"done\"}); };"

    func contract(accepted: String = "\"returns\"") throws -> BridgeContract {
        let text = Self.contractJSON.replacingOccurrences(of: "\"ACCEPTED\"", with: accepted)
        return try BridgeContract(jsonData: Data(text.utf8))
    }

    /// Runs the page; returns its report and how long the check went on after native's message was refused.
    func check(_ receiver: String, accepted: String = "\"returns\"", timeout: TimeInterval = 600) async throws -> (
        SessionReport, after: TimeInterval
    ) {
        let configuration = CheckConfiguration(
            page: .html(Self.page(receiver), baseURL: nil), contract: try contract(accepted: accepted),
            timeout: timeout, bound: 90)
        let start = DispatchTime.now().uptimeNanoseconds
        let report = await BridgeCheck.run(configuration)
        let elapsed = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
        let refused = try XCTUnwrap(
            report.timeline.last { $0.event == .notAccepted }, "native's message was not refused:\n\(report.text())")
        // The timeline starts with the load, a little after the check: what is left is at least the time after.
        return (report, elapsed - refused.milliseconds / 1000)
    }

    func assertOneCause(_ report: SessionReport, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            report.failures.map(\.category), [.pageDidNotAccept], report.text(), file: file, line: line)
        XCTAssertTrue(report.load.passed, report.text(), file: file, line: line)
        XCTAssertEqual(
            report.pageToNative, .notRun("'done' not sent: the page did not accept 'sync' first"), report.text(),
            file: file, line: line)
    }

    func testThePassingPagePasses() async throws {
        let configuration = CheckConfiguration(
            page: .html(Self.page(Self.passing), baseURL: nil), contract: try contract())
        let report = await BridgeCheck.run(configuration)
        XCTAssertTrue(report.passed, report.text())
    }

    func testAThrowingReceiverIsOneCauseDecidedAtOnce() async throws {
        let (report, after) = try await check(
            #"window.bridgeReceive = function (message) { throw new Error("Receiver refused"); };"#)
        assertOneCause(report)
        XCTAssertTrue(report.nativeToPage.failure?.detail.contains("Error: Receiver refused") == true, report.text())
        XCTAssertLessThan(after, 5, "the check waited for done after the refusal decided the verdict")
    }

    func testAMissingReceiverIsOneCauseDecidedAtOnce() async throws {
        let (report, after) = try await check("")
        assertOneCause(report)
        XCTAssertTrue(report.nativeToPage.failure?.detail.contains("TypeError") == true, report.text())
        XCTAssertLessThan(after, 5, "the check waited for done after the refusal decided the verdict")
    }

    func testARenamedReceiverIsOneCauseDecidedAtOnce() async throws {
        let (report, after) = try await check(
            Self.passing.replacingOccurrences(of: "bridgeReceive", with: "bridgeReceiver"))
        assertOneCause(report)
        XCTAssertTrue(report.nativeToPage.failure?.detail.contains("TypeError") == true, report.text())
        XCTAssertLessThan(after, 5, "the check waited for done after the refusal decided the verdict")
    }

    /// A receiver whose promise never settles (a render paused for good): the step's own deadline decides it, and
    /// the check does not then wait a second step for the done that can no longer come.
    func testAStepThePageNeverFinishesIsOneCauseDecidedAtItsDeadline() async throws {
        let timeout: TimeInterval = 4
        let (report, after) = try await check(
            "window.bridgeReceive = function (message) { return new Promise((resume) => { window.resume = resume; }).then(() => post({kind: \"done\"})); };",
            accepted: "\"settles\"", timeout: timeout)
        assertOneCause(report)
        XCTAssertEqual(
            report.nativeToPage.failure?.detail,
            "sync (window.bridgeReceive): its promise did not settle within 4 s", report.text())
        XCTAssertLessThan(after, timeout / 2, "the check waited for done after the deadline decided the verdict")
    }
}
