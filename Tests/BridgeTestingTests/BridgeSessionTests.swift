import BridgeContract
import BridgeTesting
import XCTest

/// How a session treats what the page sends: rejections, late and duplicate readies, repeated sessions.
@MainActor
final class BridgeSessionTests: XCTestCase {
    let timeout: TimeInterval = 10

    /// Loads `html` and waits for didFinish, failing with the category when it does not come.
    func loadedSession(_ html: String, file: StaticString = #filePath, line: UInt = #line) async -> BridgeSession {
        let session = BridgeSession(announcingKind: "ready")
        session.loadHTMLString(html)
        let finished = await session.wait(timeout: timeout) { session.loadResult != nil }
        XCTAssertTrue(finished, "page load did not finish within \(timeout) s", file: file, line: line)
        return session
    }

    func assertRejected(
        _ body: String, path: String, rule: ContractViolation.Rule, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let session = await loadedSession(try FixtureVariant.posting(body), file: file, line: line)
        defer { session.tearDown() }
        let rejected = await session.wait(timeout: timeout) { !session.rejections.isEmpty }
        XCTAssertTrue(
            rejected, "native did not receive the page's message: no rejection within \(timeout) s", file: file,
            line: line)
        XCTAssertNil(session.first("ready"), "a broken ready was accepted", file: file, line: line)
        let violations = session.rejections.flatMap(\.violations)
        XCTAssertTrue(
            violations.contains { $0.path == path && $0.rule == rule },
            "expected a \(rule) violation at \(path), got \(violations)", file: file, line: line)
    }

