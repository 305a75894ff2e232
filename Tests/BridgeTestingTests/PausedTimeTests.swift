import BridgeContract
import BridgeTesting
import XCTest

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
}
