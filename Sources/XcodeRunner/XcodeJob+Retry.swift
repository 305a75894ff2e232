import Foundation

/// One rerun of the tests that had failed (`--retries`), into a result bundle of its own.
public struct RetryAttempt: Sendable, Equatable {
    /// 1 for the first retry.
    public let number: Int
    public let run: JobRun
    /// The tests it reran (each with an `-only-testing:`), as the run before recorded them.
    public let retried: [TestCaseResult]
    /// What its own result bundle records.
    public let results: TestResults

    public init(number: Int, run: JobRun, retried: [TestCaseResult], results: TestResults) {
        self.number = number
        self.run = run
        self.retried = retried
        self.results = results
    }

    /// The retry's record of `test`, matched by identifier and test bundle; nil when it did not run.
    public func result(of test: TestCaseResult) -> TestCaseResult? {
        results.cases.last { $0.identifier == test.identifier && ($0.target == nil || $0.target == test.target) }
    }

    /// Whether `test` passed in this retry (an expected failure counts as passing, as XCTest counts it).
    public func passed(_ test: TestCaseResult) -> Bool {
        guard let outcome = result(of: test)?.outcome else { return false }
        return outcome == .passed || outcome == .expectedFailure
    }
}

extension JobOutcome {
    /// The tests that failed, then passed on a retry (flaky), each with the number of the retry it passed on.
    public var passedOnRetry: [(test: TestCaseResult, retry: Int)] {
        (results?.cases ?? []).filter { $0.outcome == .failed }.compactMap { test in
            retries.first { $0.retried.contains(test) && $0.passed(test) }.map { (test, $0.number) }
        }
    }

    /// The tests that failed and passed on no retry (when there were retries, the last run still fails them).
    public var stillFailing: [TestCaseResult] {
        let passed = passedOnRetry.map(\.test)
        return (results?.cases ?? []).filter { $0.outcome == .failed && !passed.contains($0) }
    }
}

extension XcodeJob {
    /// After a single run: its per-test results when asked for, then up to `options.retries` reruns of only the
    /// tests that failed. The verdict follows the last run: passed once every failed test passed on a retry.
    func finishSingleRun(
        _ first: JobRun, config: JobConfig, folder: URL, options: TestOptions, xcode: XcodeVersion
    ) -> JobOutcome {
        let firstVerdict = Self.verdict([first], nil)
        guard options.readsResults || options.retries > 0 else { return JobOutcome(firstVerdict, runs: [first]) }
        let reader = ResultReader(tools: tools, xcodeMajor: xcode.major ?? 16)
        let results: TestResults
        do { results = try reader.read(first.artifacts.resultBundle) } catch {
            return JobOutcome(firstVerdict, runs: [first], resultsError: error)
        }
        var failing = results.cases.filter { $0.outcome == .failed }
        // Only a run that ended with failed tests is retried: not a build failure, a timeout or a passing run.
        guard options.retries > 0, case .exited(let status) = first.ending, status != 0, !failing.isEmpty else {
            return JobOutcome(firstVerdict, runs: [first], results: results)
        }
        var runs = [first]
        var attempts: [RetryAttempt] = []
        for number in 1...options.retries {
            // A test whose bundle is not recorded cannot be named with -only-testing; it stays failed.
            let retried = failing.filter { $0.onlyTesting != nil }
            guard !retried.isEmpty else { break }
            // A stop signal between runs ends the job before the next one, as between `--alone-then-suite` runs.
            if let signal = SignalRelay.stopped {
                return JobOutcome(.interrupted(signal: signal), runs: runs, results: results, retries: attempts)
            }
            var artifacts = first.artifacts.suffixed("-retry\(number)")
            // Never an existing bundle: the next free name (`-retry1-2`, …), as for the first run.
            for counter in 2..<1000
            where artifacts.all.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) {
                artifacts = first.artifacts.suffixed("-retry\(number)-\(counter)")
            }
            let argv = XcodebuildCommand.test(
                config: config, udid: first.manifest.udid, onlyTesting: retried.compactMap(\.onlyTesting),
                resultBundle: artifacts.resultBundle)
            let run: JobRun
            do {
                run = try execute(
                    label: "retry \(number)", argv: argv, in: folder, artifacts: artifacts, xcode: xcode,
                    runtime: config.runtime ?? "", deviceType: config.deviceType, udid: first.manifest.udid,
                    rerunOf: nil, timeout: options.timeout)
            } catch {
                return JobOutcome(.refused(.failed(error)), runs: runs, results: results, retries: attempts)
            }
            runs.append(run)
            switch run.ending {
            case .interrupted(let signal):
                return JobOutcome(.interrupted(signal: signal), runs: runs, results: results, retries: attempts)
            case .timedOut(let seconds):
                return JobOutcome(.timedOut(after: seconds), runs: runs, results: results, retries: attempts)
            case .exited: break
            }
            let retryResults: TestResults
            do { retryResults = try reader.read(run.artifacts.resultBundle) } catch {
                return JobOutcome(.refused(.resultsUnreadable(error)), runs: runs, results: results, retries: attempts)
            }
            let attempt = RetryAttempt(number: number, run: run, retried: retried, results: retryResults)
            attempts.append(attempt)
            failing.removeAll { attempt.passed($0) }
            if failing.isEmpty { break }
        }
        let verdict: JobOutcome.Verdict
        if failing.isEmpty {
            verdict = .passed
        } else if case .exited(let status) = runs.last!.ending, status != 0 {
            verdict = .testsFailed(.xcodebuildFailed(exitCode: status))
        } else {
            verdict = .testsFailed(.failedAfterRetries)
        }
        return JobOutcome(verdict, runs: runs, results: results, retries: attempts)
    }
}
