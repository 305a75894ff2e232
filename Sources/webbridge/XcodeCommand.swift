import CommandLineOptions
import Foundation
import XcodeRunner

/// `webbridge xcode pin|preflight|test|rerun`: a thin layer over `XcodeRunner`.
enum XcodeCommand {
    static let subcommands = OptionTable(
        command: "webbridge xcode",
        positionals: [
            Positional("subcommand", "<pin|preflight|test|rerun>", choices: ["pin", "preflight", "test", "rerun"])
        ],
        options: [])

    // The options the subcommands share, each written once.
    static let config = Option.value(
        "--config", "FILE", "the job config", default: .value(JobConfig.defaultFileName))
    static let resultBundle = Option.value(
        "--result-bundle", "PATH", "the run's .xcresult (its build log and manifest beside it); never overwritten",
        default: .described("<results>/<start time>-<UDID>.xcresult"))
    static let aloneThenSuite = Option.flag(
        "--alone-then-suite", "run the bridge tests alone, then the whole scheme, and compare their outcomes")
    static let compareUDID = Option.value(
        "--compare-udid", "UDID", "also run on this second simulator of the pinned runtime and compare the outcomes",
        rule: .pattern(rule: "a UUID (8-4-4-4-12 hexadecimal digits), as 'xcrun simctl list devices' shows it") {
            UDID.isValid($0)
        })

    static let pinOptions = OptionTable(
        command: "webbridge xcode pin",
        options: [
            .value(
                "--runtime", "R",
                "runtime identifier (com.apple.CoreSimulator.SimRuntime.iOS-18-2) or exact display form (iOS 18.2)",
                required: true),
            .value(
                "--device-type", "D",
                "device type identifier or exact name ('iPhone 15' never matches 'iPhone 15 Pro')", required: true),
            .value(
                "--simctl-json", "FILE", "the saved output of 'xcrun simctl list devices available -j'",
                default: .described("run it")),
            config,
        ])
    static let preflightOptions = OptionTable(
        command: "webbridge xcode preflight", options: [config, resultBundle, aloneThenSuite, compareUDID],
        exclusive: [(aloneThenSuite.name, compareUDID.name)])
    static let testOptions = OptionTable(
        command: "webbridge xcode test",
        options: [
            config, resultBundle, aloneThenSuite, compareUDID,
            .value(
                "--timeout", "SECONDS",
                "stop an xcodebuild run that outlives it: SIGTERM to its process group, SIGKILL 30 s later; its "
                    + "evidence is kept and the exit is 124",
                rule: .seconds(minimum: 0.001, maximum: ToolRunner.longestTimeout), default: .described("no limit")),
            .value(
                "--retries", "N",
                "rerun only the tests that failed (one -only-testing: each, read from the result bundle), up to N "
                    + "times, each into a result bundle of its own (<bundle>-retryK.xcresult); says which passed on "
                    + "a retry (flaky) and which still fail, and exits as the last run ends",
                rule: .integer(0...maximumRetries), default: .value("0")),
            .value(
                "--report", "junit=FILE",
                "also write the run's JUnit, read from its result bundle (and its retries'), to FILE. An existing "
                    + "file is overwritten; a symbolic link, a folder, the config, or a folder that does not exist "
                    + "is refused before anything runs (exit 2); a report that cannot be written is exit 3",
                rule: .pattern(rule: "junit=FILE") { ReportTarget($0)?.format == .junit }),
        ],
        exclusive: [
            (aloneThenSuite.name, compareUDID.name), ("--retries", aloneThenSuite.name),
            ("--retries", compareUDID.name), ("--report", aloneThenSuite.name), ("--report", compareUDID.name),
        ])
    /// The most `--retries`: each retry is a whole xcodebuild run.
    static let maximumRetries = 10
    static let rerunOptions = OptionTable(
        command: "webbridge xcode rerun", positionals: [Positional("the manifest path", "MANIFEST")], options: [])

    static let pinAbout = """
        Picks exactly one available simulator and writes its UDID, the runtime and 'xcodebuild -version'
        into the job config; prints the UDID.
        """
    static let preflightAbout = """
        Runs every check and reports all failures, one line each with the remedy: ok, FAIL (with the
        remedy), or 'not run (needs a Mac)'. Exit 0 when nothing failed, 3 otherwise. Takes the options of
        'test' so it checks the same result bundles and the second simulator.
        """
    static let testAbout = """
        Preflight, then 'xcodebuild test' as an argv in its own process group; keeps .xcresult, build log
        and manifest.json. With --retries, reruns only the failed tests, each retry into a bundle of its
        own. Exits with the last run's xcodebuild exit code (0 once every failed test passed on a retry);
        1 when the compared runs' outcomes differ; 3 when refused. SIGINT is forwarded to xcodebuild's
        process group, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM as SIGTERM (a second one
        kills it), also during preflight and between runs; the evidence is kept, nothing further runs and
        the exit is 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
        """
    static let rerunAbout = """
        Repeats the 'xcodebuild test' run recorded in MANIFEST (nothing else) into a new result bundle;
        refuses if the Xcode or the simulator differ.
        """

