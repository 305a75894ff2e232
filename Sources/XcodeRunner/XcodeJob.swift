import Foundation

/// Where a job's live output goes: xcodebuild's bytes, and what the job is doing as values (it prints nothing).
public struct JobConsole: Sendable {
    public let output: @Sendable (Data) -> Void
    public let event: @Sendable (JobEvent) -> Void

    public init(output: @escaping @Sendable (Data) -> Void, event: @escaping @Sendable (JobEvent) -> Void) {
        self.output = output
        self.event = event
    }
}

/// The outcome of `pin`: the updated config, the chosen simulator, and the Xcode found (nil without one).
public struct PinResult: Sendable, Equatable {
    public let config: JobConfig
    public let simulator: Simulator
    public let xcode: XcodeVersion?
}

/// What the cloud-Mac job does: pin, preflight, run with evidence, compare, rerun.
public struct XcodeJob: Sendable {
    public let tools: ToolRunner
    public let console: JobConsole
    /// The clock, replaceable so tests can give distinct timestamps.
    public let now: @Sendable () -> Date

    public init(tools: ToolRunner, console: JobConsole, now: @escaping @Sendable () -> Date = { Date() }) {
        self.tools = tools
        self.console = console
        self.now = now
    }

    // MARK: pin

    /// Picks the one simulator of `runtime` and `deviceType` and writes it, with the running Xcode, into `config`.
    public func pin(runtime: String, deviceType: String, simctlJSON: Data?, config: JobConfig) throws(XcodeRunnerError)
        -> PinResult
    {
        let data: Data
        if let simctlJSON {
            data = simctlJSON
        } else {
            let output = try tools.capture("xcrun", ["simctl", "list", "devices", "available", "-j"])
            guard output.status == 0 else {
                throw XcodeRunnerError(
                    .toolFailed, field: "xcrun simctl list devices available -j", rule: "exited with \(output.status)",
                    remedy: "run it by hand to see why; check 'xcode-select -p'")
            }
            data = Data(output.stdout.utf8)
        }
        let source = simctlJSON == nil ? "xcrun simctl list devices available -j" : "--simctl-json"
        let list = try SimulatorList(json: data, source: source)
        let simulator = try list.pick(runtime: runtime, deviceType: deviceType)
        // The UDID goes into the config, file names and `-destination`: only what simctl writes, a UUID, is taken.
        try UDID.validate(
            simulator.udid, field: "udid (\(source))", code: .simctlUnreadable,
            remedy: simctlJSON == nil
                ? "check 'xcrun simctl list devices available -j' by hand; simctl lists UDIDs as UUIDs"
                : "give the unedited output of 'xcrun simctl list devices available -j'; simctl lists UDIDs as UUIDs")
        _ = try list.soleSimulator(udid: simulator.udid)
        var updated = config
        updated.runtime = simulator.runtime
        updated.deviceType = deviceType
        updated.udid = simulator.udid
        var xcode: XcodeVersion?
        if tools.locate("xcodebuild") != nil {
            let found = try XcodeVersion(parsing: tools.capture("xcodebuild", ["-version"]).stdout)
            updated.xcodeVersion = found.version
            updated.xcodeBuild = found.build
            xcode = found
        }
        return PinResult(config: updated, simulator: simulator, xcode: xcode)
    }

    // MARK: test

    /// Options of `webbridge xcode test`.
    public struct TestOptions: Sendable {
        public var resultBundle: URL?
        public var aloneThenSuite = false
        public var compareUDID: String?
        /// Seconds each xcodebuild run may take before it is stopped (its evidence is kept); nil for no limit.
        public var timeout: TimeInterval?
        /// How many times to rerun only the tests that failed (a single run only); 0 for none.
        public var retries: Int
        /// Read the run's per-test results (for a JUnit report) even without retries.
        public var readsResults: Bool

