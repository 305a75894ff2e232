import BridgeContract
import BridgeTesting
import XCTest

/// Pages that once passed the check while the app would have failed, or hung it: each gets the app's verdict.
@MainActor
final class HostileVerdictTests: XCTestCase {
    static let timeout: TimeInterval = 3

    func check(_ html: String) async -> SessionReport {
        await BridgeCheck.run(CheckConfiguration(page: .html(html, baseURL: nil), timeout: Self.timeout))
    }

    func testReadiesFromIframesDoNotCountWhenTheMainDocumentSendsNone() async throws {
        // Twenty same-origin iframes each post a valid ready; the main document posts nothing.
        let frame = "<script>window.webkit.messageHandlers.bridge.postMessage({kind: 'ready', version: 1})</script>"
        let frames = (0..<20).map { _ in "<iframe srcdoc=\"\(frame)\"></iframe>" }.joined()
        let html = try FixtureVariant.replacingReady(with: "").replacingOccurrences(
            of: "<body>", with: "<body>\n" + frames)
        let report = await check(html)
        let failure = try XCTUnwrap(report.pageToNative.failure, "iframe readies passed for the main document's")
        XCTAssertEqual(failure.category, .nativeDidNotReceive)
        XCTAssertTrue(failure.detail.contains("frame: expected the main frame"), failure.detail)
        XCTAssertTrue(failure.detail.contains("wrong-frame"), failure.detail)
    }

    func testASameOriginFrameOfAFilePageIsNamedAsSuchNotAsOpaque() async throws {
        let frame = "<script>window.webkit.messageHandlers.bridge.postMessage({kind: 'ready', version: 1})</script>"
        let html = try FixtureVariant.replacingReady(with: "").replacingOccurrences(
            of: "<body>", with: "<body>\n<iframe srcdoc=\"\(frame)\"></iframe>")
        let report = await BridgeCheck.run(
            CheckConfiguration(
                page: .html(html, baseURL: FileManager.default.temporaryDirectory), timeout: Self.timeout))
        let failure = try XCTUnwrap(report.pageToNative.failure, "the frame's ready passed for the main document's")
        XCTAssertTrue(failure.detail.contains("found a frame of a file: page"), failure.detail)
        XCTAssertFalse(failure.detail.contains("opaque"), failure.detail)
    }

    func testAPageThatBreaksThePrototypesPostMessageFailsAsItWouldInTheApp() async throws {
        let html = try FixtureVariant.replacingReady(
            with: """
                Object.getPrototypeOf(window.webkit.messageHandlers.bridge).postMessage = function () {};
                window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
                """)
        let report = await check(html)
        let failure = try XCTUnwrap(report.pageToNative.failure, "the diagnostics wrapper hid the page's damage")
        XCTAssertEqual(failure.category, .nativeDidNotReceive)
        XCTAssertTrue(failure.detail.contains("nothing arrived on 'bridge'"), failure.detail)
    }

    func testAThrownValueWhoseMessageCannotBeReadStillNamesTheFailure() async throws {
        // Its toString throws: the engine has no message to give, and the detail used to be empty.
        for thrown in ["{toString() { throw 1; }}", #"{toString() { return ""; }}"#] {
            let report = await check(try FixtureVariant.receiverThrowing(thrown))
            let failure = try XCTUnwrap(report.nativeToPage.failure, "\(thrown): a throwing receiver passed")
            XCTAssertEqual(failure.category, .pageDidNotAccept)
            XCTAssertTrue(
                failure.detail.hasPrefix("the page threw a value whose text can't be read"),
                "\(thrown): '\(failure.detail)'")
        }
    }

    func testDialogsNeverBlockThePageAndAreOnTheTimeline() async throws {
        // Without a UI delegate WKWebView answers at once: alert returns, confirm is false, prompt is null.
        let html = try FixtureVariant.replacingReady(
            with: """
                alert("hello");
                const sure = confirm("sure?");
                const name = prompt("name?");
                if (sure === false && name === null) {
                  window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
                }
                """)
        let started = DispatchTime.now()
        let report = await check(html)
        XCTAssertTrue(report.passed, "\(report.failures)")
        XCTAssertLessThan(
            secondsSince(started), Self.timeout, "a dialog held the page until the timeout")
        XCTAssertEqual(report.timeline.filter { $0.event == .dialog }.map(\.note), ["alert", "confirm", "prompt"])
        XCTAssertTrue(
            report.extraMessages.contains { $0.hasPrefix("dialog alert × 1") }, "\(report.extraMessages)")
    }
}
