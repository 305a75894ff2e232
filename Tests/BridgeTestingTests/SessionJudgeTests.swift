import BridgeContract
import Foundation
import XCTest

@testable import BridgeTesting

/// The judge reads a recorded session and nothing else: recorded sessions in, verdicts out, no engine.
final class SessionJudgeTests: XCTestCase {
    /// ready and done on 'bridge', historyOther on 'history', an ack of ping; native sends sync and ping.
    static let contract: BridgeContract = {
        let json = #"""
            {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "requestID": {"field": "id"},
             "messages": [
               {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
               {"kind": "done", "direction": "page-to-native"},
               {"kind": "historyOther", "direction": "page-to-native", "handler": "history"},
               {"kind": "oops", "direction": "page-to-native", "pageError": true},
               {"kind": "pong", "direction": "page-to-native", "acknowledges": "ping"},
               {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}},
               {"kind": "ping", "direction": "native-to-page"}]}
            """#
        return try! BridgeContract(jsonData: Data(json.utf8))
    }()

    static func step(_ after: String, _ send: String?) -> PlayStep {
        PlayStep(after: after, send: send)
    }

    /// After ready native sends sync; the page says done once it took sync.
    static let readySyncDone = CheckPlay(steps: [step("ready", "sync")], expect: ["ready", "done"])

    func record(
        _ play: CheckPlay = readySyncDone, arrived kinds: [String] = [], on channel: String = "bridge",
        steps: [SessionRecord.StepOutcome] = [], ending: SessionRecord.Ending = .settled
    ) -> SessionRecord {
        var record = SessionRecord(contract: Self.contract, play: play)
        record.timeout = 3
        record.load.outcome = .finished
        record.ending = ending
        record.steps = steps
        for kind in kinds { arrive(kind, on: channel, in: &record) }
        return record
    }

    func arrive(_ kind: String, on channel: String = "bridge", document: Int = 1, in record: inout SessionRecord) {
        record.messages.append(.init(kind: kind, structure: "\(kind) {}", channel: channel, document: document))
        record.documentCounts[document, default: [:]][kind, default: 0] += 1
    }

    static func sent(_ index: Int, _ name: String, failure: String? = nil) -> SessionRecord.StepOutcome {
        .init(
            index: index, sent: name, name: name, failure: failure.map { BridgeFailure(.pageDidNotAccept, $0) },
            note: "\(name) accepted")
    }

    static let refusal = BridgeRejection(
        structure: "{kind: String, version: String}",
        violations: [ContractViolation(path: "version", rule: .wrongType, expected: "Number 1", found: "String")])

    func reject(_ count: Int = 1, in record: inout SessionRecord) {
        record.rejections.append(Self.refusal)
        record.rejectedCount += count
        record.rejectionTally.append(.init(rejection: Self.refusal, count: count))
    }

    // MARK: The load

    func testAnHTMLPageLoadsOnDidFinish() {
        XCTAssertEqual(SessionJudge.load(record()), .pass("didFinish"))
    }

    func testAnHTMLPageThatNeverFinishesSaysWhatDidNotHappenWithinTheTimeout() {
        var record = record()
        record.load.outcome = nil
        XCTAssertEqual(
            SessionJudge.load(record).failure,
            BridgeFailure(.pageLoadDidNotFinish, "webView(_:didFinish:) did not come within 3 s"))
        record.processTerminated = true
        XCTAssertEqual(
            SessionJudge.load(record).failure,
            BridgeFailure(.pageLoadDidNotFinish, "the web content process terminated during the load"))
    }

    func testAFailedLoadKeepsTheEnginesWords() {
        var record = record()
        record.load.outcome = .failed(.init(detail: "Load cancelled", cause: .other))
        XCTAssertEqual(SessionJudge.load(record).failure, BridgeFailure(.pageLoadDidNotFinish, "Load cancelled"))
    }

    func testARealPageIsUnreachableOnAnHTTPErrorOrNoResponse() throws {
        var record = record()
        record.url = try XCTUnwrap(URL(string: "http://127.0.0.1:8080/index.html"))
        record.load.httpStatusCode = 404
        XCTAssertEqual(
            SessionJudge.load(record).failure, BridgeFailure(.pageUnreachable, "HTTP 404 from 127.0.0.1:8080"))
        record.load.httpStatusCode = 200
        XCTAssertEqual(SessionJudge.load(record), .pass("HTTP 200 from 127.0.0.1:8080"))
        record.load.httpStatusCode = nil
        XCTAssertEqual(SessionJudge.load(record).failure?.category, .pageUnreachable)
        XCTAssertTrue(SessionJudge.load(record).failure?.detail.hasPrefix("no HTTP response from") == true)
        record.load.outcome = nil
        XCTAssertEqual(
            SessionJudge.load(record).failure,
            BridgeFailure(
                .pageUnreachable,
                "no response within the timeout from 127.0.0.1:8080: no HTTP response came within 3 s"))
        record.load.httpStatusCode = 200
        XCTAssertEqual(
            SessionJudge.load(record).failure,
            BridgeFailure(
                .pageLoadDidNotFinish,
                "127.0.0.1:8080 answered HTTP 200, but webView(_:didFinish:) did not come within 3 s (a subresource may never have arrived)"
            ))
        record.load.httpStatusCode = nil
        record.load.outcome = .failed(.init(detail: "Could not connect", cause: .connectionRefused, unreachable: true))
        XCTAssertEqual(
            SessionJudge.load(record).failure,
            BridgeFailure(.pageUnreachable, "Could not connect for 127.0.0.1:8080"))
    }

    // MARK: Page → native

    func testEveryExpectedMessagePasses() {
        let verdict = SessionJudge.pageToNative(record(arrived: ["ready", "done"]), loaded: true)
        XCTAssertEqual(verdict, .pass("ready {} | done {}"))
    }

    func testNothingArrivedNamesTheChannelsAndTheLimit() {
        let verdict = SessionJudge.pageToNative(record(ending: .deadline), loaded: true)
        XCTAssertEqual(
            verdict.failure,
            BridgeFailure(
                .nativeDidNotReceive, "no valid 'ready', 'done'; nothing arrived on 'bridge', 'history' within 3 s"))
    }

    /// historyOther came on 'history': the verdict says so, not "nothing arrived on 'bridge', 'history'".
    func testWhatArrivedIsNamedWithTheChannelItCameOn() {
        let play = CheckPlay(steps: [Self.step("ready", "sync")])
        var record = record(play, ending: .deadline)
        arrive("historyOther", on: "history", in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "no valid 'ready'; only historyOther (on 'history') arrived within 3 s")
        arrive("done", in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "no valid 'ready'; only historyOther (on 'history'); done (on 'bridge') arrived within 3 s")
    }

    func testThePagesOwnErrorIsNamedWhenNothingArrived() {
        var record = record(ending: .deadline)
        record.diagnostics = [PageDiagnostic(kind: .uncaughtError, text: "ReferenceError: x", location: "page.html:3")]
        let detail = SessionJudge.pageToNative(record, loaded: true).failure?.detail ?? ""
        XCTAssertTrue(detail.hasSuffix("; the page reported an uncaught error first: \(record.diagnostics[0])"), detail)
    }

    /// A duplicate decided the verdict at once: what was still missing had not arrived yet.
    func testAMissingMessageHadNotArrivedWhenAProblemDecidedTheVerdict() {
        let record = record(arrived: ["ready", "ready"], ending: .decided)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "duplicate 'ready': it arrived 2 times and must arrive once per page load (a second listener or a repeated init?); 'done' had not arrived when that decided the verdict"
        )
    }

    /// A strict refusal decided the verdict at once: what was still missing had not arrived yet.
    func testAMissingMessageHadNotArrivedWhenARefusalDecidedTheVerdict() {
        var record = record(arrived: ["ready"], ending: .decided)
        reject(in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "no valid 'done' had arrived when a refused message decided the verdict; what arrived instead: \(Self.refusal)"
        )
    }

    /// Refused messages and no valid one by the deadline: "no valid", with what came instead.
    func testARefusalAtTheDeadlineIsWhatArrivedInstead() {
        var record = record(ending: .deadline)
        reject(4, in: &record)
        record.rejections += [Self.refusal, Self.refusal, Self.refusal]
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "no valid 'ready', 'done'; what arrived instead: \(Self.refusal) | \(Self.refusal) | \(Self.refusal) and 1 more"
        )
    }

    func testARefusalBesidesEveryExpectedMessageFailsStrictAndIsListedLenient() {
        var record = record(arrived: ["ready", "done"])
        reject(in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "besides 'ready', 'done', messages the contract refuses arrived: \(Self.refusal)")
        record.strictness = .lenient
        XCTAssertTrue(SessionJudge.pageToNative(record, loaded: true).passed)
        XCTAssertEqual(SessionJudge.extras(record), ["rejected \(Self.refusal)"])
    }

    func testADuplicateInOneLoadIsOncePerPageLoad() {
        let record = record(arrived: ["ready", "ready", "done"])
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "duplicate 'ready': it arrived 2 times and must arrive once per page load (a second listener or a repeated init?)"
        )
        XCTAssertEqual(SessionJudge.extras(record), ["duplicate ready × 1"])
    }

    /// After a navigation each document said ready once: no duplicate. Twice in one of them is, once per document.
    func testEachDocumentSaysItsMessageOnce() {
        var record = record(arrived: ["ready", "done"])
        record.navigatedAwayTo = "http://127.0.0.1"
        arrive("ready", document: 2, in: &record)
        XCTAssertTrue(SessionJudge.pageToNative(record, loaded: true).passed)
        XCTAssertEqual(SessionJudge.extras(record), [])
        arrive("ready", document: 2, in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "duplicate 'ready': it arrived 2 times in one document and must arrive once per document (a second listener or a repeated init?)"
        )
    }

    func testThePageReportingItsOwnErrorFailsInEitherMode() {
        var record = record(arrived: ["ready", "done", "oops"])
        record.strictness = .lenient
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "the page reported an error through oops {}")
    }

    func testAnAcknowledgementOfNoRequestFails() {
        var record = record(arrived: ["ready", "done"])
        record.acknowledgements = [
            Acknowledgement(kind: "pong", requestID: RequestID(rawValue: "9"), correlation: .unknown)
        ]
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "pong answers no request native sent (unknown id): its id must be the id of the request it acknowledges")
    }

    /// A field a correlation rule names (Turbo's data.identifier) fails in the same words, naming its path.
    func testACorrelatedFieldOfNoRequestFailsInTheSameWords() {
        var record = record(arrived: ["ready", "done"])
        record.acknowledgements = [
            Acknowledgement(
                kind: "done", requestID: RequestID(rawValue: "v1"), correlation: .duplicate, field: "data.identifier")
        ]
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "done answers no request native sent (duplicate id): its data.identifier must be the id of the request it acknowledges"
        )
    }

    func testATerminatedProcessOrADroppedMessageIsWhyNothingCame() {
        var record = record(ending: .processEnded)
        record.processTerminated = true
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "no valid 'ready', 'done'; the web content process terminated before it arrived")
        record.processTerminated = false
        record.uncloneable = [UncloneableMessage(path: "body.callback", type: "Function")]
        XCTAssertTrue(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail.hasPrefix(
                "no valid 'ready', 'done'; WebKit could not clone what the page posted (body.callback: Function)")
                == true)
    }

    func testAMessageMissingInTheReloadedDocumentSaysSo() {
        var record = record(arrived: ["ready", "done"], ending: .deadline)
        record.reloadDocument = 2
        arrive("ready", document: 2, in: &record)
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail.hasPrefix(
                "no valid 'done' in the document loaded again (it came in the first; it must come once per document)"),
            true)
    }

    func testAPageThatDidNotLoadIsNotJudgedPageToNative() {
        XCTAssertEqual(SessionJudge.pageToNative(record(), loaded: false), .notRun("the page did not load"))
    }

    // MARK: Cause and effect

    func testWhatFollowsANativeStepComesFromThePlay() {
        let contract = Self.contract
        // Listed after the step's trigger in expect.
        XCTAssertEqual(SessionJudge.followers(ofStep: 0, in: Self.readySyncDone, contract), ["done"])
        // The trigger of a later step.
        let chain = CheckPlay(
            steps: [Self.step("didFinish", "sync"), Self.step("done", "sync")], expect: ["ready", "done"])
        XCTAssertEqual(SessionJudge.followers(ofStep: 0, in: chain, contract), ["done"])
        XCTAssertEqual(SessionJudge.followers(ofStep: 1, in: chain, contract), [])
        // An acknowledgement of what the step sent.
        let ping = CheckPlay(steps: [Self.step("didFinish", "ping")], expect: ["ready", "pong"])
        XCTAssertEqual(SessionJudge.followers(ofStep: 0, in: ping, contract), ["pong"])
        // The fixture: ready comes on its own, whatever native's sync does.
        let fixture = CheckPlay(steps: [Self.step("didFinish", "sync")], expect: ["ready"])
        XCTAssertEqual(SessionJudge.followers(ofStep: 0, in: fixture, contract), [])
        XCTAssertEqual(SessionJudge.followers(ofStep: 5, in: fixture, contract), [])
    }

    /// The receiver threw: done is its consequence, under the one category; page → native is not judged.
    func testARefusedNativeMessageIsTheOneCauseOfWhatFollowsIt() {
        let record = record(
            arrived: ["ready"], steps: [Self.sent(0, "sync", failure: "sync (window.bridgeReceive): TypeError")],
            ending: .decided)
        let report = SessionJudge.report(record)
        XCTAssertEqual(report.failures.map(\.category), [.pageDidNotAccept])
        XCTAssertEqual(report.pageToNative, .notRun("'done' not sent: the page did not accept 'sync' first"))
        XCTAssertEqual(report.nativeToPage.failure?.detail, "sync (window.bridgeReceive): TypeError")
    }

    func testAnAcknowledgementOfARefusedRequestIsItsConsequence() {
        let play = CheckPlay(steps: [Self.step("didFinish", "ping")], expect: ["ready", "pong"])
        let record = record(play, arrived: ["ready"], steps: [Self.sent(0, "ping", failure: "ping: TypeError")])
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true),
            .notRun("'pong' not sent: the page did not accept 'ping' first"))
    }

    func testConsequencesOfTwoRefusalsAreListedByTheirCause() {
        let play = CheckPlay(
            steps: [Self.step("didFinish", "ping"), Self.step("ready", "sync")], expect: ["ready", "pong", "done"])
        let record = record(
            play, arrived: ["ready"], steps: [Self.sent(0, "ping", failure: "a"), Self.sent(1, "sync", failure: "b")])
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true),
            .notRun(
                "'pong' not sent: the page did not accept 'ping' first; 'done' not sent: the page did not accept 'sync' first"
            ))
    }

    /// A message that does not follow the refused one is missing on its own: its own category, beside.
    func testAMessageThatDoesNotFollowTheRefusalIsStillMissing() {
        let fixture = CheckPlay(steps: [Self.step("didFinish", "sync")], expect: ["ready"])
        let record = record(fixture, steps: [Self.sent(0, "sync", failure: "TypeError")], ending: .deadline)
        let report = SessionJudge.report(record)
        XCTAssertEqual(report.failures.map(\.category), [.nativeDidNotReceive, .pageDidNotAccept])
    }

    /// A consequence beside another page → native failure is listed with it.
    func testAConsequenceBesideAnotherFailureIsListedWithIt() {
        var record = record(
            arrived: ["ready", "ready"], steps: [Self.sent(0, "sync", failure: "TypeError")], ending: .decided)
        record.strictness = .strict
        XCTAssertEqual(
            SessionJudge.pageToNative(record, loaded: true).failure?.detail,
            "duplicate 'ready': it arrived 2 times and must arrive once per page load (a second listener or a repeated init?); 'done' not sent: the page did not accept 'sync' first"
        )
    }

    // MARK: Native → page

    func testNativeToPagePassesWithEachStepsNote() {
        let record = record(arrived: ["ready", "done"], steps: [Self.sent(0, "sync")])
        XCTAssertEqual(SessionJudge.nativeToPage(record, loaded: true), .pass("sync accepted"))
    }

    func testARefusalNamesTheNavigationThatTookTheReceiverAway() {
        var record = record(arrived: ["ready"], steps: [Self.sent(0, "sync", failure: "TypeError")])
        record.navigatedAwayTo = "about:blank"
        XCTAssertEqual(
            SessionJudge.nativeToPage(record, loaded: true).failure?.detail,
            "TypeError (the page navigated away to about:blank)")
    }

    func testNothingWasSentSaysWhichTriggerDidNotCome() {
        XCTAssertEqual(
            SessionJudge.nativeToPage(record(), loaded: true), .notRun("nothing was sent: ready did not arrive"))
        XCTAssertEqual(
            SessionJudge.nativeToPage(record(arrived: ["ready"]), loaded: true),
            .notRun("nothing was sent: ready came only after the check stopped waiting for it"))
        XCTAssertEqual(SessionJudge.nativeToPage(record(), loaded: false), .notRun("the page did not load"))
        let replyOnly = CheckPlay(steps: [PlayStep(after: "ready", reply: .string("x"))])
        XCTAssertEqual(
            SessionJudge.nativeToPage(record(replyOnly), loaded: true), .notRun("the play sends nothing to the page"))
    }

    // MARK: Extras

    func testExtrasCountRefusalsDuplicatesAndDialogs() {
        var record = record(arrived: ["ready", "ready", "ready"])
        reject(50_000, in: &record)
        record.rejectedCount += 2
        record.dialogs = [.alert, .alert, .prompt]
        XCTAssertEqual(
            SessionJudge.extras(record),
            [
                "rejected × 50000: \(Self.refusal)", "rejected × 2 more, of other structures", "duplicate ready × 2",
                "dialog alert × 2 (answered as WKWebView does without a UI delegate)",
                "dialog prompt × 1 (answered as WKWebView does without a UI delegate)",
            ])
    }

    /// A session with a thousand copies of a message: judged from recorded values, no engine.
    func testAFloodIsJudgedFromTheRecord() {
        var record = record(arrived: ["ready"], steps: [Self.sent(0, "sync", failure: "TypeError")])
        for _ in 0..<1000 { arrive("done", document: 1, in: &record) }
        XCTAssertEqual(SessionJudge.report(record).failures.map(\.category), [.nativeDidNotReceive, .pageDidNotAccept])
    }
}
