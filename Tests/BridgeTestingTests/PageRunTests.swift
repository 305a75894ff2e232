import BridgeContract
import Foundation
import XCTest

@testable import BridgeTesting

/// How a page's sessions run, decided in one place: repeated, then retried while every session failed; stressed
/// when the configuration says so. Sessions here are canned reports: no engine.
@MainActor
final class PageRunTests: XCTestCase {
    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready"), nativeToPage: .pass("shown"), timeline: [],
        extraMessages: [])
    let failed = SessionReport(
        load: .pass("didFinish"), pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no valid 'ready'")),
        nativeToPage: .notRun("no ready"), timeline: [], extraMessages: [])
    let configuration = CheckConfiguration(page: .html("<p>", baseURL: nil))

    /// Runs with sessions that give `outcomes` in turn (then failures) and returns what was recorded, as pass (true)
    /// or fail.
    func recorded(count: Int, retries: Int, outcomes: [Bool], stopAfter: Int? = nil) async -> [Bool] {
        var given = 0
        var recorded: [Bool] = []
        let stress = await PageRun.run(
            configuration, count: count, retries: retries,
            session: { _ in
                given += 1
                return given <= outcomes.count && outcomes[given - 1] ? self.passed : self.failed
            }, record: { recorded.append($0.passed) }, shouldStop: { stopAfter.map { recorded.count >= $0 } ?? false })
        XCTAssertNil(stress, "an unstressed run has no stress verdict")
        XCTAssertEqual(given, recorded.count, "every session run is recorded")
        return recorded
    }

    func testRepeatedSessionsAllRunAndAPassingPageIsNotRetried() async {
        let sessions = await recorded(count: 3, retries: 2, outcomes: [false, true, false])
        XCTAssertEqual(sessions, [false, true, false])
    }

    func testAFailingPageRetriesUntilASessionPasses() async {
        let sessions = await recorded(count: 2, retries: 3, outcomes: [false, false, false, true, false])
        XCTAssertEqual(sessions, [false, false, false, true])
    }

    func testAFailingPageSpendsEveryRetry() async {
        let sessions = await recorded(count: 1, retries: 2, outcomes: [false, false, false, true])
        XCTAssertEqual(sessions, [false, false, false])
    }

    func testAStopEndsTheRunBeforeTheNextSession() async {
        let sessions = await recorded(count: 5, retries: 5, outcomes: Array(repeating: false, count: 10), stopAfter: 2)
        XCTAssertEqual(sessions, [false, false])
    }

    func testAStressedConfigurationRunsItsStressedSessionsAndGivesTheVerdict() async throws {
        var stressed = configuration
        stressed.stress = StressOptions(sessions: 4, shrinkBudget: 0)
        var perturbed = 0
        var recorded = 0
        let verdict = await PageRun.run(
            stressed, count: 9, retries: 9,
            session: { session in
                if session.perturbation != nil { perturbed += 1 }
                return self.passed
            }, record: { _ in recorded += 1 })
        XCTAssertEqual(try XCTUnwrap(verdict).sessions, 4, "the stress options decide the count, not --repeat")
        XCTAssertEqual(perturbed, 4, "each stressed session runs under a perturbation")
        XCTAssertEqual(recorded, 4)
    }
}
