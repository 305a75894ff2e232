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

        public init(
            resultBundle: URL? = nil, aloneThenSuite: Bool = false, compareUDID: String? = nil,
            timeout: TimeInterval? = nil
        ) {
            self.resultBundle = resultBundle
            self.aloneThenSuite = aloneThenSuite
            self.compareUDID = compareUDID
            self.timeout = timeout
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
        guard runs.count == 2 else { return JobOutcome(Self.verdict(runs, nil), runs: runs) }
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

    // MARK: rerun

    /// Repeats a recorded run into a new bundle, refusing when the Xcode or the simulator differ.
    public func rerun(manifestURL: URL) -> JobOutcome {
        let old: RunManifest
        do { old = try RunManifest.load(from: manifestURL) } catch {
            return JobOutcome(.refused(.failed(error)))
        }
        do {
            // Only the run webbridge recorded is replayed: a UUID simulator and the exact `xcodebuild test` argv.
            try UDID.validate(
                old.udid, field: "udid", code: .manifestUnreadable,
                remedy: "rerun a manifest written by 'webbridge xcode test', unedited")
            try XcodebuildCommand.checkRecordedTestRun(old)
        } catch {
            return JobOutcome(.refused(.notARecordedRun(manifest: manifestURL.path, error)))
        }
        guard tools.hasMacTools else { return JobOutcome(.refused(.needsAMac)) }
        let xcode: XcodeVersion
        do { xcode = try XcodeVersion(parsing: tools.capture("xcodebuild", ["-version"]).stdout) } catch {
            return JobOutcome(SignalRelay.stopped.map { .interrupted(signal: $0) } ?? .refused(.failed(error)))
        }
        var refusals: [String] = []
        let recorded = XcodeVersion(version: old.xcodeVersion, build: old.xcodeBuild)
        if xcode != recorded {
            refusals.append(
                "xcode: running \(xcode.display), the run used \(recorded.display). Remedy: select that Xcode with xcode-select"
            )
        }
        var config = JobConfig()
        config.runtime = old.runtime
        let simulator = Preflight(config: config, folder: URL(fileURLWithPath: old.workingDirectory), tools: tools)
            .simulatorCheck(udid: old.udid, label: "simulator")
        if simulator.status != .passed { refusals.append(simulator.description) }
        let oldBundle = URL(fileURLWithPath: old.resultBundle)
        let start = now()
        // As for `test`: a rerun in the same second as another takes the next free name, never an existing one.
        var artifacts = RunArtifacts.default(
            results: oldBundle.deletingLastPathComponent(), udid: old.udid, start: start, suffix: "-rerun")
        for attempt in 2..<1000 where artifacts.all.contains(where: { FileManager.default.fileExists(atPath: $0.path) })
        {
            artifacts = RunArtifacts.default(
                results: oldBundle.deletingLastPathComponent(), udid: old.udid, start: start,
                suffix: "-rerun-\(attempt)")
        }
        for url in artifacts.all where FileManager.default.fileExists(atPath: url.path) {
            refusals.append("result bundle: \(url.path) already exists and is never overwritten")
        }
        if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal)) }
        guard refusals.isEmpty else { return JobOutcome(.refused(.environmentDiffers(refusals))) }
        guard let argv = XcodebuildCommand.replacingResultBundle(in: old.argv, with: artifacts.resultBundle),
            argv.first == "xcodebuild"
        else {
            let error = XcodeRunnerError(
                .manifestUnreadable, field: "argv", rule: "has no -resultBundlePath to redirect",
                remedy: "rerun a manifest written by 'webbridge xcode test', unedited")
            return JobOutcome(.refused(.notARecordedRun(manifest: manifestURL.path, error)))
        }
        do {
            let run = try execute(
                label: old.udid, argv: argv, in: URL(fileURLWithPath: old.workingDirectory), artifacts: artifacts,
                xcode: xcode, runtime: old.runtime, deviceType: old.deviceType, udid: old.udid,
                rerunOf: manifestURL.path)
            return JobOutcome(Self.verdict([run], nil), runs: [run])
        } catch {
            return JobOutcome(.refused(.failed(error)))
        }
    }

    // MARK: running xcodebuild

    /// The system's words for a failed write ("No space left on device"), else the error's description.
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let errors = [error as NSError, underlying].compactMap { $0 }
        if let posix = errors.first(where: { $0.domain == NSPOSIXErrorDomain }) {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// How the run ended, for an error: "exited with 65", "was interrupted by SIGTERM", "timed out after 60 s".
    static func describe(_ ending: JobRun.Ending) -> String {
        switch ending {
        case .exited(let status): "exited with \(status)"
        case .interrupted(let signal): "was interrupted by \(SignalName.of(signal))"
        case .timedOut(let after): "timed out after \(after) s"
        }
    }

    /// Runs one xcodebuild argv, teeing output to the console and the build log, and writes the manifest.
    func execute(
        label: String, argv: [String], in folder: URL, artifacts: RunArtifacts, xcode: XcodeVersion,
        runtime: String, deviceType: String?, udid: String, rerunOf: String?, timeout: TimeInterval? = nil
    ) throws(XcodeRunnerError) -> JobRun {
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                at: artifacts.resultBundle.deletingLastPathComponent(), withIntermediateDirectories: true)
            // `.withoutOverwriting` makes creating the log fail rather than truncate an existing one.
            try Data().write(to: artifacts.buildLog, options: .withoutOverwriting)
        } catch {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.buildLog.path,
                rule: "could not create the build log without overwriting",
                remedy: "check the results folder is writable and the log does not exist")
        }
        guard let log = try? FileHandle(forWritingTo: artifacts.buildLog) else {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.buildLog.path, rule: "could not open the build log",
                remedy: "check permissions")
        }
        let start = now()
        console.event(.runStarted(argv: argv))
        var tracker = ProgressTracker()
        console.event(.progress(tracker))
        // The first failed write (a full disk, say) stops the log, not the run: xcodebuild's output still reaches
        // the console and the run ends as it would, then the failure is the job's error.
        var logFailure: (any Error)?
        let outcome = try tools.stream(argv[0], Array(argv.dropFirst()), in: folder, timeout: timeout) { chunk in
            console.output(chunk)
            if logFailure == nil {
                do { try log.write(contentsOf: chunk) } catch { logFailure = error }
            }
            if tracker.consume(chunk) { console.event(.progress(tracker)) }
        }
        let ending: JobRun.Ending =
            if let signal = outcome.interruptedBy {
                .interrupted(signal: signal)
            } else if outcome.timedOut, let timeout {
                .timedOut(after: timeout)
            } else {
                .exited(outcome.status)
            }
        try? log.close()
        if let logFailure {
            throw XcodeRunnerError(
                .artifactUnwritable, field: artifacts.buildLog.path,
                rule: "the build log could not be written (\(Self.reason(logFailure))); it is incomplete and no "
                    + "manifest was written (xcodebuild \(Self.describe(ending)))",
                remedy: "free space on the results folder's disk, or give a results folder on another disk, "
                    + "then run the job again")
        }
        let end = now()
        let iso = ISO8601DateFormatter()
        let manifest = RunManifest(
            xcodeVersion: xcode.version, xcodeBuild: xcode.build, runtime: runtime, deviceType: deviceType, udid: udid,
            argv: argv, workingDirectory: folder.path, start: iso.string(from: start), end: iso.string(from: end),
            exitCode: RunManifest.exitCode(of: ending), host: ProcessInfo.processInfo.hostName,
            resultBundle: artifacts.resultBundle.path, buildLog: artifacts.buildLog.path, rerunOf: rerunOf,
            timedOutAfterSeconds: outcome.timedOut && outcome.interruptedBy == nil ? timeout : nil,
            interruptedBy: outcome.interruptedBy.map(SignalName.of))
        do {
            try manifest.encoded().write(to: artifacts.manifest, options: .withoutOverwriting)
        } catch {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.manifest.path,
                rule: "could not write the manifest without overwriting",
                remedy: "check the results folder is writable")
        }
        let run = JobRun(label: label, artifacts: artifacts, manifest: manifest, progress: tracker, ending: ending)
        console.event(.runFinished(run))
        return run
    }
}