    func testReadyWithoutVersionIsRejected() async throws {
        try await assertRejected(#"{kind: "ready"}"#, path: "version", rule: .missingField)
    }

    func testReadyWithVersionAsStringIsRejected() async throws {
        try await assertRejected(#"{kind: "ready", version: "1"}"#, path: "version", rule: .wrongType)
    }

    func testReadyWithVersionTrueIsRejectedBecauseABooleanIsNotANumber() async throws {
        try await assertRejected(#"{kind: "ready", version: true}"#, path: "version", rule: .wrongType)
    }

    func testUnknownKindIsRejected() async throws {
        try await assertRejected(#"{kind: "hello", version: 1}"#, path: "kind", rule: .unknownKind)
    }

    func testReadyPostedFromATimerAfterDidFinishStillPasses() async throws {
        // The page waits for its own load event, then a timer: the ready comes after didFinish.
        let html = try FixtureVariant.replacingReady(
            with: """
                window.addEventListener("load", function () {
                  setTimeout(function () {
                    window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
                  }, 20);
                });
                """)
        let session = await loadedSession(html)
        defer { session.tearDown() }
        let ready = await session.wait(timeout: timeout) { session.first("ready") != nil }
        XCTAssertTrue(ready, "native did not receive the page's message within \(timeout) s")
        let events = session.timeline.map(\.event)
        let finishedAt = try XCTUnwrap(events.firstIndex(of: .didFinish))
        let readyAt = try XCTUnwrap(events.firstIndex(of: .readyReceived))
        XCTAssertLessThan(finishedAt, readyAt, "this test needs the ready to arrive after didFinish")
        let report = await BridgeCheck.run(CheckConfiguration(page: .html(html, baseURL: nil)))
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    func testFixtureReadyArrivesBeforeDidFinishAndPasses() async throws {
        let session = await loadedSession(try FixtureVariant.fixture())
        defer { session.tearDown() }
        let events = session.timeline.map(\.event)
        let finishedAt = try XCTUnwrap(events.firstIndex(of: .didFinish))
        let readyAt = try XCTUnwrap(
            events.firstIndex(of: .readyReceived), "the fixture's ready should precede didFinish")
        XCTAssertLessThan(readyAt, finishedAt)
    }

    func testSecondReadyInOneSessionIsReportedAsDuplicate() async throws {
        let post = #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#
        let html = try FixtureVariant.replacingReady(with: post + "\n" + post)
        let session = await loadedSession(html)
        defer { session.tearDown() }
        let duplicate = await session.wait(timeout: timeout) { session.counts["ready", default: 0] > 1 }
        XCTAssertTrue(duplicate, "the second ready was not reported")
        XCTAssertEqual(session.counts["ready"], 2)
        XCTAssertNotNil(session.first("ready"))
    }

    func testTearDownReleasesTheSessionAndItsWebView() async throws {
        weak var releasedSession: BridgeSession?
        do {
            let session = await loadedSession(try FixtureVariant.fixture())
            releasedSession = session
            session.tearDown()
            XCTAssertNil(session.webView)
        }
        XCTAssertNil(
            releasedSession, "the session outlived its teardown: a retain cycle through the handler or delegate")
    }

    // MARK: Messages WebKit cannot clone

    func testAMessageWebKitCannotCloneIsNamedByPathAndTypeAndALaterReadyStillArrives() async throws {
        // The page posts a ready holding a function (dropped by WebKit), then a good one.
        let html = try FixtureVariant.replacingReady(
            with: """
                const bridge = window.webkit.messageHandlers.bridge;
                window.firstPost = bridge.postMessage({kind: "ready", version: 1, items: [1, {onDone: function () {}}]});
                bridge.postMessage({kind: "ready", version: 1});
                """)
        let session = await loadedSession(html)
        defer { session.tearDown() }
        let arrived = await session.wait(timeout: timeout) {
            session.first("ready") != nil && !session.uncloneable.isEmpty
        }
        XCTAssertTrue(arrived, "native did not receive the page's message, or no diagnosis came, within \(timeout) s")
        XCTAssertEqual(session.uncloneable, [UncloneableMessage(path: "body.items[1].onDone", type: "Function")])
        XCTAssertEqual(session.rejections, [], "a dropped message is not a rejection: the handler never saw it")
        let line = try XCTUnwrap(session.timeline.first { $0.event == .messageDropped })
        XCTAssertEqual(line.note, "body.items[1].onDone: Function cannot be cloned")
        // The wrapper hands the page WebKit's own answer: a Promise (which never settles for a dropped message).
        let returned = try await session.webView?.evaluateJavaScript("String(window.firstPost)") as? String
        XCTAssertEqual(returned, "[object Promise]")
    }

    func testACloneableMessageIsNotReported() async throws {
        let session = await loadedSession(try FixtureVariant.posting(#"{kind: "ready", version: 1}"#))
        defer { session.tearDown() }
        let ready = await session.wait(timeout: timeout) { session.first("ready") != nil }
        XCTAssertTrue(ready, "native did not receive the page's message within \(timeout) s")
        XCTAssertEqual(session.uncloneable, [])
        XCTAssertFalse(session.timeline.contains { $0.event == .messageDropped })
    }

    func testTheHandlerNameReachesTheDiagnosticsScriptAsTextNeverAsCode() async throws {
        // A contract may name its handler anything: a name written to break out of a string literal must not run.
        let name = #"bridge"]; window.pwned = 1; ["\u2028"#
        let defaults = BridgeContract.default
        let contract = BridgeContract(
            version: defaults.version, handler: name, receiver: defaults.receiver, messages: defaults.messages)
        let session = BridgeSession(contract: contract)
        defer { session.tearDown() }
        let literal = try XCTUnwrap(String(data: try JSONSerialization.data(withJSONObject: [name]), encoding: .utf8))
        session.loadHTMLString(
            "<script>window.webkit.messageHandlers[\(literal)[0]].postMessage({kind: \"ready\", tag: Symbol()})</script>"
        )
        let diagnosed = await session.wait(timeout: timeout) { !session.uncloneable.isEmpty }
        XCTAssertTrue(diagnosed, "no diagnosis within \(timeout) s: the script did not wrap the handler with this name")
        XCTAssertEqual(session.uncloneable, [UncloneableMessage(path: "body.tag", type: "Symbol")])
        let pwned = try await session.webView?.evaluateJavaScript("String(window.pwned)") as? String
        XCTAssertEqual(pwned, "undefined", "the handler name ran as code")
    }
    func testNativeRegistersEveryHandlerThePagePostsToButNoQueueItPulls() async throws {
        // WebViewJavascriptBridge's shape: the page queues messages that native pulls with a script; the queue's
        // name is no handler of the page's, so the page finds nothing to post to there.
        let contract = try BridgeContract(
            jsonData: Data(
                #"""
                {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [
                  {"kind": "ready", "direction": "page-to-native"},
                  {"kind": "flush", "direction": "page-to-native", "handler": "flushQueue"},
                  {"kind": "queued", "direction": "page-to-native", "handler": "queue"}],
                 "check": {"steps": [{"after": "flush", "evaluate": "window.fetchQueue()", "messages": "queue",
                   "returns": {"type": "string", "encoding": "json", "content": {"type": "array", "items": {"type": "any"}}}}]}}
                """#.utf8))
        XCTAssertEqual(contract.handlerNames, ["bridge", "flushQueue", "queue"])
        let session = BridgeSession(contract: contract)
        defer { session.tearDown() }
        session.loadHTMLString(#"<script>window.webkit.messageHandlers.bridge.postMessage({kind: "ready"})</script>"#)
        let ready = await session.wait(timeout: timeout) { session.first("ready") != nil }
        XCTAssertTrue(ready, "native did not receive the page's message within \(timeout) s")
        let seen =
            try await session.webView?.evaluateJavaScript(
                "['bridge', 'flushQueue', 'queue'].map((n) => typeof window.webkit.messageHandlers[n]).join()")
            as? String
        XCTAssertEqual(seen, "object,object,undefined")
    }
}
