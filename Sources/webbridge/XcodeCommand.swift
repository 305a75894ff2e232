import Foundation
import XcodeRunner

/// `webbridge xcode pin|preflight|test|rerun`: a thin layer over `XcodeRunner`.
enum XcodeCommand {
    static let usage = """
        USAGE: webbridge xcode <pin|preflight|test|rerun> [options]

        Pins, checks and runs the bridge tests on a cloud Mac, keeping the evidence.

        SUBCOMMANDS:
          pin --runtime R --device-type D [--simctl-json FILE] [--config FILE]
                      Pick exactly one available simulator and write its UDID, the runtime and
                      'xcodebuild -version' into the job config; prints the UDID.
          preflight [--config FILE] [--result-bundle PATH] [--alone-then-suite | --compare-udid UDID]
                      Run every check and report all failures, one line each with the remedy.
          test [--config FILE] [--result-bundle PATH] [--alone-then-suite | --compare-udid UDID]
               [--timeout SECONDS]
                      Preflight, then 'xcodebuild test' as an argv in its own process group; keeps
                      .xcresult, build log and manifest.json; exits with xcodebuild's exit code.
          rerun MANIFEST
                      Repeat the recorded 'xcodebuild test' run (nothing else); refuses if the Xcode
                      or the simulator differ.

        The job config defaults to ./\(JobConfig.defaultFileName).
        EXIT CODES: 0 pass, 1 outcomes differ, 2 usage (the command line itself), 3 environment or preflight
        failure (including a missing or unreadable config, manifest or --simctl-json file); 124 for
        --timeout; 130/143 after SIGINT/SIGTERM; 'test' and 'rerun' otherwise exit with xcodebuild's code.
        """

    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        guard let name = argv.first else {
            printError("webbridge xcode: missing subcommand")
            printError("Usage: webbridge xcode <pin|preflight|test|rerun> [options]; see 'webbridge xcode --help'.")
            return .usage
        }
        let rest = argv.dropFirst()
        do {
            switch name {
            case "--help", "-h":
                print(usage)
                return .pass
            case "pin": return try pin(rest)
            case "preflight": return try preflight(rest)
            case "test": return try test(rest)
            case "rerun": return try rerun(rest)
            default: throw UsageError("unknown subcommand '\(name)'")
            }
        } catch {
            printError("webbridge xcode: \(error)")
            printError("Usage: webbridge xcode <pin|preflight|test|rerun> [options]; see 'webbridge xcode --help'.")
            return .usage
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

    static func configURL(_ arguments: Arguments) -> URL {
        URL(fileURLWithPath: arguments.value("--config") ?? JobConfig.defaultFileName).standardizedFileURL
    }

    static func loadConfig(_ url: URL) -> JobConfig? {
        do { return try JobConfig.load(from: url) } catch {
            printError("webbridge xcode: \(error)")
            return nil
        }
    }

    static func pin(_ argv: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(argv, options: ["--runtime", "--device-type", "--simctl-json", "--config"])
        if arguments.wantsHelp {
            print("USAGE: webbridge xcode pin --runtime R --device-type D [--simctl-json FILE] [--config FILE]")
            print(
                "  R: runtime identifier (com.apple.CoreSimulator.SimRuntime.iOS-18-2) or exact display form (iOS 18.2)"
            )
            print("  D: device type identifier or exact name ('iPhone 15' never matches 'iPhone 15 Pro')")
            return .pass
        }
        try arguments.expectPositionals(atMost: 0)
        guard let runtime = arguments.value("--runtime") else { throw UsageError("pin needs --runtime") }
        guard let deviceType = arguments.value("--device-type") else { throw UsageError("pin needs --device-type") }
        let url = configURL(arguments)
        var config = JobConfig()
        if FileManager.default.fileExists(atPath: url.path) {
            guard let existing = loadConfig(url) else { return .environment }
            config = existing
        } else {
            config.project = soleProject(in: url.deletingLastPathComponent())
        }
        var simctl: Data?
        if let file = arguments.value("--simctl-json") {
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

    static func testOptions(_ arguments: Arguments) throws(UsageError) -> XcodeJob.TestOptions {
        let options = XcodeJob.TestOptions(
            resultBundle: arguments.value("--result-bundle").map { URL(fileURLWithPath: $0).standardizedFileURL },
            aloneThenSuite: arguments.has("--alone-then-suite"),
            compareUDID: arguments.value("--compare-udid"),
            timeout: try timeout(arguments))
        if let second = options.compareUDID, !UDID.isValid(second) {
            throw UsageError("--compare-udid: \(UDID.rule); give one as 'xcrun simctl list devices' shows it")
        }
        if options.aloneThenSuite && options.compareUDID != nil {
            throw UsageError("--alone-then-suite and --compare-udid are separate runs; give one")
        }
        return options
    }

    /// `--timeout`, bounded (0.001 s to a week) so that no deadline computed from it can overflow.
    static func timeout(_ arguments: Arguments) throws(UsageError) -> TimeInterval? {
        guard let text = arguments.value("--timeout") else { return nil }
        guard let seconds = Double(text), seconds >= 0.001, seconds <= ToolRunner.longestTimeout else {
            throw UsageError("--timeout must be a number of seconds from 0.001 to 604800 (one week)")
        }
        return seconds
    }

    static func preflight(_ argv: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            argv, options: ["--config", "--result-bundle", "--compare-udid"], flags: ["--alone-then-suite"])
        if arguments.wantsHelp {
            print(
                "USAGE: webbridge xcode preflight [--config FILE] [--result-bundle PATH] [--alone-then-suite | --compare-udid UDID]"
            )
            print(
                "  Reports every check: ok, FAIL (with the remedy), or 'not run (needs a Mac)'. Exit 0 when nothing failed, 3 otherwise."
            )
            print("  Takes the options of 'test' so it checks the same result bundles and the second simulator.")
            return .pass
        }
        try arguments.expectPositionals(atMost: 0)
        let options = try testOptions(arguments)
        let url = configURL(arguments)
        guard let config = loadConfig(url) else { return .environment }
        let checks = job.preflight(config: config, folder: url.deletingLastPathComponent(), options: options)
        for check in checks { print(check.description) }
        let failed = checks.filter { $0.status == .failed }.count
        let notRun = checks.filter { $0.status == .notRun }.count
        print("preflight: \(failed) failed, \(notRun) not run (needs a Mac), \(checks.count - failed - notRun) ok")
        return checks.passed ? .pass : .environment
    }

    static func test(_ argv: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            argv, options: ["--config", "--result-bundle", "--compare-udid", "--timeout"], flags: ["--alone-then-suite"]
        )
        if arguments.wantsHelp {
            print(
                "USAGE: webbridge xcode test [--config FILE] [--result-bundle PATH] [--alone-then-suite | --compare-udid UDID] [--timeout SECONDS]"
            )
            print("  Exits with xcodebuild's exit code; 1 when the compared runs' outcomes differ; 3 when refused.")
            print(
                "  --timeout SECONDS (0.001 to 604800) stops an xcodebuild run that outlives it: SIGTERM to its process group, SIGKILL 30 s later; keeps its evidence and exits 124."
            )
            print(
                "  SIGINT or SIGTERM is forwarded to xcodebuild's process group (a second one kills it); the evidence is kept and the exit is 130 or 143."
            )
            return .pass
        }
        try arguments.expectPositionals(atMost: 0)
        let options = try testOptions(arguments)
        let url = configURL(arguments)
        guard let config = loadConfig(url) else { return .environment }
        finish(job.test(config: config, folder: url.deletingLastPathComponent(), options: options), "test")
    }

    static func rerun(_ argv: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(argv)
        if arguments.wantsHelp {
            print("USAGE: webbridge xcode rerun MANIFEST")
            print(
                "  Repeats the run recorded in MANIFEST into a new result bundle; refuses if Xcode or the simulator differ."
            )
            return .pass
        }
        try arguments.expectPositionals(atMost: 1)
        guard let path = arguments.positionals.first else { throw UsageError("rerun needs the manifest path") }
        finish(job.rerun(manifestURL: URL(fileURLWithPath: path).standardizedFileURL), "rerun")
    }
}
