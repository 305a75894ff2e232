/// The one place that decides how a page's sessions run: stressed when the configuration carries stress options,
/// otherwise `count` sessions, then a failing page retried until a session passes or the retries are spent.
///
/// The CLI's single page, its suites and `verifyBridge` all run pages through it, each with its own `session` (a
/// fresh session, or a suite's lane) and `record` (a reporter, or a list).
@MainActor
package enum PageRun {
    /// Runs the sessions, handing each report to `record` as it finishes, and returns the stress verdict of a
    /// stressed run (nil otherwise). `shouldStop` ends the run early (an interrupt, a closed stdout).
    package static func run(
        _ configuration: CheckConfiguration, count: Int = 1, retries: Int = 0,
        session: @MainActor (CheckConfiguration) async -> SessionReport = { await BridgeCheck.run($0) },
        record: @MainActor (SessionReport) -> Void, shouldStop: @MainActor () -> Bool = { false }
    ) async -> StressVerdict? {
        if let stress = configuration.stress {
            return await StressRun.run(
                configuration, options: stress, session: session, record: record, shouldStop: shouldStop)
        }
        var passed = false
        for _ in 1...max(1, count) where !shouldStop() {
            let report = await session(configuration)
            passed = passed || report.passed
            record(report)
        }
        // A failing page runs again until a session passes (it is then flaky) or the retries are spent.
        for _ in 0..<max(0, retries) where !shouldStop() && !passed {
            let report = await session(configuration)
            passed = report.passed
            record(report)
        }
        return nil
    }
}