        public init(
            resultBundle: URL? = nil, aloneThenSuite: Bool = false, compareUDID: String? = nil,
            timeout: TimeInterval? = nil, retries: Int = 0, readsResults: Bool = false
        ) {
            self.resultBundle = resultBundle
            self.aloneThenSuite = aloneThenSuite
            self.compareUDID = compareUDID
            self.timeout = timeout
            self.retries = retries
            self.readsResults = readsResults
        }
    }

    /// One planned xcodebuild run.
    struct PlannedRun {
        let label: String
        let udid: String
        let onlyTesting: String?
        let artifacts: RunArtifacts
    }

    func plan(config: JobConfig, folder: URL, options: TestOptions) -> [PlannedRun] {
        let results = Preflight(config: config, folder: folder, tools: tools).resolve(
            config.results ?? "webbridge-results")
        let start = now()
        // Runs started in the same second would share default names: the first free counter (`-2`, `-3`, …) keeps
        // every earlier run's files. An explicit --result-bundle is never renamed; preflight refuses it if it exists.
        var runs = plan(config: config, options: options, results: results, start: start, counter: "")
        var attempt = 1
        while options.resultBundle == nil, attempt < 1000,
            runs.contains(where: { $0.artifacts.all.contains { FileManager.default.fileExists(atPath: $0.path) } })
        {
            attempt += 1
            runs = plan(config: config, options: options, results: results, start: start, counter: "-\(attempt)")
        }
        return runs
    }

    private func plan(config: JobConfig, options: TestOptions, results: URL, start: Date, counter: String)
        -> [PlannedRun]
    {
        let udid = config.udid ?? "unpinned"
        func artifacts(_ udid: String, _ suffix: String) -> RunArtifacts {
            if let explicit = options.resultBundle {
                return suffix.isEmpty
                    ? RunArtifacts(resultBundle: explicit) : RunArtifacts(resultBundle: explicit).suffixed(suffix)
            }
            return .default(results: results, udid: udid, start: start, suffix: counter + suffix)
        }
        if options.aloneThenSuite {
            return [
                PlannedRun(
                    label: "alone", udid: udid, onlyTesting: config.onlyTesting,
                    artifacts: artifacts(udid, options.resultBundle == nil ? "-alone" : "")),
                PlannedRun(label: "suite", udid: udid, onlyTesting: nil, artifacts: artifacts(udid, "-suite")),
            ]
        }
        var runs = [
            PlannedRun(label: udid, udid: udid, onlyTesting: config.onlyTesting, artifacts: artifacts(udid, ""))
        ]
        if let second = options.compareUDID {
            let secondArtifacts = options.resultBundle == nil ? artifacts(second, "") : artifacts(udid, "-\(second)")
            runs.append(
                PlannedRun(label: second, udid: second, onlyTesting: config.onlyTesting, artifacts: secondArtifacts))
        }
        return runs
    }

    /// Failures for UDIDs that are not UUIDs; they would reach paths and `-destination`, so nothing else is checked.
    func udidRefusals(config: JobConfig, options: TestOptions) -> [PreflightCheck] {
        var refusals: [PreflightCheck] = []
        if let udid = config.udid, !udid.isEmpty, !UDID.isValid(udid) {
            refusals.append(
                PreflightCheck(
                    "config", .failed, "udid: \(UDID.rule)",
                    remedy:
                        "pin with 'webbridge xcode pin --runtime … --device-type …', which writes the UDID simctl lists"
                ))
        }
        if let second = options.compareUDID, !UDID.isValid(second) {
            refusals.append(
                PreflightCheck(
                    "second simulator", .failed, "--compare-udid: \(UDID.rule)",
                    remedy:
                        "give the UDID of another simulator of the pinned runtime, as 'xcrun simctl list devices' shows it"
                ))
        }
        return refusals
    }

