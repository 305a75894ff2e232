import Foundation

/// The record of one `xcodebuild test` run, written beside its result bundle to repeat it exactly.
public struct RunManifest: Codable, Sendable, Equatable {
    public var xcodeVersion: String
    public var xcodeBuild: String
    public var runtime: String
    public var deviceType: String?
    public var udid: String
    /// The exact argv, `xcodebuild` first.
    public var argv: [String]
    /// The folder the argv ran in (relative paths in it resolve here).
    public var workingDirectory: String
    /// ISO 8601 start and end times.
    public var start: String
    public var end: String
    public var exitCode: Int32
    public var host: String
    public var resultBundle: String
    public var buildLog: String
    /// The manifest this run repeated, for `webbridge xcode rerun`.
    public var rerunOf: String?
    /// Set when the run was stopped for outliving `--timeout` (its exit code is then 124).
    public var timedOutAfterSeconds: Double?
    /// Set when webbridge received SIGINT or SIGTERM during the run and forwarded it (exit code 130 or 143).
    public var interruptedBy: String?

    /// Reads a manifest written by `webbridge xcode test`.
    public static func load(from url: URL) throws(XcodeRunnerError) -> RunManifest {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XcodeRunnerError(
                .manifestUnreadable, field: url.path, rule: "the manifest does not exist or cannot be read",
                remedy: "pass the .manifest.json printed by 'webbridge xcode test'")
        }
        do {
            return try JSONDecoder().decode(RunManifest.self, from: data)
        } catch {
            throw XcodeRunnerError(
                .manifestUnreadable, field: url.path,
                rule: "not a run manifest (a field is missing or has the wrong type)",
                remedy: "pass the .manifest.json printed by 'webbridge xcode test'")
        }
    }

    /// Pretty JSON with sorted keys.
    public func encoded() -> Data { stableJSON(self) }

    /// The `exitCode` recorded for a run that ended this way: xcodebuild's own, or, for a stopped run (which has
    /// none), 124 when `--timeout` stopped it, as timeout(1) reports it, and 128 + the signal when webbridge was
    /// interrupted (130 for SIGINT, 143 for SIGTERM), as a shell reports it.
    public static func exitCode(of ending: JobRun.Ending) -> Int32 {
        switch ending {
        case .exited(let code): code
        case .timedOut: 124
        case .interrupted(let signal): 128 + signal
        }
    }
}

/// The argv of `xcodebuild test` for a job, built as an array and never through a shell.
public enum XcodebuildCommand {
    /// `xcodebuild test -project|-workspace … -scheme … -destination 'platform=iOS Simulator,id=<UDID>' [-only-testing:…] -resultBundlePath …`.
    public static func test(config: JobConfig, udid: String, onlyTesting: String?, resultBundle: URL) -> [String] {
        test(config: config, udid: udid, onlyTesting: onlyTesting.map { [$0] } ?? [], resultBundle: resultBundle)
    }

    /// The same with one `-only-testing:` per test (a retry of the tests that failed).
    public static func test(config: JobConfig, udid: String, onlyTesting: [String], resultBundle: URL) -> [String] {
        var argv = ["xcodebuild", "test"]
        if let workspace = config.workspace {
            argv += ["-workspace", workspace]
        } else if let project = config.project {
            argv += ["-project", project]
        }
        argv += ["-scheme", config.scheme ?? ""]
        argv += ["-destination", "platform=iOS Simulator,id=\(udid)"]
        argv += onlyTesting.map { "-only-testing:\($0)" }
        argv += ["-resultBundlePath", resultBundle.path]
        return argv
    }

    /// The argv as a shell would need it typed (for showing only; it is never run through a shell).
    public static func display(_ argv: [String]) -> String {
        argv.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=,@%+".contains($0) }
            return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// Refuses a manifest whose argv is not exactly the `xcodebuild test` run webbridge wrote for it: the same
    /// shape as `test(config:…)`, a project or workspace inside the working folder, the manifest's simulator and
    /// its result bundle. Anything else (`archive`, another tool, an extra option) is never replayed.
    public static func checkRecordedTestRun(_ manifest: RunManifest) throws(XcodeRunnerError) {
        let argv = manifest.argv
        let folder = URL(fileURLWithPath: manifest.workingDirectory).standardizedFileURL.path
        var config = JobConfig()
        var onlyTesting: [String] = []
        var inside = false
        if argv.count >= 4, argv[2] == "-project" || argv[2] == "-workspace" {
            let path = argv[3]
            let resolved =
                (path.hasPrefix("/")
                ? URL(fileURLWithPath: path) : URL(fileURLWithPath: folder).appendingPathComponent(path))
                .standardizedFileURL.path
            inside = resolved.hasPrefix(folder + "/")
            if argv[2] == "-project" { config.project = path } else { config.workspace = path }
        }
        if argv.count >= 6, argv[4] == "-scheme" { config.scheme = argv[5] }
        // One `-only-testing:` for the job's tests, one per test for a retry of the failed ones.
        for word in argv.dropFirst(8) {
            guard word.hasPrefix("-only-testing:") else { break }
            onlyTesting.append(String(word.dropFirst("-only-testing:".count)))
        }
        let expected = test(
            config: config, udid: manifest.udid, onlyTesting: onlyTesting,
            resultBundle: URL(fileURLWithPath: manifest.resultBundle))
        guard inside, argv == expected, config.scheme?.isEmpty == false else {
            throw XcodeRunnerError(
                .manifestUnreadable, field: "argv",
                rule:
                    "a rerun replays only the 'xcodebuild test' run webbridge recorded (xcodebuild test -project|-workspace <inside workingDirectory> -scheme <scheme> -destination 'platform=iOS Simulator,id=<udid>' [-only-testing:<test> …] -resultBundlePath <resultBundle>), and this argv is something else",
                remedy: "rerun a manifest written by 'webbridge xcode test', unedited")
        }
    }

    /// The argv with its `-resultBundlePath` value replaced (for a rerun into a new bundle).
    public static func replacingResultBundle(in argv: [String], with bundle: URL) -> [String]? {
        guard let index = argv.firstIndex(of: "-resultBundlePath"), index + 1 < argv.count else { return nil }
        var copy = argv
        copy[index + 1] = bundle.path
        return copy
    }
}
