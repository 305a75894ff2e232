import BridgeContract
import Foundation
import XCTest

@testable import BridgeTesting

/// The token a stressed run shows for a failure fails again: when the first session's perturbation replays as a
/// pass (the machine's own timing failed that session), a later session of the same failure stands for it. Sessions
/// here are canned reports: no engine.
@MainActor
final class StressStandInTests: XCTestCase {
    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready"), nativeToPage: .pass("shown"), timeline: [],
        extraMessages: [])
    let failed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready"),
        nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "TypeError: undefined is not a function")),
        timeline: [], extraMessages: [])

    /// Stresses 6 sessions: the 2nd and 5th fail; on replay the 2nd's perturbation passes unless `firstReplays`.
    func verdict(firstReplays: Bool) async throws -> StressVerdict {
        var configuration = CheckConfiguration(page: .html("<p>", baseURL: nil))
        configuration.stress = StressOptions(sessions: 6, shrinkBudget: 1)
        var runs: [String: Int] = [:]
        var stressedSessions = 0
        var tokens: [Int: String] = [:]
        let verdict = await StressRun.run(
            configuration, options: try XCTUnwrap(configuration.stress),
            session: { trial in
                guard let token = trial.perturbation?.token else { return self.passed }
                runs[token, default: 0] += 1
                if runs[token] == 1 && tokens.count < 6 {
                    stressedSessions += 1
                    tokens[stressedSessions] = token
                    return [2, 5].contains(stressedSessions) ? self.failed : self.passed
                }
                // A replay (or a shrink candidate): the 5th session's perturbation fails again, the 2nd's only if
                // asked; a smaller one never does.
                if token == tokens[5] || (firstReplays && token == tokens[2]) { return self.failed }
                return self.passed
            })
        XCTAssertEqual(verdict.failed, 2)
        let failure = try XCTUnwrap(verdict.failures.first)
        XCTAssertEqual(failure.sessions, 2)
        XCTAssertEqual(failure.firstSession, 2)
        return verdict
    }

    func testALaterSessionStandsForAFailureWhoseFirstReplayPasses() async throws {
        let verdict = try await verdict(firstReplays: false)
        let failure = try XCTUnwrap(verdict.failures.first)
        XCTAssertEqual(failure.standsIn, 5)
        XCTAssertEqual(
            failure.replay,
            Perturbation.drawn(
                seed: Perturbation.sessionSeed(StressOptions.defaultSeed, 5), servesPage: false
            ).token)
        XCTAssertTrue(
            verdict.lines.contains {
                $0.contains("session 2's perturbation did not fail again when replayed")
            }, verdict.lines.joined(separator: "\n"))
    }

    func testTheFirstSessionKeepsAFailureWhoseReplayFailsAgain() async throws {
        let verdict = try await verdict(firstReplays: true)
        let failure = try XCTUnwrap(verdict.failures.first)
        XCTAssertNil(failure.standsIn)
        XCTAssertEqual(
            failure.replay,
            Perturbation.drawn(
                seed: Perturbation.sessionSeed(StressOptions.defaultSeed, 2), servesPage: false
            ).token)
        XCTAssertFalse(verdict.lines.contains { $0.contains("did not fail again") })
    }
}