    /// The checks `preflight` and `test` run, including the second simulator of `--compare-udid`.
    public func preflight(config: JobConfig, folder: URL, options: TestOptions) -> [PreflightCheck] {
        let refusals = udidRefusals(config: config, options: options)
        guard refusals.isEmpty else { return refusals }
        let preflight = Preflight(config: config, folder: folder, tools: tools)
        var checks = preflight.run(artifacts: plan(config: config, folder: folder, options: options).map(\.artifacts))
        if let second = options.compareUDID {
            if second == config.udid {
                checks.append(
                    PreflightCheck(
                        "second simulator", .failed, "--compare-udid names the pinned simulator itself",
                        remedy: "give the UDID of another simulator of the pinned runtime"))
            } else {
                checks.append(preflight.simulatorCheck(udid: second, label: "second simulator"))
            }
        }
        return checks
    }

    /// Preflight, then the run(s), then (for two runs) their per-test outcomes compared.
    /// A stop signal (see ``holdStopSignals()``) ends it before the next tool, `.interrupted` with the runs so far.
    public func test(config: JobConfig, folder: URL, options: TestOptions) -> JobOutcome {
        let checks = preflight(config: config, folder: folder, options: options)
        // A check the signal cut short is no finding: nothing is said of them.
        if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal)) }
        console.event(.preflight(checks))
        guard checks.passed else { return JobOutcome(.refused(.preflightFailed(checks))) }
        guard tools.hasMacTools else { return JobOutcome(.refused(.needsAMac)) }
        let xcode: XcodeVersion
        do { xcode = try XcodeVersion(parsing: tools.capture("xcodebuild", ["-version"]).stdout) } catch {
            return JobOutcome(SignalRelay.stopped.map { .interrupted(signal: $0) } ?? .refused(.failed(error)))
        }
        var runs: [JobRun] = []
        for planned in plan(config: config, folder: folder, options: options) {
            if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal), runs: runs) }
            let argv = XcodebuildCommand.test(
                config: config, udid: planned.udid, onlyTesting: planned.onlyTesting,
                resultBundle: planned.artifacts.resultBundle)
            do {
                let run = try execute(
                    label: planned.label, argv: argv, in: folder, artifacts: planned.artifacts, xcode: xcode,
                    runtime: config.runtime ?? "", deviceType: config.deviceType, udid: planned.udid, rerunOf: nil,
                    timeout: options.timeout)
                runs.append(run)
                if case .interrupted(let signal) = run.ending {
                    return JobOutcome(.interrupted(signal: signal), runs: runs)
                }
            } catch {
                return JobOutcome(.refused(.failed(error)), runs: runs)
            }
        }
        if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal), runs: runs) }
        guard runs.count == 2 else {
            return finishSingleRun(runs[0], config: config, folder: folder, options: options, xcode: xcode)
        }
        // Compare per-test outcomes of the two runs, limited to the bridge tests.
        let reader = ResultReader(tools: tools, xcodeMajor: xcode.major ?? 16)
        let scope = config.onlyTesting ?? JobConfig.defaultOnlyTesting
        let results: [TestResults]
        do {
            results = try runs.map { run throws(XcodeRunnerError) in
                try reader.read(URL(fileURLWithPath: run.manifest.resultBundle)).restricted(to: scope)
            }
        } catch {
            if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal), runs: runs) }
            return JobOutcome(.refused(.resultsUnreadable(error)), runs: runs)
        }
        let (left, right) = (runs[0].label, runs[1].label)
        let differences = results[0].differences(from: results[1], left: left, right: right)
        let comparison: RunComparison
        if differences.isEmpty && !results[0].outcomes.isEmpty {
            comparison = .agree(left: left, right: right, tests: results[0].outcomes.count)
        } else if results[0].outcomes.isEmpty && results[1].outcomes.isEmpty {
            comparison = .noTestRan(scope: scope)
        } else {
            comparison = .differ(left: left, right: right, differences: differences)
        }
        return JobOutcome(Self.verdict(runs, comparison), runs: runs, comparison: comparison)
    }
}
