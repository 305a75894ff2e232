import Foundation
import TerminalEscape
import XCTest

@testable import XcodeRunner

final class XcodeJobTests: XCTestCase {
    let pinnedUDID = "218E4ECD-F530-413F-9A8F-65951D3C4DBF"
    /// iPhone 15 Pro on the same runtime (iOS 17.5) in the Xcode 16 RC listing.
    let secondUDID = "27A053BB-9E69-449A-9094-5575898DD6DF"
    let xcode16Version = Realdata.root.appendingPathComponent("xcodebuild-version_xcode16.2_DOCUMENTED-FORMAT.txt")
    let passingLog = Realdata.url("xcodebuild/verbum_xcode26.4_test-succeeded_sim-id.txt")
    let failingLog = Realdata.url("xcodebuild/fastlane_xcode26_testing_failure.log")
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func job(_ replay: Replay, _ console: RecordingConsole) -> XcodeJob {
        XcodeJob(tools: replay.tools, console: console.console, now: { [start] in start })
    }

    /// ECMASwift pinned to Xcode 16.2, running the RandomStuffTests class (whose real outcomes the bundles replay).
    func xcode16Job() throws -> JobFolder {
        try JobFolder.ecmaswift(
            self,
            edit: {
                $0.xcodeVersion = "16.2"
                $0.xcodeBuild = "16C5032a"
                $0.onlyTesting = "RandomStuffTests/RandomStuffTests"
            })
    }

    func rules16(test: [ReplayRule], results: [ReplayRule] = []) -> [ReplayRule] {
        [
            ReplayRule("xcodebuild", ["-version"], output: xcode16Version),
            ReplayRule(
                "xcrun", ["simctl", "list", "devices"],
                output: Realdata.url("simctl/openbakery_simctl-list-xcode16.json")),
        ] + test + results
    }

