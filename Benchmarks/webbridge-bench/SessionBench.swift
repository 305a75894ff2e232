import BridgeContract
import BridgeTesting
import Foundation

/// Fresh sessions in a warm process: `BridgeCheck.run` on the fixture, as a test or `webbridge check --repeat` runs it.
@MainActor
enum SessionBench {
    struct Figures {
        /// Milliseconds per timed session.
        var samples: [Double] = []
        /// Milliseconds from the load's start to each timeline event, per timed session.
        var phases: [TimelineEntry.Event: [Double]] = [:]
        /// Milliseconds from the session's start (before its view is made): "session made", "didFinish",
        /// "accepted" and "torn down", per timed session, to set against the raw session's phases.
        var phasesFromStart: [String: [Double]] = [:]
        var rssAfterFirst: Double?
        var rssAfterAll: Double?
        var sessions = 0
        /// RSS in MiB after every `total / 10` sessions: a leak grows linearly, a cache levels off.
        var rssCurve: [Double] = []
    }

    /// Runs `total` sessions; times `timed` of them after `warmUp`, and reads RSS after `rssFrom` and after `total`.
    static func run(html: String, total: Int, warmUp: Int, timed: Int, rssFrom: Int, timeout: Double) async throws
        -> Figures
    {
        var figures = Figures()
        for index in 1...total {
            let (report, made, milliseconds) = try await session(html: html, index: index, timeout: timeout)
            figures.sessions = index
            if index > warmUp && index <= warmUp + timed {
                figures.samples.append(milliseconds)
                for entry in report.timeline { figures.phases[entry.event, default: []].append(entry.milliseconds) }
                figures.phasesFromStart["session made", default: []].append(made)
                for entry in report.timeline where [.didFinish, .syncSent, .accepted].contains(entry.event) {
                    figures.phasesFromStart[entry.event.rawValue, default: []].append(made + entry.milliseconds)
                }
                figures.phasesFromStart["torn down", default: []].append(milliseconds)
            }
            if index == rssFrom { figures.rssAfterFirst = ResidentMemory.megabytes() }
            if index % max(total / 10, 1) == 0, let rss = ResidentMemory.megabytes() { figures.rssCurve.append(rss) }
        }
        figures.rssAfterAll = ResidentMemory.megabytes()
        return figures
    }

    /// One passing session: its report, when the check handed the session over, and its whole time (ms).
    static func session(html: String, index: Int, timeout: Double) async throws -> (
        report: SessionReport, made: Double, milliseconds: Double
    ) {
        let configuration = CheckConfiguration(page: .html(html, baseURL: nil), timeout: timeout)
        let clock = Stopwatch()
        // The session's making timed apart: the check hands it over before the page loads.
        var made = 0.0
        let report = await BridgeCheck.run(configuration) { _ in made = clock.milliseconds }
        let milliseconds = clock.milliseconds
        guard report.passed else {
            throw BenchFailure(
                "session \(index) failed: " + report.failures.map(\.description).joined(separator: "; "))
        }
        return (report, made, milliseconds)
    }
}
