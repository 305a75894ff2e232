import BridgeContract
import BridgeTesting
import XCTest

/// Pages that once passed the check while the app would have failed, or hung it: each gets the app's verdict.
@MainActor
final class HostileVerdictTests: XCTestCase {
    /// The default deadline: a verdict comes as soon as it is decided, so only a page that never answers waits it out.
    static let timeout = CheckConfiguration.defaultTimeout

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

    // MARK: The page's own globals never take part in the verdict

    /// A contract whose play sends `sync` and expects the page to show `{"n": 1}` in `window.shown`.
    static let observedContract = """
        {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive",
         "messages": [
           {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
           {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}],
         "check": {"steps": [{"after": "didFinish", "send": "sync", "value": {"value": "ok"},
                              "accepted": {"expression": "window.shown", "equals": {"n": 1}}}],
                   "expect": ["ready"]}}
        """

    func observedPage(_ receiverBody: String, before: String = "") -> String {
        """
        <!doctype html><html><body><script>
        \(before)
        window.bridgeReceive = function (message) { \(receiverBody) };
        window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
        </script></body></html>
        """
    }

    func checkObserved(_ html: String) async throws -> SessionReport {
        let contract = try BridgeContract(jsonData: Data(Self.observedContract.utf8))
        return await BridgeCheck.run(
            CheckConfiguration(page: .html(html, baseURL: nil), contract: contract, timeout: Self.timeout))
    }

    func testAReceiverThatStoresOtherTextFailsEvenWhenThePageReplacesEncodeURIComponent() async throws {
        // The page keeps what native sent, shows other text, and makes `encodeURIComponent` answer for the sent
        // text: a check comparing through the page's function would pass.
        let html = try FixtureVariant.fixture().replacingOccurrences(
            of: "document.body.dataset.received = message.value;",
            with: """
                const sent = message.value, encode = window.encodeURIComponent;
                document.body.dataset.received = "something else";
                window.encodeURIComponent = function () { return encode(sent); };
                """)
        XCTAssertTrue(html.contains("something else"), "the fixture's receiver changed: update this test")
        let report = await check(html)
        let failure = try XCTUnwrap(report.nativeToPage.failure, "the page's encodeURIComponent decided the verdict")
        XCTAssertEqual(failure.category, .pageDidNotAccept)
        XCTAssertTrue(failure.detail.contains("differs from the sent text"), failure.detail)
    }

    func testAPageThatShowsAnotherValueFailsEvenWhenItReplacesJSONStringify() async throws {
        // The page shows {"n": 2} and makes JSON.stringify claim {"n": 1}.
        let html = observedPage(
            #"window.shown = {n: 2}; JSON.stringify = function () { return '{"n":1}'; };"#)
        let report = try await checkObserved(html)
        let failure = try XCTUnwrap(report.nativeToPage.failure, "the page's JSON.stringify decided the verdict")
        XCTAssertEqual(failure.category, .pageDidNotAccept)
        XCTAssertEqual(
            failure.detail, "sync (window.bridgeReceive): window.shown shows another {n: Number} than the expected one")
    }

    func testAPageWithoutSetTimeoutOrFunctionCallIsObservedAsAnyOther() async throws {
        // The answer comes a task later; the page then removes what the check's own scripts once relied on.
        let html = observedPage(
            """
            const later = window.setTimeout;
            later(function () {
              window.shown = {n: 1};
              delete window.setTimeout;
              Function.prototype.call = function () { throw new Error("call replaced"); };
              Function.prototype.apply = function () { throw new Error("apply replaced"); };
            }, 0);
            """)
        let report = try await checkObserved(html)
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    func testAGetterIsReadOnceALook() async throws {
        // A getter that shows the expected value only on its first read, then another one: the first look decides.
        let html = observedPage(
            """
            let reads = 0;
            Object.defineProperty(window, "shown", { configurable: true, get() { reads += 1; return {n: reads}; } });
            """)
        let report = try await checkObserved(html)
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    func testAValidReadyArrivesWhenThePageReplacesApplyCallAndStructuredClone() async throws {
        let html = try FixtureVariant.replacingReady(
            with: """
                Function.prototype.apply = function () { throw new Error("apply replaced"); };
                Function.prototype.call = function () { throw new Error("call replaced"); };
                window.structuredClone = function () { throw new Error("structuredClone replaced"); };
                window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
                """)
        let report = await check(html)
        XCTAssertTrue(report.passed, "\(report.failures)")
        XCTAssertEqual(report.timeline.filter { $0.event == .messageDropped }.count, 0, "\(report.timeline)")
    }

    func testABodysGettersRunOnceAsInTheApp() async throws {
        // WebKit clones a body once; a getter that answers differently the second time must not be read twice.
        let html = try FixtureVariant.replacingReady(
            with: """
                let reads = 0;
                window.webkit.messageHandlers.bridge.postMessage({
                  kind: "ready", get version() { reads += 1; return reads === 1 ? 1 : "again"; } });
                """)
        let report = await check(html)
        XCTAssertTrue(report.passed, "\(report.failures)")
    }
}
