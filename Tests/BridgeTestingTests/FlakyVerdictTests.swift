import BridgeContract
import XCTest

@testable import BridgeTesting

/// The flaky verdict from sessions' timelines: which pair of events came the other way round in a failing session,
/// and the perturbation that forces that order again.
final class FlakyVerdictTests: XCTestCase {
    func session(_ passed: Bool, _ events: [(TimelineEntry.Event, Double, String)]) -> SessionReport {
        let failure = BridgeFailure(.pageDidNotAccept, "TypeError: undefined is not a function")
        return SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ready {kind: String, version: Number}"),
            nativeToPage: passed ? .pass("shown") : .fail(failure),
            timeline: events.map { TimelineEntry(event: $0.0, milliseconds: $0.1, note: $0.2) }, extraMessages: [])
    }

    let ready = "ready {kind: String, version: Number}"

    /// The receiver came after native's call: the page was late, and its timers late by twice the shift make it so.
    func testAReceiverDefinedAfterTheCallIsThePageLateAndItsReplayMakesThePageTimersLate() throws {
        let passing = session(
            true,
            [
                (.loadStarted, 0, ""), (.readyReceived, 5, ready), (.receiverDefined, 8, "window.bridgeReceive"),
                (.didFinish, 250, ""), (.syncSent, 251, "{kind: String, value: String}"), (.accepted, 252, ""),
            ])
        let failing = session(
            false,
            [
                (.loadStarted, 0, ""), (.readyReceived, 5, ready), (.didFinish, 250, ""),
                (.syncSent, 251, "{kind: String, value: String}"), (.notAccepted, 252, "TypeError"),
            ])
        var tally = BridgeReport()
        for report in [passing, failing, passing] { tally.add(report) }
        XCTAssertEqual(tally.outcome, .flaky)
        let verdict = try XCTUnwrap(tally.flaky)
        XCTAssertEqual(verdict.explanations.map(\.session), [2])
        let explanation = try XCTUnwrap(verdict.explanations.first)
        XCTAssertEqual(
            explanation.order,
            "sync was evaluated before window.bridgeReceive existed (not yet when the session ended); "
                + "in passing sessions it came 244.0 ms after")
        XCTAssertEqual(explanation.perturbation?.timerDelay, 489)
        XCTAssertEqual(explanation.perturbation?.nativeDelays, [])
        XCTAssertEqual(try Perturbation(token: try XCTUnwrap(explanation.replay)), explanation.perturbation)
    }

    /// The page's message came before native's call that should have preceded it: native was late, held by the shift.
    func testAPageEventBeforeNativesCallIsNativeLateAndItsReplayHoldsThatCall() throws {
        let passing = session(
            true,
            [
                (.loadStarted, 0, ""), (.readyReceived, 5, ready), (.didFinish, 20, ""),
                (.sent, 22, "ping: window.app.ping(…)"), (.accepted, 23, "ping"),
                (.messageReceived, 140, "deadline {kind: String}"),
            ])
        let failing = session(
            false,
            [
                (.loadStarted, 0, ""), (.readyReceived, 5, ready), (.didFinish, 20, ""),
                (.messageReceived, 140, "deadline {kind: String}"), (.sent, 190, "ping: window.app.ping(…)"),
                (.notAccepted, 191, "refused"),
            ])
        var tally = BridgeReport()
        for report in [passing, failing] { tally.add(report) }
        let explanation = try XCTUnwrap(tally.flaky?.explanations.first)
        XCTAssertEqual(
            explanation.order,
            "ping was evaluated 51.0 ms after deadline arrived; in passing sessions it came 117.0 ms before")
        XCTAssertEqual(explanation.perturbation?.nativeDelays, [336])
        XCTAssertNil(explanation.perturbation?.timerDelay)
    }

    /// The same order in both: the verdict says so and names the event that moved most, with no token.
    func testTheSameOrderGivesNoTokenButTheEventThatMovedMost() throws {
        let passing = session(true, [(.loadStarted, 0, ""), (.readyReceived, 5, ready), (.didFinish, 20, "")])
        let failing = session(false, [(.loadStarted, 0, ""), (.readyReceived, 5, ready), (.didFinish, 90, "")])
        var tally = BridgeReport()
        for report in [failing, passing] { tally.add(report) }
        let explanation = try XCTUnwrap(tally.flaky?.explanations.first)
        XCTAssertNil(explanation.perturbation)
        XCTAssertTrue(
            explanation.order.contains("the most moved: didFinish at 90.0 ms, in passing sessions at 20.0 ms"),
            explanation.order)
    }

    /// All failed or all passed is no flaky verdict; a stressed page's mixed sessions are the stress verdict's.
    func testOnlyMixedUnstressedSessionsAreFlaky() {
        let passing = session(true, [(.loadStarted, 0, "")])
        let failing = session(false, [(.loadStarted, 0, "")])
        XCTAssertEqual(BridgeReport(sessions: [passing, passing]).outcome, .passed)
        XCTAssertEqual(BridgeReport(sessions: [failing, failing]).outcome, .failed)
        var stressed = BridgeReport(sessions: [failing, passing])
        XCTAssertEqual(stressed.outcome, .flaky)
        stressed.stress = StressVerdict(seed: 1, sessions: 2, failed: 1, byCategory: [], failures: [])
        XCTAssertEqual(stressed.outcome, .failed)
        XCTAssertNil(stressed.flaky)
    }

    /// A passing session after many failures is kept, so the failures have one to be compared with.
    func testTheFirstPassingSessionIsKeptAfterTheFirstSessionsFailed() {
        let passing = session(true, [(.loadStarted, 0, "")])
        let failing = session(false, [(.loadStarted, 0, "")])
        var tally = BridgeReport()
        for _ in 0..<(BridgeReport.keptFirst + BridgeReport.keptFailures + 5) { tally.add(failing) }
        tally.add(passing)
        tally.add(passing)
        XCTAssertEqual(tally.kept.filter(\.report.passed).map(\.session), [tally.sessionCount - 1])
    }
}
