import Foundation
import TerminalEscape
import XcodeRunner

/// How `webbridge xcode test` and `rerun` show a job: its events as lines on standard error while it runs, its
/// outcome as closing lines and an exit code. `XcodeRunner` itself prints nothing and returns no exit code.
enum XcodeJobText {
    /// The lines an event prints, as it happens.
    static func lines(_ event: JobEvent) -> [String] {
        switch event {
        case .preflight(let checks):
            return checks.filter { $0.status != .passed }.map(\.description)
        case .runStarted(let argv):
            // The argv holds values from the config: escaped, so none can start a line of its own on the terminal.
            return ["webbridge: " + XcodebuildCommand.display(argv).escapingControlCharacters]
        case .progress(let progress):
            return ["webbridge: \(progress.line)"]
        case .runFinished(let run):
            let status = run.manifest.exitCode
            return [
                "webbridge: \(run.progress.line); \(ending(run.ending))",
                status == 0 ? "webbridge: passed; evidence:" : "webbridge: FAILED (exit \(status)); evidence kept:",
                "  result bundle: \(run.artifacts.resultBundle.path.escapingControlCharacters)",
                "  build log:     \(run.artifacts.buildLog.path.escapingControlCharacters)",
                "  manifest:      \(run.artifacts.manifest.path.escapingControlCharacters)",
            ]
        }
    }

    static func ending(_ ending: JobRun.Ending) -> String {
        switch ending {
        case .exited(let status): "xcodebuild exited with \(status)"
        case .timedOut(let seconds):
            "xcodebuild did not finish within \(String(format: "%g", seconds)) s and was stopped"
        case .interrupted(let signal):
            "webbridge received \(SignalName.of(signal)) and stopped xcodebuild's process group"
        }
    }

    /// The lines after the runs: the comparison and why the job stopped. `command` is `test` or `rerun`.
    static func lines(_ outcome: JobOutcome, command: String) -> [String] {
        let prefix = "webbridge xcode \(command):"
        switch outcome.verdict {
        case .refused(let refusal):
            return lines(refusal, prefix: prefix)
        case .interrupted(let signal):
            // A rerun is one run: its stop is said by the run's own lines, if it started.
            return command == "test" || outcome.runs.isEmpty
                ? ["\(prefix) stopped by \(SignalName.of(signal)); no further run"] : []
        case .passed, .testsFailed, .timedOut:
            switch outcome.comparison {
            case nil: return retryLines(outcome, prefix: prefix)
            case .agree(let left, let right, let tests):
                return ["\(prefix) \(left) and \(right) agree on \(tests) tests"]
            case .noTestRan(let scope):
                return ["\(prefix) no test of \(scope.escapingControlCharacters) ran in either run"]
            case .differ(let left, let right, let differences):
                return ["\(prefix) outcomes differ between \(left) and \(right):"]
                    + differences.map { "  " + $0.escapingControlCharacters }
            }
        }
    }

    /// After a single run: why its per-test results could not be read, or what its retries came to: the tests
    /// that passed on a retry (flaky) and those that still fail, each as `-only-testing:` names it.
    static func retryLines(_ outcome: JobOutcome, prefix: String) -> [String] {
        if let error = outcome.resultsError {
            return ["\(prefix) could not read per-test results: \(error.description)"]
        }
        guard !outcome.retries.isEmpty else { return [] }
        func name(_ test: TestCaseResult) -> String {
            "  " + (test.onlyTesting ?? test.identifier).escapingControlCharacters
        }
        let flaky = outcome.passedOnRetry
        let failing = outcome.stillFailing
        let retries = outcome.retries.count == 1 ? "1 retry" : "\(outcome.retries.count) retries"
        var lines: [String] = []
        if !flaky.isEmpty {
            lines.append("\(prefix) \(count(flaky.count)) passed on a retry (flaky):")
            lines += flaky.map { name($0.test) + " (retry \($0.retry))" }
        }
        if !failing.isEmpty {
            lines.append("\(prefix) \(count(failing.count)) still failing after \(retries):")
            lines += failing.map(name)
        } else {
            lines.append("\(prefix) every failed test passed on a retry (\(retries))")
        }
        return lines
    }

    static func count(_ tests: Int) -> String { tests == 1 ? "1 test" : "\(tests) tests" }

    static func lines(_ refusal: JobRefusal, prefix: String) -> [String] {
        switch refusal {
        case .preflightFailed: return ["\(prefix) preflight failed; nothing was run"]
        case .needsAMac: return ["\(prefix) xcodebuild and xcrun are not on PATH; the run needs a Mac"]
        case .failed(let error): return [error.description]
        case .notARecordedRun(let manifest, let error):
            return [
                "\(manifest.escapingControlCharacters): \(error.description)", "\(prefix) refused; nothing was run",
            ]
        case .environmentDiffers(let differences):
            return differences.map(\.escapingControlCharacters)
                + ["\(prefix) refused; the environment differs from the recorded run"]
        case .resultsUnreadable(let error):
            return ["\(prefix) could not read per-test outcomes: \(error.description)"]
        }
    }

    /// The exit code: the last run's xcodebuild code when it failed, 1 when the compared runs differ or ran no
    /// test (or a retried test did not pass in a retry that exited 0), 124 after
    /// `--timeout`, 128 + the signal when interrupted, 3 when refused.
    static func exitCode(_ outcome: JobOutcome) -> Int32 {
        switch outcome.verdict {
        case .passed: ExitStatus.pass.rawValue
        case .testsFailed(.xcodebuildFailed(let code)): code
        case .testsFailed(.outcomesDiffer), .testsFailed(.noTestRan), .testsFailed(.failedAfterRetries):
            ExitStatus.contractFailure.rawValue
        case .timedOut: ExitStatus.timedOut.rawValue
        case .interrupted(let signal): 128 + signal
        case .refused: ExitStatus.environment.rawValue
        }
    }
}