    static let exitCodes = """
        EXIT CODES: 0 pass, 1 outcomes differ (or a retried test did not pass in a retry that exited 0),
        2 usage (the command line itself), 3 environment or preflight failure (including a missing or
        unreadable config, manifest or --simctl-json file); 124 for --timeout; 128 + the signal after a
        stop signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP); 'test' and 'rerun' otherwise exit with the
        last xcodebuild run's code.
        """

    /// Each subcommand: its name, its options and what it does.
    static let entries: [(name: String, options: OptionTable, about: String)] = [
        ("pin", pinOptions, pinAbout), ("preflight", preflightOptions, preflightAbout),
        ("test", testOptions, testAbout), ("rerun", rerunOptions, rerunAbout),
    ]

    static let usage: String = {
        let listed = entries.map { entry -> String in
            let about = entry.about.split(separator: "\n").map { "              " + $0 }
            return ([entry.options.synopsis(lead: "  ", name: entry.name)] + about).joined(separator: "\n")
        }
        return """
            \(subcommands.synopsis()) [options]

            Pins, checks and runs the bridge tests on a cloud Mac, keeping the evidence.

            SUBCOMMANDS:
            \(listed.joined(separator: "\n"))

            See 'webbridge xcode <subcommand> --help' for each one's options.

            \(exitCodes)
            """
    }()

    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        // The first word names the subcommand; the rest is that subcommand's command line.
        let chosen: ParsedOptions
        switch subcommands.read(argv.prefix(1), help: usage) {
        case .exit(let status): return status
        case .options(let parsed): chosen = parsed
        }
        let name = chosen.positionals[0]
        let entry = entries.first { $0.name == name }!
        switch entry.options.read(argv.dropFirst(), help: entry.options.help(entry.about, epilogue: exitCodes)) {
        case .exit(let status): return status
        case .options(let parsed):
            switch name {
            case "pin": return pin(parsed)
            case "preflight": return preflight(parsed)
            case "test": return test(parsed)
            default: rerun(parsed)
            }
        }
    }

    /// Prints how the job ended and exits with its code; codes beyond the documented ones are xcodebuild's own,
    /// passed through (C `exit` flushes stdout).
    static func finish(_ outcome: JobOutcome, _ command: String) -> Never {
        for line in XcodeJobText.lines(outcome, command: command) { printError(line) }
        exit(XcodeJobText.exitCode(outcome))
    }

    static var job: XcodeJob {
        XcodeJob(
            tools: ToolRunner(),
            console: JobConsole(
                output: { FileHandle.standardOutput.write($0) },
                event: { event in for line in XcodeJobText.lines(event) { printError(line) } }))
    }

    static func configURL(_ parsed: ParsedOptions) -> URL {
        URL(fileURLWithPath: parsed.value("--config")!).standardizedFileURL
    }

    static func loadConfig(_ url: URL) -> JobConfig? {
        do { return try JobConfig.load(from: url) } catch {
            printError("webbridge xcode: \(error)")
            return nil
        }
    }

    /// The job config `--config` names and the folder it is in, nil once the reason it can't be read is printed.
    static func loadConfig(_ parsed: ParsedOptions) -> (config: JobConfig, folder: URL)? {
        let url = configURL(parsed)
        return loadConfig(url).map { ($0, url.deletingLastPathComponent()) }
    }

    static func pin(_ parsed: ParsedOptions) -> ExitStatus {
        // Both are required: the table refused a command line without them.
        let runtime = parsed.value("--runtime")!
        let deviceType = parsed.value("--device-type")!
        let url = configURL(parsed)
        var config = JobConfig()
        if FileManager.default.fileExists(atPath: url.path) {
            guard let existing = loadConfig(url) else { return .environment }
            config = existing
        } else {
            config.project = soleProject(in: url.deletingLastPathComponent())
        }
        var simctl: Data?
        if let file = parsed.value("--simctl-json") {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError(
                    "webbridge xcode pin: --simctl-json: cannot read the file. Remedy: pass the saved output of 'xcrun simctl list devices available -j'"
                )
                return .environment
            }
            simctl = data
        }
        do {
            let result = try job.pin(runtime: runtime, deviceType: deviceType, simctlJSON: simctl, config: config)
            try result.config.encoded().write(to: url, options: .atomic)
            if let xcode = result.xcode {
                printError("webbridge xcode pin: \(result.simulator.listing); \(xcode.display); written to \(url.path)")
            } else {
                printError("webbridge xcode pin: \(result.simulator.listing); written to \(url.path)")
                printError(
                    "webbridge xcode pin: Xcode not pinned: xcodebuild is not on PATH (needs a Mac); run pin there before committing"
                )
            }
            let missing = [
                ("project", result.config.project), ("scheme", result.config.scheme),
                ("testTarget", result.config.testTarget),
            ]
            .filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty {
                printError(
                    "webbridge xcode pin: set \(missing.joined(separator: ", ")) in \(url.lastPathComponent) before 'preflight'"
                )
            }
            print(result.simulator.udid)
            return .pass
        } catch let error as XcodeRunnerError {
            printError("webbridge xcode pin: \(error)")
            return .environment
        } catch {
            printError("webbridge xcode pin: could not write \(url.path). Remedy: check the folder is writable")
            return .environment
        }
    }

    /// The only `.xcodeproj` beside the config, if there is exactly one.
    static func soleProject(in folder: URL) -> String? {
        let items = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let projects = items.filter { $0.hasSuffix(".xcodeproj") }
        return projects.count == 1 ? projects[0] : nil
    }

    /// What `preflight` and `test` take; `timeout` only `test`.
    static func jobOptions(_ parsed: ParsedOptions, timeout: TimeInterval?) -> XcodeJob.TestOptions {
        XcodeJob.TestOptions(
            resultBundle: parsed.value("--result-bundle").map { URL(fileURLWithPath: $0).standardizedFileURL },
            aloneThenSuite: parsed.has("--alone-then-suite"), compareUDID: parsed.value("--compare-udid"),
            timeout: timeout)
    }

    static func preflight(_ parsed: ParsedOptions) -> ExitStatus {
        XcodeJob.holdStopSignals()
        guard let (config, folder) = loadConfig(parsed) else { return .environment }
        let checks = job.preflight(config: config, folder: folder, options: jobOptions(parsed, timeout: nil))
        // The checks a stop signal cut short are no findings: the signal ends the command as during 'test'.
        if let signal = XcodeJob.stopSignal {
            printError("webbridge xcode preflight: stopped by \(SignalName.of(signal))")
            exit(128 + signal)
        }
        for check in checks { print(check.description) }
        let failed = checks.filter { $0.status == .failed }.count
        let notRun = checks.filter { $0.status == .notRun }.count
        print("preflight: \(failed) failed, \(notRun) not run (needs a Mac), \(checks.count - failed - notRun) ok")
        return checks.passed ? .pass : .environment
    }

    static func test(_ parsed: ParsedOptions) -> ExitStatus {
        // Held until exit: a stop signal during preflight or between runs ends the job as one during a run does.
        XcodeJob.holdStopSignals()
        let reports = parsed.values("--report").compactMap(ReportTarget.init)
        do {
            try ReportTarget.validate(reports)
            try ReportTarget.refuseInputs(reports, [("--config", configURL(parsed).path)])
        } catch {
            return testOptions.usageError(error)
        }
        guard let (config, folder) = loadConfig(parsed) else { return .environment }
        var options = jobOptions(parsed, timeout: parsed.seconds("--timeout"))
        options.retries = parsed.integer("--retries") ?? 0
        options.readsResults = !reports.isEmpty
        let outcome = job.test(config: config, folder: folder, options: options)
        for line in XcodeJobText.lines(outcome, command: "test") { printError(line) }
        var status = XcodeJobText.exitCode(outcome)
        if !reports.isEmpty, !outcome.runs.isEmpty {
            if let document = TestResultsJUnit.document(outcome) {
                let written = ReportTarget.writeAll(reports, command: "webbridge xcode test") { _ in document }
                if !written, status == 0 { status = ExitStatus.environment.rawValue }
            } else {
                for report in reports {
                    printError(
                        "webbridge xcode test: \(report.spelling): not written: the run's per-test results could not be read. Remedy: see the result bundle's error above"
                    )
                }
                if status == 0 { status = ExitStatus.environment.rawValue }
            }
        }
        exit(status)
    }

    static func rerun(_ parsed: ParsedOptions) -> Never {
        XcodeJob.holdStopSignals()
        finish(job.rerun(manifestURL: URL(fileURLWithPath: parsed.positionals[0]).standardizedFileURL), "rerun")
    }
}
