import BridgeContract
import XCTest

@testable import BridgeTesting

/// A stressed session's own pauses of the web process do not count against its deadlines: the page could not run
/// then. Each pause here is longer than the whole step deadline, so a clock that counted it would fail the session.
@MainActor
final class PausedTimeTests: XCTestCase {
    /// Longer than the default step deadline (10 s).
    static let longPause: Double = 11_000

    func replay(_ perturbation: Perturbation) throws -> CheckConfiguration {
        var configuration = try StressRunTests.page("receiver-before-ready")
        configuration.perturbation = perturbation
        return configuration
    }

    func testAPauseAtDidFinishLongerThanTheStepDeadlineDoesNotFailTheSession() async throws {
        let report = await BridgeCheck.run(try replay(Perturbation(pauseAtFinish: Self.longPause)))
        let notes = report.timeline.filter { $0.event == .perturbed }.map(\.note)
        XCTAssertTrue(notes.contains("web process paused 11000 ms at didFinish"), "not paused: \(notes)")
        XCTAssertTrue(report.passed, "the pause counted against a deadline: \(report.failures)")
    }

    func testAPauseDuringTheLoadLongerThanTheStepDeadlineDoesNotFailTheLoad() async throws {
        let report = await BridgeCheck.run(
            try replay(Perturbation(pauses: [.init(at: 0, milliseconds: Self.longPause)])))
        let notes = report.timeline.filter { $0.event == .perturbed }.map(\.note)
        XCTAssertTrue(notes.contains { $0.hasPrefix("web process paused 11000 ms") }, "not paused: \(notes)")
        XCTAssertTrue(report.load.passed, "the pause counted against the load's deadline: \(report.failures)")
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    /// A wait that an event ends lets go of its deadline at once, with all the deadline holds (here the session's
    /// paused time): queued until it passed, every wait of a run of passing sessions stayed in memory for the whole
    /// timeout (about 1.6 KB a session).
    func testAWaitEndedByAnEventReleasesItsDeadlineAtOnce() async throws {
        let session = BridgeSession(contract: .default)
        weak var released: PausedTime?
        do {
            let paused = PausedTime(budget: 0)
            released = paused
            session.pausedTime = paused
        }
        // The script's completion ends the wait, long before its deadline, which lies past the look below.
        let outcome = await session.evaluate("0", until: .now() + 3 * CheckConfiguration.defaultTimeout)
        if case .timedOut = outcome { XCTFail("the evaluation did not complete") }
        session.pausedTime = nil
        // A cancelled timer lets go of its handler on the main queue: look after each turn of it, up to a deadline.
        let deadline = Date() + CheckConfiguration.defaultTimeout
        while released != nil && Date() < deadline {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
        XCTAssertNil(released, "the ended wait's deadline still holds what it captured")
        session.tearDown()
    }
}
