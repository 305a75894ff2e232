import Foundation
import TerminalEscape

/// The outcome of one preflight check, printed as one line.
public struct PreflightCheck: Sendable, Equatable, CustomStringConvertible {
    public enum Status: String, Sendable, Equatable {
        case passed = "ok"
        case failed = "FAIL"
        case notRun = "not run (needs a Mac)"
    }

    /// Short name of the check: `config`, `scheme`, `fixture`, `result bundle`, `xcode`, `simulator`.
    public let name: String
    public let status: Status
    /// What was found.
    public let detail: String
    /// What to do about a failure (empty when passed).
    public let remedy: String

    public init(_ name: String, _ status: Status, _ detail: String, remedy: String = "") {
        self.name = name
        self.status = status
        self.detail = detail
        self.remedy = remedy
    }

    public var description: String {
        // Details hold values read from files and tools: escaped, so a value cannot forge a line of the report.
        "\(status.rawValue) \(name): \(detail.escapingControlCharacters)"
            + (remedy.isEmpty ? "" : ". Remedy: \(remedy.escapingControlCharacters)")
    }
}

/// The files a run writes: result bundle, build log and manifest, none of which may exist beforehand.
public struct RunArtifacts: Sendable, Equatable {
    public let resultBundle: URL
    public let buildLog: URL
    public let manifest: URL

    /// Log and manifest sit beside the bundle: `<name>.xcresult`, `<name>.log`, `<name>.manifest.json`.
    public init(resultBundle: URL) {
        self.resultBundle = resultBundle
        let base = resultBundle.pathExtension == "xcresult" ? resultBundle.deletingPathExtension() : resultBundle
        buildLog = base.appendingPathExtension("log")
        manifest = base.appendingPathExtension("manifest.json")
    }

    /// `<results>/<timestamp>-<UDID><suffix>.xcresult`, the default place of a run's bundle.
    public static func `default`(results: URL, udid: String, start: Date, suffix: String = "") -> RunArtifacts {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let name = "\(formatter.string(from: start))-\(udid)\(suffix).xcresult"
        return RunArtifacts(resultBundle: results.appendingPathComponent(name))
    }

    /// The same artifacts with a suffix before the extension (for the runs of `--alone-then-suite`, `--compare-udid`).
    public func suffixed(_ suffix: String) -> RunArtifacts {
        let folder = resultBundle.deletingLastPathComponent()
        let stem = resultBundle.deletingPathExtension().lastPathComponent
        return RunArtifacts(resultBundle: folder.appendingPathComponent("\(stem)\(suffix).xcresult"))
    }

    public var all: [URL] { [resultBundle, buildLog, manifest] }
}

/// Runs every preflight check and reports all of them, failures with their remedies.
public struct Preflight: Sendable {
    public let config: JobConfig
    /// The folder holding the config; relative paths resolve against it.
    public let folder: URL
    public let tools: ToolRunner

    public init(config: JobConfig, folder: URL, tools: ToolRunner) {
        self.config = config
        self.folder = folder
        self.tools = tools
    }

    /// A path shown relative to the config's folder when it lies inside it.
    func relative(_ url: URL) -> String {
        let base = folder.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    }

    /// All checks, in a fixed order; `artifacts` are the paths the run would write.
    public func run(artifacts: [RunArtifacts]) -> [PreflightCheck] {
        var checks = configChecks()
        checks += schemeChecks()
        checks.append(fixtureCheck())
        checks += artifactChecks(artifacts)
        checks.append(xcodeCheck())
        checks.append(simulatorCheck(udid: config.udid, label: "simulator"))
        return checks
    }