    func bundles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path).sorted()
    }

    // MARK: pin

    func testPinWritesTheUDIDRuntimeAndRunningXcodeFromXcrun() throws {
        let replay = try Replay(
            self,
            rules: [
                ReplayRule("xcodebuild", ["-version"], output: xcode13Version),
                ReplayRule(
                    "xcrun", ["simctl", "list", "devices", "available", "-j"],
                    output: Realdata.url("simctl/openbakery_simctl-list-xcode16.json")),
            ])
        let result = try job(replay, RecordingConsole()).pin(
            runtime: "iOS 17.5", deviceType: "iPhone 15", simctlJSON: nil, config: JobConfig())
        XCTAssertEqual(result.config.udid, pinnedUDID)
        XCTAssertEqual(result.config.runtime, "com.apple.CoreSimulator.SimRuntime.iOS-17-5")
        XCTAssertEqual(result.config.xcodeVersion, "13.2.1")
        XCTAssertEqual(result.config.xcodeBuild, "13C100")
        XCTAssertEqual(
            try replay.calls(),
            [["xcrun", "simctl", "list", "devices", "available", "-j"], ["xcodebuild", "-version"]])
    }

    func testPinWithoutXcodebuildPinsTheSimulatorOnly() throws {
        let tools = ToolRunner(environment: ["PATH": "/usr/bin:/bin"])
        let result = try XcodeJob(tools: tools, console: RecordingConsole().console).pin(
            runtime: "iOS 18.0", deviceType: "iPhone 15",
            simctlJSON: Realdata.data("simctl/openbakery_simctl-list-xcode16.json"), config: JobConfig())
        XCTAssertEqual(result.config.udid, "547F6011-D095-471A-8FB1-0BE2C0BA00B4")
        XCTAssertNil(result.xcode)
        XCTAssertNil(result.config.xcodeVersion)
    }

    func testPinRefusesAUDIDThatIsNotAUUIDNamingTheFieldAndEscapingIt() throws {
        for hostile in ["../../../../outside", "\(pinnedUDID),arch=x86_64", "\(pinnedUDID)\n\u{1B}[32mok simulator"] {
            let listing = try editedListing {
                replaceUDID(in: &$0, runtime: "iOS-17-5", name: "iPhone 15", with: hostile)
            }
            let tools = ToolRunner(environment: ["PATH": "/usr/bin:/bin"])
            XCTAssertThrowsError(
                try XcodeJob(tools: tools, console: RecordingConsole().console).pin(
                    runtime: "iOS 17.5", deviceType: "iPhone 15", simctlJSON: listing, config: JobConfig())
            ) { error in
                let error = error as? XcodeRunnerError
                XCTAssertEqual(error?.code, .simctlUnreadable, hostile)
                XCTAssertEqual(error?.field, "udid (--simctl-json)", hostile)
                XCTAssertTrue(error?.rule.contains("8-4-4-4-12 hexadecimal digits") == true, hostile)
                XCTAssertFalse(
                    error?.description.contains(where: { $0.isNewline || $0 == "\u{1B}" }) ?? true,
                    "a control character from the listing reached the message")
            }
        }
    }

    func testPinRefusesAUDIDListedUnderTwoRuntimesWithARemedyThatWorks() throws {
        // The pinned iPhone 15 (iOS 17.5) also listed under iOS 17.4: simctl's device set is inconsistent.
        let listing = try editedListing {
            replaceUDID(in: &$0, runtime: "iOS-17-4", name: "iPhone 15", with: pinnedUDID)
        }
        let tools = ToolRunner(environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertThrowsError(
            try XcodeJob(tools: tools, console: RecordingConsole().console).pin(
                runtime: "iOS 17.5", deviceType: "iPhone 15", simctlJSON: listing, config: JobConfig())
        ) { error in
            let error = error as? XcodeRunnerError
            XCTAssertEqual(error?.code, .duplicateUDID)
            XCTAssertEqual(
                error?.rule,
                "UDID \(pinnedUDID) is listed under 2 runtimes (com.apple.CoreSimulator.SimRuntime.iOS-17-4, com.apple.CoreSimulator.SimRuntime.iOS-17-5)"
            )
            XCTAssertTrue(error?.remedy.contains("xcrun simctl delete \(pinnedUDID)") == true)
            XCTAssertFalse(error?.remedy.contains("pin again") ?? true, "pinning again picks the same UDID")
        }
    }

    // MARK: test

    func testAPassingRunUsesTheExactArgvAndKeepsItsThreeArtifacts() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        let console = RecordingConsole()
        let outcome = job(replay, console).test(config: folder.config, folder: folder.folder, options: .init())
        XCTAssertEqual(outcome.verdict, .passed, "\(outcome)")
        let stem = "20270115T080000Z-\(pinnedUDID)"
        XCTAssertEqual(try bundles(in: folder.folder), [stem + ".log", stem + ".manifest.json", stem + ".xcresult"])
        let bundle = folder.folder.appendingPathComponent("results/\(stem).xcresult").path
        XCTAssertEqual(outcome.runs.map(\.artifacts.resultBundle.path), [bundle])
        XCTAssertEqual(outcome.runs.map(\.ending), [.exited(0)])
        XCTAssertNil(outcome.comparison)
        let test = try XCTUnwrap(try replay.calls().first { $0.count > 1 && $0[1] == "test" })
        XCTAssertEqual(
            test,
            [
                "xcodebuild", "test", "-project", "App.xcodeproj", "-scheme", "ECMASwift",
                "-destination", "platform=iOS Simulator,id=\(pinnedUDID)",
                "-only-testing:RandomStuffTests/RandomStuffTests",
                "-resultBundlePath", bundle,
            ])
        // The output reached the console and the build log byte for byte.
        let log = try String(contentsOf: folder.folder.appendingPathComponent("results/\(stem).log"), encoding: .utf8)
        XCTAssertEqual(log, try Realdata.text("xcodebuild/verbum_xcode26.4_test-succeeded_sim-id.txt"))
        XCTAssertEqual(console.output, log)
        XCTAssertEqual(console.progress.first, "building")
        XCTAssertTrue(
            console.progress.contains("testing: 4 passed, 0 failed"), console.progress.joined(separator: "\n"))
    }

    func testAFailingRunKeepsBundleLogAndManifestAndReturnsXcodebuildsExitCode() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: failingLog, exit: 65, createBundle: true)])
        )
        let console = RecordingConsole()
        let outcome = job(replay, console).test(config: folder.config, folder: folder.folder, options: .init())
        XCTAssertEqual(outcome.verdict, .testsFailed(.xcodebuildFailed(exitCode: 65)))
        let stem = "20270115T080000Z-\(pinnedUDID)"
        XCTAssertEqual(try bundles(in: folder.folder), [stem + ".log", stem + ".manifest.json", stem + ".xcresult"])
        let manifest = try RunManifest.load(from: folder.folder.appendingPathComponent("results/\(stem).manifest.json"))
        XCTAssertEqual(manifest.exitCode, 65)
        XCTAssertEqual(manifest.xcodeVersion, "16.2")
        XCTAssertEqual(manifest.xcodeBuild, "16C5032a")
        XCTAssertEqual(manifest.runtime, "com.apple.CoreSimulator.SimRuntime.iOS-17-5")
        XCTAssertEqual(manifest.deviceType, "iPhone 15")
        XCTAssertEqual(manifest.udid, pinnedUDID)
        XCTAssertEqual(manifest.argv, try replay.calls().first { $0.count > 1 && $0[1] == "test" })
        XCTAssertEqual(manifest.start, "2027-01-15T08:00:00Z")
        XCTAssertFalse(manifest.host.isEmpty)
        // The outcome says where the evidence is, and carries what was recorded.
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertEqual(run.artifacts.manifest, folder.folder.appendingPathComponent("results/\(stem).manifest.json"))
        XCTAssertEqual(run.manifest, manifest)
        XCTAssertEqual(run.ending, .exited(65))
        XCTAssertEqual(run.label, pinnedUDID)
        XCTAssertEqual(console.started, [manifest.argv])
        XCTAssertTrue(
            XcodebuildCommand.display(manifest.argv).contains("-destination 'platform=iOS Simulator,id=\(pinnedUDID)'"),
            "the shown command must be copyable into a shell")
    }

    func testARunThatOutlivesItsTimeoutIsStoppedKeepsItsEvidenceAndExits124() throws {
        let folder = try xcode16Job()
        // The recorded start of a real run, then a hang: a simulator that never boots.
        let replay = try Replay(
            self,
            rules: rules16(test: [
                ReplayRule("xcodebuild", ["test"], output: failingLog, createBundle: true, hang: true)
            ])
        )
        let console = RecordingConsole()
        let started = Date()
        let outcome = job(replay, console).test(
            config: folder.config, folder: folder.folder, options: .init(timeout: 1))
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "the stopped run must not wait for its grace period")
        XCTAssertEqual(outcome.verdict, .timedOut(after: 1))
        XCTAssertEqual(outcome.runs.map(\.ending), [.timedOut(after: 1)])
        let stem = "20270115T080000Z-\(pinnedUDID)"
        XCTAssertEqual(try bundles(in: folder.folder), [stem + ".log", stem + ".manifest.json", stem + ".xcresult"])
        let manifest = try RunManifest.load(from: folder.folder.appendingPathComponent("results/\(stem).manifest.json"))
        XCTAssertEqual(manifest.exitCode, 124)
        XCTAssertEqual(manifest.timedOutAfterSeconds, 1)
        let log = try Data(contentsOf: folder.folder.appendingPathComponent("results/\(stem).log"))
        XCTAssertEqual(log, try Data(contentsOf: failingLog), "the output before the stop is kept in the build log")
    }

    func testARunIgnoringSIGTERMWithAChildSharingItsOutputIsStoppedAsAGroupAndKeepsItsEvidence() throws {
        let folder = try xcode16Job()
        // The recorded start of a real run, then a hang in a stand-in that ignores SIGTERM and whose child holds stdout.
        let replay = try Replay(
            self,
            rules: rules16(test: [
                ReplayRule(
                    "xcodebuild", ["test"], output: failingLog, createBundle: true, hang: true, ignoreSignals: true,
                    child: true)
            ])
        )
        let console = RecordingConsole()
        let job = job(replay, console)
        let (config, where_) = (folder.config, folder.folder)
        let outcome = bounded(90) { job.test(config: config, folder: where_, options: .init(timeout: 1)) }
        let pids = try replay.pids()
        XCTAssertEqual(
            outcome?.verdict, .timedOut(after: 1),
            "xcode test did not time out within 90 s of its 1 s timeout: \(console.progress.last ?? "")")
        XCTAssertNotNil(pids["child"], "the stand-in did not start its child")
        let left = stillRunning(Array(pids.values))
        XCTAssertEqual(left, [], "processes of xcodebuild's group outlived the run: \(pids)")
        for pid in left { kill(pid, SIGKILL) }
        let stem = "20270115T080000Z-\(pinnedUDID)"
        let manifest = try RunManifest.load(from: folder.folder.appendingPathComponent("results/\(stem).manifest.json"))
        XCTAssertEqual(manifest.exitCode, 124)
        let log = try Data(contentsOf: folder.folder.appendingPathComponent("results/\(stem).log"))
        XCTAssertTrue(log.starts(with: try Data(contentsOf: failingLog)), "the output before the stop is kept")
    }

    func testAUDIDThatIsNotAUUIDIsRefusedBeforeAnyPathOrDestinationIsBuilt() throws {
        let hostile = ["../../../../outside", "\(pinnedUDID),arch=x86_64", "\(pinnedUDID)\n\u{1B}[32mok"]
        for (pinned, second) in hostile.map({ ($0, nil as String?) }) + hostile.map({ (pinnedUDID, $0) }) {
            let folder = try xcode16Job()
            var config = folder.config
            config.udid = pinned
            let replay = try Replay(
                self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)])
            )
            let console = RecordingConsole()
            let outcome = job(replay, console).test(
                config: config, folder: folder.folder, options: .init(compareUDID: second))
            let label = (second ?? pinned).escapingControlCharacters
            XCTAssertTrue(
                outcome.preflightFailures.contains {
                    $0.contains("udid: a UDID must be a UUID (8-4-4-4-12 hexadecimal digits)")
                }, "\(label): \(outcome)")
            XCTAssertEqual(outcome.runs, [], label)
            XCTAssertEqual(try replay.calls(), [], "\(label): a tool ran with a UDID that is not a UUID")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: folder.folder.path).sorted(),
                ["App.xcodeproj", "ECMASwiftTests"], "\(label): something was written")
        }
    }

    func testTwoRunsInTheSameSecondKeepTheirOwnBundles() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        // The clock of `job` never moves: both runs start in the same second.
        XCTAssertEqual(
            job(replay, RecordingConsole()).test(config: folder.config, folder: folder.folder, options: .init())
                .verdict,
            .passed)
        let stem = "20270115T080000Z-\(pinnedUDID)"
        let firstManifest = folder.folder.appendingPathComponent("results/\(stem).manifest.json")
        let recorded = try Data(contentsOf: firstManifest)
        let second = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init())
        XCTAssertEqual(second.verdict, .passed, "\(second)")
        XCTAssertEqual(
            second.runs.map(\.artifacts.manifest.lastPathComponent), [stem + "-2.manifest.json"],
            "the outcome names the second run's own files")
        XCTAssertEqual(
            Set(try bundles(in: folder.folder)),
            Set(["", "-2"].flatMap { n in [".log", ".manifest.json", ".xcresult"].map { stem + n + $0 } }))
        XCTAssertEqual(try Data(contentsOf: firstManifest), recorded, "the first run's manifest changed")
        let paths = try replay.calls().filter { $0.count > 1 && $0[1] == "test" }.compactMap(\.last)
        XCTAssertEqual(paths.count, 2)
        XCTAssertEqual(Set(paths).count, 2, "both runs were given the same result bundle")
    }

    func testOtherExitCodesPassThroughUnchanged() throws {
        let folder = try xcode16Job()
        let log = Realdata.url("xcodebuild/xctestcli_xcode26_unable-to-find-device.log")
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: log, exit: 70, stderr: true)]))
        let console = RecordingConsole()
        XCTAssertEqual(
            job(replay, console).test(config: folder.config, folder: folder.folder, options: .init()).verdict,
            .testsFailed(.xcodebuildFailed(exitCode: 70)))
        // No bundle was written by xcodebuild; the log and manifest are still kept.
        XCTAssertEqual(try bundles(in: folder.folder).map { ($0 as NSString).pathExtension }, ["log", "json"])
        XCTAssertTrue(console.output.contains("Unable to find a device matching the provided destination specifier"))
    }

    func testAnExistingResultBundleIsRefusedBeforeAnythingRunsAndLeftUntouched() throws {
        let folder = try xcode16Job()
        let bundle = folder.folder.appendingPathComponent("kept.xcresult")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let marker = bundle.appendingPathComponent("Info.plist")
        try Data("user's evidence".utf8).write(to: marker)
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(resultBundle: bundle))
        XCTAssertFalse(
            try replay.calls().contains { $0.count > 1 && $0[1] == "test" },
            "xcodebuild test ran despite an existing bundle")
        XCTAssertEqual(try String(contentsOf: marker, encoding: .utf8), "user's evidence")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: bundle.path), ["Info.plist"])
        XCTAssertTrue(outcome.preflightFailures.contains { $0.contains("kept.xcresult already exists") }, "\(outcome)")
    }

    func testAnExistingBuildLogBesideANewBundleIsAlsoRefused() throws {
        let folder = try xcode16Job()
        let bundle = folder.folder.appendingPathComponent("run.xcresult")
        try Data("older log".utf8).write(to: folder.folder.appendingPathComponent("run.log"))
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(resultBundle: bundle))
        XCTAssertTrue(outcome.preflightFailures.contains { $0.contains("run.log") }, "\(outcome)")
        XCTAssertEqual(
            try String(contentsOf: folder.folder.appendingPathComponent("run.log"), encoding: .utf8), "older log")
    }

    func testEvenPastPreflightAnExistingLogIsNeverTruncated() throws {
        // A log appearing between preflight and the run (another job in the same folder) is refused, not overwritten.
        let folder = try makeTemporaryFolder(self)
        let artifacts = RunArtifacts(resultBundle: folder.appendingPathComponent("race.xcresult"))
        try Data("another job's log".utf8).write(to: artifacts.buildLog)
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        XCTAssertThrowsError(
            try job(replay, RecordingConsole()).execute(
                label: "u", argv: ["xcodebuild", "test"], in: folder, artifacts: artifacts,
                xcode: XcodeVersion(version: "16.2", build: "16C5032a"),
                runtime: "r", deviceType: nil, udid: "u", rerunOf: nil)
        ) { XCTAssertEqual(($0 as? XcodeRunnerError)?.code, .artifactExists) }
        XCTAssertEqual(try String(contentsOf: artifacts.buildLog, encoding: .utf8), "another job's log")
        XCTAssertEqual(try replay.calls(), [])
    }

    // MARK: alone then suite

    func testAloneThenSuiteFailsWhenTheOutcomesDiffer() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(
                test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)],
                results: [
                    ReplayRule(
                        "xcrun", ["test-results", "tests", "-alone.xcresult"],
                        output: Realdata.url("xcresult/oxr_tests_failed_expectedfailure_skipped.json")),
                    ReplayRule(
                        "xcrun", ["test-results", "tests", "-suite.xcresult"],
                        output: Realdata.url("xcresult/oxr_tests_ui_and_perf.json")),
                ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(aloneThenSuite: true))
        XCTAssertEqual(outcome.verdict, .testsFailed(.outcomesDiffer))
        XCTAssertEqual(outcome.runs.map(\.label), ["alone", "suite"])
        XCTAssertTrue(
            outcome.differences.contains("RandomStuffTests/testFoo(): alone failed, suite did not run"), "\(outcome)")
        let tests = try replay.calls().filter { $0.count > 1 && $0[1] == "test" }
        XCTAssertEqual(tests.count, 2)
        XCTAssertTrue(tests[0].contains("-only-testing:RandomStuffTests/RandomStuffTests"))
        XCTAssertFalse(tests[1].contains { $0.hasPrefix("-only-testing") }, "the suite run must run the whole scheme")
        let stem = "20270115T080000Z-\(pinnedUDID)"
        XCTAssertTrue(
            try replay.calls().contains([
                "xcrun", "xcresulttool", "get", "test-results", "tests", "--path",
                folder.folder.appendingPathComponent("results/\(stem)-alone.xcresult").path, "--format", "json",
            ]))
        XCTAssertEqual(
            try bundles(in: folder.folder).filter { $0.hasSuffix(".xcresult") },
            [stem + "-alone.xcresult", stem + "-suite.xcresult"])
    }

    func testAloneThenSuitePassesWhenTheOutcomesAgree() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(
                test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)],
                results: [
                    ReplayRule(
                        "xcrun", ["test-results", "tests"], output: Realdata.url("xcresult/oxr_tests_ui_and_perf.json"))
                ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(aloneThenSuite: true))
        XCTAssertEqual(outcome.verdict, .passed, "\(outcome)")
        XCTAssertEqual(outcome.comparison, .agree(left: "alone", right: "suite", tests: 2))
    }

    func testAStopSignalBetweenTheTwoRunsKeepsTheFirstAndStartsNoSecond() throws {
        for (number, name) in [(SIGHUP, "SIGHUP"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1")] {
            let folder = try xcode16Job()
            let replay = try Replay(
                self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)])
            )
            let recording = RecordingConsole()
            // The signal comes once the first run's manifest is written, before the second run starts.
            let console = JobConsole(output: recording.console.output) { event in
                recording.console.event(event)
                if case .runFinished = event { raise(number) }
            }
            let restore = XcodeJob.holdStopSignals()
            defer { restore() }
            let outcome = XcodeJob(tools: replay.tools, console: console, now: { [start] in start }).test(
                config: folder.config, folder: folder.folder, options: .init(aloneThenSuite: true))
            XCTAssertEqual(outcome.verdict, .interrupted(signal: number), "\(name): \(outcome)")
            XCTAssertEqual(recording.started.count, 1, "\(name): a run started after the signal")
            let run = try XCTUnwrap(outcome.runs.first, name)
            XCTAssertEqual(outcome.runs.count, 1, name)
            XCTAssertEqual(run.ending, .exited(0), name)
            XCTAssertTrue(FileManager.default.fileExists(atPath: run.artifacts.manifest.path), "\(name): no manifest")
            XCTAssertTrue(FileManager.default.fileExists(atPath: run.artifacts.buildLog.path), "\(name): no log")
        }
    }

    // MARK: compare UDID

    func testCompareUDIDPrintsEveryDifferenceBetweenTwoSimulators() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(
                test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)],
                results: [
                    ReplayRule(
                        "xcrun", ["test-results", "tests", pinnedUDID],
                        output: Realdata.url("xcresult/oxr_tests_ui_and_perf.json")),
                    ReplayRule(
                        "xcrun", ["test-results", "tests", secondUDID],
                        output: Realdata.url("xcresult/oxr_tests_failed_expectedfailure_skipped.json")),
                ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(compareUDID: secondUDID))
        XCTAssertEqual(outcome.verdict, .testsFailed(.outcomesDiffer))
        XCTAssertTrue(
            outcome.differences.contains("RandomStuffTests/testFoo(): \(pinnedUDID) did not run, \(secondUDID) failed"),
            "\(outcome)")
        let destinations = try replay.calls().filter { $0.count > 1 && $0[1] == "test" }.compactMap { argv in
            argv.firstIndex(of: "-destination").map { argv[$0 + 1] }
        }
        XCTAssertEqual(
            destinations, ["platform=iOS Simulator,id=\(pinnedUDID)", "platform=iOS Simulator,id=\(secondUDID)"])
    }

    func testCompareUDIDRefusesASimulatorOfAnotherRuntime() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder,
            options: .init(compareUDID: "547F6011-D095-471A-8FB1-0BE2C0BA00B4"))
        XCTAssertTrue(
            outcome.preflightFailures.contains { $0.hasPrefix("FAIL second simulator:") && $0.contains("iOS-18-0") },
            "\(outcome)")
        XCTAssertFalse(try replay.calls().contains { $0.count > 1 && $0[1] == "test" })
    }

    func testCompareUDIDRefusesThePinnedSimulatorItself() throws {
        let folder = try xcode16Job()
        let checks = job(try Replay(self, rules: rules16(test: [])), RecordingConsole())
            .preflight(config: folder.config, folder: folder.folder, options: .init(compareUDID: pinnedUDID))
        XCTAssertEqual(checks.filter { $0.status == .failed }.map(\.name), ["second simulator"])
    }

    func testBeforeXcode16TheLegacyObjectGraphIsReadWithoutTheLegacyFlag() throws {
        let folder = try JobFolder.ecmaswift(self, edit: { $0.onlyTesting = "banaanTests/banaanTests" })
        let replay = try Replay(
            self,
            rules: macRules() + [
                ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true),
                ReplayRule(
                    "xcrun", ["xcresulttool", "get", "--id"],
                    output: Realdata.url("xcresult/codemagic_legacy_ActionTestPlanRunSummaries_testsRef.json")),
                ReplayRule(
                    "xcrun", ["xcresulttool", "get"],
                    output: Realdata.url("xcresult/codemagic_legacy_ActionsInvocationRecord_3actions.json")),
            ])
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(compareUDID: secondUDID))
        XCTAssertEqual(outcome.verdict, .passed, "\(outcome)")
        XCTAssertEqual(outcome.comparison, .agree(left: pinnedUDID, right: secondUDID, tests: 5))
        let tool = try replay.calls().filter { $0.count > 1 && $0[1] == "xcresulttool" }
        XCTAssertEqual(tool.count, 6, "root + two testsRef ids, for each bundle")
        XCTAssertFalse(tool.contains { $0.contains("--legacy") })
    }

    // MARK: outcome

    /// A finished run that ended as `ending`, for the verdict's rules.
    func finished(_ ending: JobRun.Ending) -> JobRun {
        let artifacts = RunArtifacts(resultBundle: URL(fileURLWithPath: "/results/run.xcresult"))
        let manifest = RunManifest(
            xcodeVersion: "16.2", xcodeBuild: "16C5032a", runtime: "r", deviceType: nil, udid: pinnedUDID,
            argv: ["xcodebuild", "test"], workingDirectory: "/", start: "", end: "",
            exitCode: RunManifest.exitCode(of: ending), host: "h", resultBundle: artifacts.resultBundle.path,
            buildLog: artifacts.buildLog.path)
        return JobRun(label: "r", artifacts: artifacts, manifest: manifest, progress: ProgressTracker(), ending: ending)
    }

    func testTheVerdictTakesDifferingOutcomesThenTheFirstRunThatDidNotExitZeroThenNoTestRun() {
        let agree = RunComparison.agree(left: "a", right: "b", tests: 2)
        let differ = RunComparison.differ(left: "a", right: "b", differences: ["T/t(): a failed, b passed"])
        let cases: [([JobRun.Ending], RunComparison?, JobOutcome.Verdict)] = [
            ([.exited(0)], nil, .passed),
            ([.exited(0), .exited(0)], agree, .passed),
            ([.exited(65), .exited(0)], differ, .testsFailed(.outcomesDiffer)),
            ([.timedOut(after: 1), .exited(65)], agree, .timedOut(after: 1)),
            ([.exited(65), .timedOut(after: 1)], agree, .testsFailed(.xcodebuildFailed(exitCode: 65))),
            ([.exited(70), .exited(0)], .noTestRan(scope: "T"), .testsFailed(.xcodebuildFailed(exitCode: 70))),
            ([.exited(0), .exited(0)], .noTestRan(scope: "T"), .testsFailed(.noTestRan)),
            ([.interrupted(signal: SIGTERM)], nil, .interrupted(signal: SIGTERM)),
        ]
        for (endings, comparison, expected) in cases {
            XCTAssertEqual(
                XcodeJob.verdict(endings.map(finished), comparison), expected,
                "\(endings), \(String(describing: comparison))")
        }
        XCTAssertEqual(
            [.exited(65), .timedOut(after: 1), .interrupted(signal: SIGINT)].map(RunManifest.exitCode), [65, 124, 130])
    }

    func testAJobSendsItsStepsAsEventsInOrderAndPrintsNothing() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self, rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true)]))
        let console = RecordingConsole()
        let job = job(replay, console)
        let (outcome, printed) = try capturingStandardStreams {
            job.test(config: folder.config, folder: folder.folder, options: .init())
        }
        XCTAssertEqual(printed, "", "the job printed instead of sending events")
        let run = try XCTUnwrap(outcome.runs.first)
        guard case .preflight(let checks) = console.events.first else {
            return XCTFail("the first event is not the preflight: \(console.events)")
        }
        XCTAssertTrue(checks.passed)
        XCTAssertEqual(console.events.dropFirst().first, .runStarted(argv: run.manifest.argv))
        XCTAssertEqual(console.events.last, .runFinished(run))
        XCTAssertEqual(console.progress.first, "building")
        XCTAssertEqual(console.progress.last, run.progress.line)
        XCTAssertEqual(console.events.count, 3 + console.progress.count, "\(console.events)")
    }

    // MARK: rerun

    func testRerunRepeatsTheArgvIntoANewBundleInTheSameEnvironment() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: failingLog, exit: 65, createBundle: true)])
        )
        let first = job(replay, RecordingConsole())
        XCTAssertEqual(
            first.test(config: folder.config, folder: folder.folder, options: .init()).verdict,
            .testsFailed(.xcodebuildFailed(exitCode: 65)))
        let stem = "20270115T080000Z-\(pinnedUDID)"
        let manifestURL = folder.folder.appendingPathComponent("results/\(stem).manifest.json")
        let outcome = job(replay, RecordingConsole()).rerun(manifestURL: manifestURL)
        XCTAssertEqual(outcome.verdict, .testsFailed(.xcodebuildFailed(exitCode: 65)))
        let runs = try replay.calls().filter { $0.count > 1 && $0[1] == "test" }
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(
            Array(runs[1].dropLast()), Array(runs[0].dropLast()), "the rerun changed more than the bundle path")
        XCTAssertTrue(runs[1].last?.hasSuffix("\(stem)-rerun.xcresult") == true)
        let again = try RunManifest.load(
            from: folder.folder.appendingPathComponent("results/\(stem)-rerun.manifest.json"))
        XCTAssertEqual(again.rerunOf, manifestURL.path)
        XCTAssertEqual(outcome.runs.map(\.manifest), [again])
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: folder.folder.appendingPathComponent("results/\(stem).xcresult").path))
    }

    func testRerunRefusesAnotherXcodeOrAMissingSimulator() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(test: [ReplayRule("xcodebuild", ["test"], output: failingLog, exit: 65, createBundle: true)])
        )
        XCTAssertEqual(
            job(replay, RecordingConsole()).test(config: folder.config, folder: folder.folder, options: .init())
                .verdict,
            .testsFailed(.xcodebuildFailed(exitCode: 65)))
        let manifestURL = folder.folder.appendingPathComponent("results/20270115T080000Z-\(pinnedUDID).manifest.json")
        // The same manifest on a Mac running Xcode 13.2.1 whose listing lacks the simulator.
        let other = try Replay(
            self,
            rules: [
                ReplayRule("xcodebuild", ["-version"], output: xcode13Version),
                ReplayRule(
                    "xcrun", ["simctl", "list", "devices"],
                    output: Realdata.url("simctl/codemagic_simctl-list-devices_xcode12.json")),
                ReplayRule("xcodebuild", ["test"], output: passingLog, createBundle: true),
            ])
        let outcome = job(other, RecordingConsole()).rerun(manifestURL: manifestURL)
        guard case .environmentDiffers(let differences) = outcome.refusal else {
            return XCTFail("the rerun was not refused for its environment: \(outcome)")
        }
        XCTAssertTrue(
            differences.contains { $0.contains("running Xcode 13.2.1 (13C100), the run used Xcode 16.2 (16C5032a)") },
            "\(differences)")
        XCTAssertTrue(differences.contains { $0.contains("no longer exists") }, "\(differences)")
        XCTAssertEqual(outcome.runs, [])
        XCTAssertFalse(try other.calls().contains { $0.count > 1 && $0[1] == "test" })
    }

    func testRerunRefusesAManifestWhoseArgvIsNotTheTestRunItRecorded() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: rules16(test: [
                ReplayRule("xcodebuild", ["test"], output: failingLog, exit: 65, createBundle: true),
                ReplayRule("xcodebuild", ["archive"], output: passingLog),
            ])
        )
        XCTAssertEqual(
            job(replay, RecordingConsole()).test(config: folder.config, folder: folder.folder, options: .init())
                .verdict,
            .testsFailed(.xcodebuildFailed(exitCode: 65)))
        let manifestURL = folder.folder.appendingPathComponent("results/20270115T080000Z-\(pinnedUDID).manifest.json")
        let recorded = try RunManifest.load(from: manifestURL)
        let edits: [(String, ([String]) -> [String])] = [
            ("archive", { argv in ["xcodebuild", "archive"] + argv.dropFirst(2) }),
            ("another project", { argv in argv.map { $0 == "App.xcodeproj" ? "/elsewhere/Other.xcodeproj" : $0 } }),
            (
                "a project outside the folder",
                { argv in argv.map { $0 == "App.xcodeproj" ? "../Other.xcodeproj" : $0 } }
            ),
            ("an extra option", { argv in argv + ["-derivedDataPath", "/tmp/elsewhere"] }),
            (
                "another simulator",
                { argv in argv.map { $0.replacingOccurrences(of: "id=", with: "id=\(self.secondUDID),") } }
            ),
            ("another tool", { argv in ["/bin/sh"] + argv.dropFirst() }),
        ]
        var outside = recorded
        outside.udid = "../../../../outside"
        outside.argv = recorded.argv.map { $0.replacingOccurrences(of: pinnedUDID, with: outside.udid) }
        let outsideURL = folder.folder.appendingPathComponent("results/edited-udid.manifest.json")
        try outside.encoded().write(to: outsideURL)
        let refused = job(replay, RecordingConsole()).rerun(manifestURL: outsideURL)
        guard case .notARecordedRun(outsideURL.path, let error) = refused.refusal else {
            return XCTFail("an edited UDID was not refused as not a recorded run: \(refused)")
        }
        XCTAssertTrue(error.description.contains("udid: a UDID must be a UUID"), error.description)
        for (label, edit) in edits {
            var manifest = recorded
            manifest.argv = edit(recorded.argv)
            let url = folder.folder.appendingPathComponent(
                "results/edited-\(label.replacingOccurrences(of: " ", with: "-")).manifest.json")
            try manifest.encoded().write(to: url)
            let before = try replay.calls().count
            let outcome = job(replay, RecordingConsole()).rerun(manifestURL: url)
            guard case .notARecordedRun(url.path, let error) = outcome.refusal else {
                XCTFail("\(label): not refused as not a recorded run: \(outcome)")
                continue
            }
            XCTAssertEqual(error.field, "argv", "\(label): the refusal must name the field: \(error)")
            XCTAssertTrue(error.description.contains("only the 'xcodebuild test' run"), "\(label): \(error)")
            XCTAssertFalse(
                try replay.calls().dropFirst(before).contains {
                    $0.first == "xcodebuild" && $0.count > 1 && $0[1] != "-version"
                },
                "\(label): a rerun ran something")
        }
    }

    func testRerunOfSomethingThatIsNotAManifestIsRefused() throws {
        let replay = try Replay(self, rules: macRules())
        let outcome = job(replay, RecordingConsole()).rerun(
            manifestURL: Realdata.url("xcresult/oxr_summary_one_failure.json"))
        guard case .failed(let error) = outcome.refusal else { return XCTFail("not refused: \(outcome)") }
        XCTAssertEqual(error.code, .manifestUnreadable)
        XCTAssertTrue(error.rule.contains("not a run manifest"), error.description)
    }
}
