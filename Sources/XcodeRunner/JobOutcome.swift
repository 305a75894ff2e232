import Foundation
import TerminalEscape

/// What a job is doing, as it happens, so a caller can show it while xcodebuild runs (the job prints nothing).
public enum JobEvent: Sendable, Equatable {
    /// Preflight ran before `test`: every check, passed or not.
    case preflight([PreflightCheck])
    /// An xcodebuild run starts with this argv (`xcodebuild` first; show it with `XcodebuildCommand.display`).
    case runStarted(argv: [String])
    /// The run's progress, first `building`, then each time it changes.
    case progress(ProgressTracker)
    /// The run ended and its evidence (result bundle, build log, manifest) is on disk.
    case runFinished(JobRun)
}

/// One xcodebuild run that finished (or was stopped), with where its evidence is.
public struct JobRun: Sendable, Equatable {
    /// The run's name in a comparison: the simulator's UDID, `alone` or `suite`.
    public let label: String
    /// The result bundle, build log and manifest the run wrote.
    public let artifacts: RunArtifacts
    /// What was recorded: the argv, the Xcode, the simulator, the exit code, the times.
    public let manifest: RunManifest
    /// The progress when the run ended (tests passed and failed so far).
    public let progress: ProgressTracker
    public let ending: Ending

    /// How a run ended.
    public enum Ending: Sendable, Equatable {
        /// xcodebuild exited with this code.
        case exited(Int32)
        /// It outlived `--timeout` and its process group was stopped.
        case timedOut(after: TimeInterval)
        /// The job received this signal (SIGINT, SIGTERM) and stopped xcodebuild's process group with it.
        case interrupted(signal: Int32)
    }

    public init(
        label: String, artifacts: RunArtifacts, manifest: RunManifest, progress: ProgressTracker, ending: Ending
    ) {
        self.label = label
        self.artifacts = artifacts
        self.manifest = manifest
        self.progress = progress
        self.ending = ending
    }
}

/// The per-test outcomes of two runs (`--alone-then-suite`, `--compare-udid`), compared.
public enum RunComparison: Sendable, Equatable {
    /// Both runs had the same outcome for each of `tests` tests.
    case agree(left: String, right: String, tests: Int)
    /// Neither run ran a test of `scope` (the job's `onlyTesting`).
    case noTestRan(scope: String)
    /// One line per test whose outcome differs or that ran on one side only (`name: left …, right …`).
    case differ(left: String, right: String, differences: [String])
}

/// What `XcodeJob.test` and `rerun` came to. The runs and the comparison are there whatever the verdict.
public struct JobOutcome: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// Every run exited 0 and, when two ran, their outcomes agree.
        case passed
        /// The tests failed; see `TestsFailure`.
        case testsFailed(TestsFailure)
        /// A run outlived `--timeout` and was stopped (its evidence is kept).
        case timedOut(after: TimeInterval)
        /// The job received a signal during a run, stopped it and ran nothing further.
        case interrupted(signal: Int32)
        /// Nothing (or nothing further) was run, or the runs could not be compared.
        case refused(JobRefusal)
    }

    /// Why the tests failed, the first that applies in this order.
    public enum TestsFailure: Sendable, Equatable {
        /// The two runs' outcomes differ (`comparison` lists how).
        case outcomesDiffer
        /// A run's xcodebuild exited with this code, not 0 (the first such run).
        case xcodebuildFailed(exitCode: Int32)
        /// Both runs exited 0 but neither ran a test of the job's scope.
        case noTestRan
        /// The last retry exited 0, but a test retried did not pass in it (it did not run, or was skipped).
        case failedAfterRetries
    }

    public let verdict: Verdict
    /// The runs that finished, in order, each with its evidence; empty when refused before running.
    public let runs: [JobRun]
    /// The two runs compared; nil for a single run, and when a refusal came first.
    public let comparison: RunComparison?
    /// A single run's per-test results (for JUnit and retries); nil when not asked for or not readable.
    public let results: TestResults?
    /// Each rerun of the failed tests (`--retries`), in order; their runs are in `runs` too.
    public let retries: [RetryAttempt]
    /// Why `results` could not be read, when they were asked for.
    public let resultsError: XcodeRunnerError?

    public init(
        _ verdict: Verdict, runs: [JobRun] = [], comparison: RunComparison? = nil, results: TestResults? = nil,
        retries: [RetryAttempt] = [], resultsError: XcodeRunnerError? = nil
    ) {
        self.verdict = verdict
        self.runs = runs
        self.comparison = comparison
        self.results = results
        self.retries = retries
        self.resultsError = resultsError
    }
}

/// Why a job ran nothing (or nothing further), naming the field, the rule and the remedy.
///
/// A verdict's value, not an error: `XcodeJob` returns it inside `JobOutcome`, never throws it; what the module
/// throws is `XcodeRunnerError`, which a refusal wraps where a tool or file failed.
public enum JobRefusal: Sendable, Equatable, CustomStringConvertible {
    /// A preflight check failed; nothing was run. Every check, as `JobEvent.preflight` reported them.
    case preflightFailed([PreflightCheck])
    /// xcodebuild and xcrun are not on PATH; a run needs a Mac.
    case needsAMac
    /// A tool, file or manifest could not be used (the Xcode version, an artifact, a manifest that can't be read).
    case failed(XcodeRunnerError)
    /// `rerun`: the manifest is not the record of an `xcodebuild test` run webbridge wrote; nothing was run.
    case notARecordedRun(manifest: String, XcodeRunnerError)
    /// `rerun`: this machine differs from the recorded run, one line per difference with its remedy.
    case environmentDiffers([String])
    /// The runs finished, but their per-test outcomes could not be read to compare them.
    case resultsUnreadable(XcodeRunnerError)

    public var description: String {
        switch self {
        case .preflightFailed(let checks):
            let failed = checks.filter { $0.status == .failed }.map(\.name)
            return "preflight: \(failed.joined(separator: ", ").escapingControlCharacters) failed; nothing was run. "
                + "Remedy: fix what each failed check names, then run again"
        case .needsAMac:
            return "xcodebuild, xcrun: not on PATH; the run needs a Mac. Remedy: run it on a Mac with Xcode selected "
                + "('xcode-select -p')"
        case .failed(let error): return error.description
        case .notARecordedRun(let manifest, let error):
            return "\(manifest.escapingControlCharacters): \(error.description)"
        case .environmentDiffers(let lines):
            return "the recorded run's environment differs; nothing was run: "
                + lines.map(\.escapingControlCharacters).joined(separator: "; ")
        case .resultsUnreadable(let error):
            return
                "per-test outcomes: could not be read (to compare the runs, or to retry the failed tests): \(error.description)"
        }
    }
}

extension XcodeJob {
    /// The verdict of finished runs: outcomes that differ, then the first run that did not exit 0 (a timeout or
    /// xcodebuild's failure), then no test run in either.
    static func verdict(_ runs: [JobRun], _ comparison: RunComparison?) -> JobOutcome.Verdict {
        if case .differ = comparison { return .testsFailed(.outcomesDiffer) }
        for run in runs {
            switch run.ending {
            case .exited(0): continue
            case .exited(let code): return .testsFailed(.xcodebuildFailed(exitCode: code))
            case .timedOut(let seconds): return .timedOut(after: seconds)
            case .interrupted(let signal): return .interrupted(signal: signal)
            }
        }
        if case .noTestRan = comparison { return .testsFailed(.noTestRan) }
        return .passed
    }
}