    func configChecks() -> [PreflightCheck] {
        let required: [(String, String?, String)] = [
            ("xcodeVersion", config.xcodeVersion, "run 'webbridge xcode pin' on the Mac"),
            ("xcodeBuild", config.xcodeBuild, "run 'webbridge xcode pin' on the Mac"),
            ("runtime", config.runtime, "run 'webbridge xcode pin --runtime … --device-type …'"),
            ("udid", config.udid, "run 'webbridge xcode pin --runtime … --device-type …'"),
            ("project", config.project, "set project to the .xcodeproj path, relative to the config"),
            ("scheme", config.scheme, "set scheme to the shared scheme's name"),
            ("testTarget", config.testTarget, "set testTarget to the unit-test target's name"),
            ("onlyTesting", config.onlyTesting, "set onlyTesting, e.g. \"\(JobConfig.defaultOnlyTesting)\""),
            ("fixture", config.fixture, "set fixture to the HTML fixture's file name"),
            ("results", config.results, "set results to a folder for result bundles and logs"),
        ]
        let pinFields: Set<String> = ["xcodeVersion", "xcodeBuild", "runtime", "udid"]
        let missing = required.filter { $0.1?.isEmpty ?? true }
        if missing.isEmpty { return [PreflightCheck("config", .passed, "every field is set")] }
        // Pinning reads the Mac's Xcode and simulators, so without them an unpinned config is "not run", not wrong.
        let mac = tools.hasMacTools
        var checks: [PreflightCheck] = []
        if !missing.contains(where: { !pinFields.contains($0.0) }) {
            checks.append(PreflightCheck("config", .passed, "every job field is set"))
        }
        return checks
            + missing.map { field in
                if field.0 == "xcodeVersion" {
                    return PreflightCheck(
                        "config", .failed,
                        "xcodeVersion is missing: a job must pin the Xcode it runs with (CI selects "
                            + "/Applications/Xcode_<xcodeVersion>.app)",
                        remedy: "run 'webbridge xcode pin' on the Mac and commit the config")
                }
                if !mac && pinFields.contains(field.0) {
                    return PreflightCheck(
                        "config", .notRun, "\(field.0) is not pinned yet ('webbridge xcode pin' runs on the Mac)")
                }
                return PreflightCheck("config", .failed, "\(field.0) is missing", remedy: field.2)
            }
    }

    func schemeChecks() -> [PreflightCheck] {
        guard let project = config.project, let scheme = config.scheme, let target = config.testTarget else {
            return [
                PreflightCheck(
                    "scheme", .failed, "not checked: needs project, scheme and testTarget",
                    remedy: "complete the config")
            ]
        }
        let file = resolve(project).appendingPathComponent("xcshareddata/xcschemes/\(scheme).xcscheme")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return [
                PreflightCheck(
                    "scheme", .failed,
                    "scheme '\(scheme)' is not shared (no \(project)/xcshareddata/xcschemes/\(scheme).xcscheme)",
                    remedy: "in Xcode: Product > Scheme > Manage Schemes…, tick Shared, commit the .xcscheme")
            ]
        }
        let parsed: SchemeFile
        do { parsed = try SchemeFile(data: data, source: file.path) } catch {
            return [PreflightCheck("scheme", .failed, error.rule, remedy: error.remedy)]
        }
        if !parsed.testPlans.isEmpty {
            // With test plans, the plan (not the scheme's Testables) decides what runs.
            return testPlanChecks(parsed.testPlans, project: resolve(project), scheme: scheme, target: target)
        }
        guard let testable = parsed.testable(named: target) else {
            return [
                PreflightCheck(
                    "scheme", .failed, "the TestAction of scheme '\(scheme)' has no testable '\(target)'",
                    remedy: "edit the scheme's Test action and add \(target) to its testables")
            ]
        }
        var checks: [PreflightCheck] = []
        if testable.skipped {
            checks.append(
                PreflightCheck(
                    "scheme", .failed, "testable '\(target)' is skipped in scheme '\(scheme)' (skipped = \"YES\")",
                    remedy: "enable \(target) in the scheme's Test action"))
        }
        checks += skippedChecks(testable.skippedTests, in: "scheme '\(scheme)'", target: target)
        if checks.isEmpty {
            checks.append(PreflightCheck("scheme", .passed, "'\(scheme)' is shared and tests '\(target)'"))
        }
        return checks
    }

    /// Failures for skipped-test entries that cover the `onlyTesting` tests.
    func skippedChecks(_ skippedTests: [String], in owner: String, target: String) -> [PreflightCheck] {
        guard let only = config.onlyTesting else { return [] }
        let inside = only.hasPrefix(target + "/") ? String(only.dropFirst(target.count + 1)) : only
        return skippedTests.filter { $0 == inside || inside.hasPrefix($0 + "/") }.map { skipped in
            PreflightCheck(
                "scheme", .failed, "\(owner) skips '\(skipped)', which holds \(only)",
                remedy: "remove \(skipped) from the skipped tests of \(owner)")
        }
    }

    func testPlanChecks(_ references: [String], project: URL, scheme: String, target: String) -> [PreflightCheck] {
        var missing: [String] = []
        for reference in references {
            let url = TestPlanFile.url(forReference: reference, projectFolder: project)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                missing.append(url.lastPathComponent)
                continue
            }
            let plan: TestPlanFile
            do { plan = try TestPlanFile(data: data, source: url.lastPathComponent) } catch {
                return [
                    PreflightCheck("scheme", .failed, "\(url.lastPathComponent): \(error.rule)", remedy: error.remedy)
                ]
            }
            guard let entry = plan.targets.first(where: { $0.name == target }) else { continue }
            if !entry.enabled {
                return [
                    PreflightCheck(
                        "scheme", .failed,
                        "test plan \(url.lastPathComponent) of scheme '\(scheme)' has '\(target)' disabled",
                        remedy: "enable \(target) in the test plan")
                ]
            }
            let skipped = skippedChecks(entry.skippedTests, in: "test plan \(url.lastPathComponent)", target: target)
            if !skipped.isEmpty { return skipped }
            return [
                PreflightCheck(
                    "scheme", .passed,
                    "'\(scheme)' is shared and its test plan \(url.lastPathComponent) tests '\(target)'")
            ]
        }
        let unread = missing.isEmpty ? "" : " (not found: \(missing.joined(separator: ", ")))"
        return [
            PreflightCheck(
                "scheme", .failed, "no test plan of scheme '\(scheme)' lists '\(target)'\(unread)",
                remedy: "add \(target) to the scheme's test plan, and commit the .xctestplan")
        ]
    }

    func fixtureCheck() -> PreflightCheck {
        guard let project = config.project, let target = config.testTarget, let fixture = config.fixture else {
            return PreflightCheck(
                "fixture", .failed, "not checked: needs project, testTarget and fixture", remedy: "complete the config")
        }
        let parsed: ProjectFile
        do { parsed = try ProjectFile(projectFolder: resolve(project)) } catch {
            return PreflightCheck("fixture", .failed, "\(project): \(error.rule)", remedy: error.remedy)
        }
        switch parsed.membership(of: fixture, inTarget: target) {
        case nil:
            return PreflightCheck(
                "fixture", .failed,
                "no target '\(target)' in \(project) (targets: \(parsed.targetNames.joined(separator: ", ")))",
                remedy: "set testTarget to the unit-test target's name")
        case .inTargetResources?:
            // The reference alone isn't enough: a file missing on disk fails the build ("Build input file cannot be found").
            let locations = parsed.resourceLocations(of: fixture, inTarget: target)
            let missing = locations.compactMap { $0 }.filter { !FileManager.default.fileExists(atPath: $0.path) }
            if !locations.isEmpty && missing.count == locations.count {
                let shown = missing.map { relative($0) }.joined(separator: ", ")
                return PreflightCheck(
                    "fixture", .failed,
                    "\(fixture) is in the Resources phase of '\(target)' but missing on disk (\(shown))",
                    remedy: "add the file at that path, or fix its location in Xcode's File inspector")
            }
            return PreflightCheck("fixture", .passed, "\(fixture) is in the Resources phase of '\(target)'")
        case .inProjectOnly(let holders)?:
            let elsewhere = holders.isEmpty ? "" : " (it is a resource of \(holders.joined(separator: ", ")))"
            return PreflightCheck(
                "fixture", .failed, "\(fixture) is in the project but not in the test target's resources\(elsewhere)",
                remedy: "tick \(target) under Target Membership of \(fixture), so it lands in the test bundle")
        case .notVisible(let folders)?:
            return PreflightCheck(
                "fixture", .failed,
                "\(fixture) is not in the project as a file; the resources of '\(target)' hold folders (\(folders.joined(separator: ", "))) that are not on disk to look into",
                remedy: "check out the folders, or add \(fixture) to \(target) as a file")
        case .notInProject?:
            return PreflightCheck(
                "fixture", .failed, "\(fixture) is not in the project",
                remedy: "add \(fixture) to the project with target membership \(target)")
        }
    }

    func artifactChecks(_ artifacts: [RunArtifacts]) -> [PreflightCheck] {
        var checks: [PreflightCheck] = []
        for url in artifacts.flatMap(\.all) where FileManager.default.fileExists(atPath: url.path) {
            let what = url.pathExtension == "xcresult" ? "result bundle" : "run artifact"
            checks.append(
                PreflightCheck(
                    "result bundle", .failed, "\(what) \(url.path) already exists and is never overwritten",
                    remedy: "choose another --result-bundle path, or move the old one away yourself"))
        }
        if checks.isEmpty {
            checks.append(
                PreflightCheck(
                    "result bundle", .passed,
                    "\(artifacts.first?.resultBundle.lastPathComponent ?? "bundle") does not exist yet"))
        }
        return checks
    }

    func xcodeCheck() -> PreflightCheck {
        guard tools.locate("xcodebuild") != nil else {
            return PreflightCheck("xcode", .notRun, "xcodebuild is not on PATH")
        }
        let running: XcodeVersion
        do {
            running = try XcodeVersion(parsing: tools.capture("xcodebuild", ["-version"]).stdout)
        } catch {
            return PreflightCheck("xcode", .failed, error.rule, remedy: error.remedy)
        }
        guard let version = config.xcodeVersion, let build = config.xcodeBuild else {
            return PreflightCheck(
                "xcode", .failed, "no Xcode pinned; running \(running.display)",
                remedy: "run 'webbridge xcode pin' on the Mac")
        }
        let pinned = XcodeVersion(version: version, build: build)
        if running == pinned { return PreflightCheck("xcode", .passed, "running \(running.display), as pinned") }
        return PreflightCheck(
            "xcode", .failed, "running \(running.display), pinned \(pinned.display)",
            remedy:
                "select the pinned Xcode ('sudo xcode-select -s /Applications/Xcode_\(version).app') or pin again deliberately"
        )
    }

    /// Checks that `udid` exists, is available and has the pinned runtime.
    public func simulatorCheck(udid: String?, label: String) -> PreflightCheck {
        guard tools.locate("xcrun") != nil else {
            return PreflightCheck(label, .notRun, "xcrun is not on PATH")
        }
        guard let udid, let runtime = config.runtime else {
            return PreflightCheck(label, .failed, "no simulator pinned", remedy: "run 'webbridge xcode pin'")
        }
        let list: SimulatorList
        do {
            let output = try tools.capture("xcrun", ["simctl", "list", "devices", "-j"])
            guard output.status == 0 else {
                return PreflightCheck(
                    label, .failed, "xcrun simctl exited with \(output.status)",
                    remedy: "check 'xcrun simctl list devices' by hand")
            }
            list = try SimulatorList(json: Data(output.stdout.utf8), source: "xcrun simctl list devices -j")
        } catch {
            return PreflightCheck(label, .failed, error.rule, remedy: error.remedy)
        }
        let found: Simulator?
        do { found = try list.soleSimulator(udid: udid) } catch {
            return PreflightCheck(label, .failed, error.rule, remedy: error.remedy)
        }
        guard let simulator = found else {
            return PreflightCheck(
                label, .failed, "simulator \(udid) no longer exists",
                remedy: "pin again: 'webbridge xcode pin --runtime \(runtime) --device-type <type>'")
        }
        if !simulator.isAvailable {
            return PreflightCheck(
                label, .failed, "simulator \(udid) exists but is unavailable (runtime missing?)",
                remedy: "install the runtime (Xcode > Settings > Components) or pin another simulator")
        }
        if !list.runtime(runtime, matches: simulator) {
            return PreflightCheck(
                label, .failed, "simulator \(udid) has runtime \(simulator.runtime), pinned \(runtime)",
                remedy: "pin again for the pinned runtime")
        }
        return PreflightCheck(label, .passed, "\(udid) exists, is available, runtime \(runtime)")
    }
}

extension Array where Element == PreflightCheck {
    /// Whether nothing failed (checks that need a Mac may be not run).
    public var passed: Bool { !contains { $0.status == .failed } }
}
