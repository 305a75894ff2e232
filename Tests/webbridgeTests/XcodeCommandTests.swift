import Foundation
import XCTest

/// `webbridge xcode …` run as the built binary, with recorded real outputs replayed for xcrun/xcodebuild.
final class XcodeCommandTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL
    static let fixtures = repository.appendingPathComponent("Tests/XcodeRunnerTests/Fixtures")
    static func realdata(_ path: String) -> URL { fixtures.appendingPathComponent("realdata/" + path) }

    /// No xcrun or xcodebuild on this PATH: what a Linux machine has.
    let linux = ["PATH": "/usr/bin:/bin"]

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcodecommand-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Installs the replaying stand-in (Tests/XcodeRunnerTests/Fixtures/replay.py) as xcrun and xcodebuild.
    /// A Mac as the pinned ECMASwift job finds it: Xcode 13.2.1's `-version`, a real `simctl list`, then `test`.
    func replayOnAMac(_ test: [String: Any]) throws -> (environment: [String: String], folder: URL) {
        try replay([
            [
                "tool": "xcodebuild", "contains": ["-version"],
                "output": Self.realdata(
                    "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt"
                ).path,
            ],
            [
                "tool": "xcrun", "contains": ["simctl", "list", "devices"],
                "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            test,
        ])
    }

    /// `xcodebuild test` printing a real recorded failed run and exiting 65, leaving a result bundle.
    static var failedTestRun: [String: Any] {
        [
            "tool": "xcodebuild", "contains": ["test"],
            "output": realdata("xcodebuild/openbakery_xcodebuild-test-failed-xcode6.txt").path, "exit": 65,
            "createBundle": true,
        ]
    }

    func replay(_ rules: [[String: Any]]) throws -> (environment: [String: String], folder: URL) {
        let folder = try temporaryFolder()
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = try Data(contentsOf: Self.fixtures.appendingPathComponent("replay.py"))
        for tool in ["xcrun", "xcodebuild"] {
            try script.write(to: bin.appendingPathComponent(tool))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent(tool).path)
        }
        try JSONSerialization.data(withJSONObject: rules).write(to: folder.appendingPathComponent("rules.json"))
        return (["PATH": bin.path + ":/usr/bin:/bin", "REPLAY_DIR": folder.path], folder)
    }

    // MARK: usage

    func testHelpAtEveryLevelExitsZero() throws {
        for arguments in [
            ["xcode", "--help"], ["xcode", "pin", "--help"], ["xcode", "preflight", "--help"],
            ["xcode", "test", "--help"], ["xcode", "rerun", "--help"],
        ] {
            let result = try CLI.run(arguments, environment: linux)
            XCTAssertEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.stdout.contains("USAGE: webbridge xcode"), arguments.joined(separator: " "))
        }
    }

    func testUnknownOptionsAndMissingArgumentsAreUsageErrors() throws {
        for arguments in [
            ["xcode"], ["xcode", "frob"], ["xcode", "test", "--bogus"], ["xcode", "pin", "--device-type", "iPhone 15"],
            ["xcode", "test", "--alone-then-suite", "--compare-udid", "X"], ["xcode", "rerun"],
            ["xcode", "preflight", "extra"], ["xcode", "test", "--timeout", "0"],
            ["xcode", "test", "--timeout", "soon"],
        ] {
            let result = try CLI.run(arguments, environment: linux)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains("Usage: webbridge xcode"), arguments.joined(separator: " "))
        }
    }

    func testEveryNumericOptionIsBoundedWithAUsageError() throws {
        for value in ["1e19", "9.3e18", "604801", "inf", "nan", "-1", "1e-7"] {
            let result = try CLI.run(["xcode", "test", "--timeout", value], environment: linux)
            XCTAssertEqual(result.status, 2, "--timeout \(value): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("--timeout must be a number of seconds from 0.001 to 604800 (one week)"),
                "--timeout \(value): \(result.stderr)")
        }
    }

    func testAMissingOrUnreadableConfigOrManifestIsExit3InEverySubcommand() throws {
        let folder = try temporaryFolder()
        let directory = folder.appendingPathComponent("a-folder.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{".utf8).write(to: broken)
        let listing = Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path
        let pin = ["xcode", "pin", "--runtime", "iOS 17.5", "--device-type", "iPhone 15", "--simctl-json", listing]
        var cases: [[String]] = []
        for file in [directory.path, broken.path] {
            cases += [
                pin + ["--config", file], ["xcode", "preflight", "--config", file],
                ["xcode", "test", "--config", file],
            ]
        }
        cases += [
            ["xcode", "preflight", "--config", folder.appendingPathComponent("missing.json").path],
            ["xcode", "test", "--config", folder.appendingPathComponent("missing.json").path],
            ["xcode", "rerun", folder.appendingPathComponent("missing.manifest.json").path],
            ["xcode", "rerun", directory.path], ["xcode", "rerun", broken.path],
            ["xcode", "pin", "--runtime", "iOS 17.5", "--device-type", "iPhone 15", "--simctl-json", directory.path],
            [
                "xcode", "pin", "--runtime", "iOS 17.5", "--device-type", "iPhone 15", "--simctl-json",
                folder.appendingPathComponent("missing.json").path,
            ],
        ]
        for arguments in cases {
            let result = try CLI.run(arguments, environment: linux, currentDirectory: folder)
            XCTAssertEqual(result.status, 3, arguments.joined(separator: " ") + "\n" + result.stderr)
            XCTAssertTrue(result.stderr.contains("Remedy: "), arguments.joined(separator: " ") + "\n" + result.stderr)
            XCTAssertFalse(result.stderr.contains("Usage: "), arguments.joined(separator: " ") + "\n" + result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: broken), Data("{".utf8), "a refused config was rewritten")
    }

    // MARK: pin

    func testPinFromASavedListingWritesTheConfigAndPrintsTheUDID() throws {
        let folder = try temporaryFolder()
        let config = folder.appendingPathComponent("webbridge-job.json")
        try Data(#"{"scheme": "Client", "project": "Client.xcodeproj", "testTarget": "ClientTests"}"#.utf8).write(
            to: config)
        let result = try CLI.run(
            [
                "xcode", "pin", "--runtime", "iOS 17.5", "--device-type", "iPhone 15", "--simctl-json",
                Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "218E4ECD-F530-413F-9A8F-65951D3C4DBF\n")
        XCTAssertTrue(
            result.stderr.contains("Xcode not pinned: xcodebuild is not on PATH (needs a Mac)"), result.stderr)
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: String])
        XCTAssertEqual(written["udid"], "218E4ECD-F530-413F-9A8F-65951D3C4DBF")
        XCTAssertEqual(written["runtime"], "com.apple.CoreSimulator.SimRuntime.iOS-17-5")
        XCTAssertEqual(written["scheme"], "Client", "pin dropped a field the user wrote")
    }

    func testPinOnTheMacRecordsTheRunningXcode() throws {
        let (environment, _) = try replay([
            [
                "tool": "xcodebuild", "contains": ["-version"],
                "output": Self.realdata(
                    "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt"
                ).path,
            ],
            [
                "tool": "xcrun", "contains": ["simctl", "list", "devices", "available", "-j"],
                "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
        ])
        let folder = try temporaryFolder()
        let result = try CLI.run(
            ["xcode", "pin", "--runtime", "com.apple.CoreSimulator.SimRuntime.iOS-18-0", "--device-type", "iPhone 15"],
            environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "547F6011-D095-471A-8FB1-0BE2C0BA00B4\n")
        let written = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("webbridge-job.json")))
                as? [String: String])
        XCTAssertEqual(written["xcodeVersion"], "13.2.1")
        XCTAssertEqual(written["xcodeBuild"], "13C100")
    }

    func testPinRefusesNoMatchListingTheCandidatesAndWritesNothing() throws {
        let folder = try temporaryFolder()
        let result = try CLI.run(
            [
                "xcode", "pin", "--runtime", "iOS 17.4", "--device-type", "iPhone 15", "--simctl-json",
                Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.contains("no available simulator has exactly this runtime and device type"), result.stderr)
        XCTAssertTrue(result.stderr.contains("UDID 218E4ECD-F530-413F-9A8F-65951D3C4DBF"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("webbridge-job.json").path))
    }

    func testPinRefusesAHostileUDIDAndWritesNothing() throws {
        let folder = try temporaryFolder()
        var root = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.realdata("simctl/openbakery_simctl-list-xcode16.json"))) as? [String: Any])
        var devices = try XCTUnwrap(root["devices"] as? [String: [[String: Any]]])
        let key = "com.apple.CoreSimulator.SimRuntime.iOS-17-5"
        devices[key] = devices[key]?.map { device in
            var device = device
            if device["name"] as? String == "iPhone 15" { device["udid"] = "../../../../outside\n\u{1B}[32mok" }
            return device
        }
        root["devices"] = devices
        let listing = folder.appendingPathComponent("listing.json")
        try JSONSerialization.data(withJSONObject: root).write(to: listing)
        let result = try CLI.run(
            ["xcode", "pin", "--runtime", "iOS 17.5", "--device-type", "iPhone 15", "--simctl-json", listing.path],
            environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("udid (--simctl-json): a UDID must be a UUID"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), "the listing's escape sequence reached the terminal")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("webbridge-job.json").path))
    }

    // MARK: preflight

    func testPreflightOnTheExampleClientPassesExceptTheChecksThatNeedAMac() throws {
        let example = Self.repository.appendingPathComponent("Examples/Client")
        let result = try CLI.run(["xcode", "preflight"], environment: linux, currentDirectory: example)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.contains { $0.hasPrefix("FAIL") }, result.stdout)
        XCTAssertTrue(lines.contains("ok scheme: 'Client' is shared and tests 'ClientTests'"), result.stdout)
        XCTAssertTrue(
            lines.contains("ok fixture: BridgeFixture.html is in the Resources phase of 'ClientTests'"), result.stdout)
        XCTAssertTrue(lines.contains("not run (needs a Mac) xcode: xcodebuild is not on PATH"), result.stdout)
        XCTAssertTrue(lines.contains("not run (needs a Mac) simulator: xcrun is not on PATH"), result.stdout)
        // The fixture the project references is on disk too.
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: example.appendingPathComponent("ClientTests/BridgeFixture.html").path))
    }

    func testPreflightReportsFailuresAndExitsThree() throws {
        let folder = try temporaryFolder()
        try Data(
            #"{"xcodeVersion": "16.2", "project": "Missing.xcodeproj", "scheme": "S", "testTarget": "T", "fixture": "f.html", "results": "r", "onlyTesting": "T/C"}"#
                .utf8
        )
        .write(to: folder.appendingPathComponent("job.json"))
        let result = try CLI.run(
            ["xcode", "preflight", "--config", "job.json"], environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stdout.contains("FAIL scheme: scheme 'S' is not shared"), result.stdout)
        XCTAssertTrue(result.stdout.contains("FAIL fixture: Missing.xcodeproj: no project.pbxproj"), result.stdout)
        XCTAssertTrue(result.stdout.contains("preflight: 2 failed"), result.stdout)
    }

    func testABrokenConfigIsAnEnvironmentErrorNamingTheField() throws {
        let folder = try temporaryFolder()
        try Data(#"{"udid": 7}"#.utf8).write(to: folder.appendingPathComponent("webbridge-job.json"))
        let result = try CLI.run(["xcode", "preflight"], environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("udid: expected a string, found number"), result.stderr)
    }

    // MARK: test and rerun

    /// A job folder around ECMASwift's real project and shared scheme, with its fixture on disk.
    func ecmaswiftFolder(pinned: Bool, overrides: [String: String] = [:]) throws -> URL {
        let folder = try temporaryFolder()
        let project = folder.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("xcshareddata/xcschemes"), withIntermediateDirectories: true)
        try Data(contentsOf: Self.realdata("pbxproj/ecmaswift_project.pbxproj")).write(
            to: project.appendingPathComponent("project.pbxproj"))
        try Data(contentsOf: Self.realdata("xcscheme/ecmaswift_ECMASwift.xcscheme")).write(
            to: project.appendingPathComponent("xcshareddata/xcschemes/ECMASwift.xcscheme"))
        // ECMASwift's fixture lives at ECMASwiftTests/web/index.html (read off its project file).
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("ECMASwiftTests/web"), withIntermediateDirectories: true)
        try Data("<html></html>".utf8).write(to: folder.appendingPathComponent("ECMASwiftTests/web/index.html"))
        var config: [String: String] = [
            "project": "App.xcodeproj", "scheme": "ECMASwift", "testTarget": "ECMASwiftTests",
            "onlyTesting": "ECMASwiftTests/ECMASwiftTests", "fixture": "index.html", "results": "results",
        ]
        if pinned {
            config.merge([
                "xcodeVersion": "13.2.1", "xcodeBuild": "13C100",
                "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-17-5",
                "deviceType": "iPhone 15", "udid": "218E4ECD-F530-413F-9A8F-65951D3C4DBF",
            ]) { $1 }
        }
        config.merge(overrides) { $1 }
        try JSONSerialization.data(withJSONObject: config).write(
            to: folder.appendingPathComponent("webbridge-job.json"))
        return folder
    }

    func testTheCommandExitsWithXcodebuildsCodeAndPrintsWhereTheEvidenceIs() throws {
        let folder = try ecmaswiftFolder(pinned: true)
        let (environment, _) = try replayOnAMac(Self.failedTestRun)
        let result = try CLI.run(["xcode", "test"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stdout.contains("** TEST FAILED **"))
        XCTAssertTrue(result.stderr.contains("webbridge: building"), result.stderr)
        XCTAssertTrue(result.stderr.contains("xcodebuild exited with 65"), result.stderr)
        XCTAssertTrue(result.stderr.contains("FAILED (exit 65); evidence kept:\n  result bundle: "), result.stderr)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path)
            .map { ($0 as NSString).pathExtension }.sorted()
        XCTAssertEqual(kept, ["json", "log", "xcresult"])

        // Rerunning on a Linux box is refused: the recorded run needs its Xcode.
        let manifest = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path).first {
                $0.hasSuffix(".manifest.json")
            })
        let rerun = try CLI.run(
            ["xcode", "rerun", "results/" + manifest], environment: linux, currentDirectory: folder)
        XCTAssertEqual(rerun.status, 3)
        XCTAssertTrue(rerun.stderr.contains("needs a Mac"), rerun.stderr)
        // And on the Mac it repeats the run with the same exit code.
        let again = try CLI.run(
            ["xcode", "rerun", "results/" + manifest], environment: environment, currentDirectory: folder)
        XCTAssertEqual(again.status, 65, again.stderr)
    }

    func testABuildLogOnAFullDiskIsAnErrorNamingTheLogNotATrap() throws {
        // The results folder is a 16 KB tmpfs (in a user and mount namespace), and the recorded output is 77 KB:
        // the log write fails with ENOSPC, which `FileHandle.write(_:)` turned into a trap (issue 25).
        let folder = try ecmaswiftFolder(pinned: true)
        let (environment, _) = try replayOnAMac(Self.failedTestRun)
        let results = folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        let result = try CLI.runWrapped(
            [
                "/usr/bin/unshare", "-rm", "/bin/sh", "-c",
                "mount -t tmpfs -o size=16k tmpfs results || exit 99; exec \"$0\" \"$@\"",
            ],
            ["xcode", "test"], environment: environment, currentDirectory: folder)
        XCTAssertNotEqual(result.status, 99, "the test could not mount a tmpfs: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stdout.contains("** TEST FAILED **"), "xcodebuild's output still reaches the console")
        XCTAssertTrue(result.stderr.contains("\n\(results.path)/"), "the error names the log's path:\n\(result.stderr)")
        XCTAssertTrue(
            result.stderr.contains(
                ".log: the build log could not be written (No space left on device); it is incomplete and no manifest was written (xcodebuild exited with 65)"
            ), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "Remedy: free space on the results folder's disk, or give a results folder on another disk, then run the job again"
            ), result.stderr)
    }

    func testComparedRunsThatDifferExitOneListingEachDifference() throws {
        let folder = try ecmaswiftFolder(
            pinned: true,
            overrides: [
                "xcodeVersion": "16.2", "xcodeBuild": "16C5032a", "onlyTesting": "RandomStuffTests/RandomStuffTests",
            ])
        let (environment, _) = try replay([
            [
                "tool": "xcodebuild", "contains": ["-version"],
                "output": Self.fixtures.appendingPathComponent("xcodebuild-version_xcode16.2_DOCUMENTED-FORMAT.txt")
                    .path,
            ],
            [
                "tool": "xcrun", "contains": ["simctl", "list", "devices"],
                "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            [
                "tool": "xcodebuild", "contains": ["test"],
                "output": Self.realdata("xcodebuild/verbum_xcode26.4_test-succeeded_sim-id.txt").path,
                "createBundle": true,
            ],
            [
                "tool": "xcrun", "contains": ["test-results", "tests", "-alone.xcresult"],
                "output": Self.realdata("xcresult/oxr_tests_failed_expectedfailure_skipped.json").path,
            ],
            [
                "tool": "xcrun", "contains": ["test-results", "tests", "-suite.xcresult"],
                "output": Self.realdata("xcresult/oxr_tests_ui_and_perf.json").path,
            ],
        ])
        let result = try CLI.run(
            ["xcode", "test", "--alone-then-suite"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            result.stderr.components(separatedBy: "webbridge: passed; evidence:\n").count, 3,
            "each run's evidence is listed: \(result.stderr)")
        // After both runs: the comparison's header, then one line per test.
        let closing = try XCTUnwrap(
            result.stderr.components(separatedBy: "webbridge xcode test: outcomes differ between alone and suite:\n")
                .dropFirst().first, result.stderr)
        XCTAssertFalse(closing.contains("webbridge:"), result.stderr)
        XCTAssertTrue(
            closing.split(separator: "\n").contains("  RandomStuffTests/testFoo(): alone failed, suite did not run"),
            result.stderr)
    }

    func testAFailedPreflightRunsNothingAndExitsThree() throws {
        let folder = try temporaryFolder()
        try Data(#"{"project": "Missing.xcodeproj", "scheme": "S", "testTarget": "T"}"#.utf8)
            .write(to: folder.appendingPathComponent("webbridge-job.json"))
        let result = try CLI.run(["xcode", "test"], environment: linux, currentDirectory: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("FAIL scheme: ") }, result.stderr)
        XCTAssertEqual(lines.last, "webbridge xcode test: preflight failed; nothing was run", result.stderr)
    }

    func testTestWithoutAMacRefusesAfterPreflight() throws {
        // Pins the Xcode (which every job must) but nothing only a Mac can pin: preflight passes, the run needs a Mac.
        let folder = try ecmaswiftFolder(pinned: false, overrides: ["xcodeVersion": "16.2"])
        let result = try CLI.run(
            ["xcode", "test", "--config", folder.appendingPathComponent("webbridge-job.json").path], environment: linux)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertFalse(result.stderr.contains("FAIL "), result.stderr)
        XCTAssertTrue(result.stderr.contains("the run needs a Mac"), result.stderr)
    }

    func testTestWithoutXcodeVersionRefusesNamingTheFieldTheRuleAndTheRemedy() throws {
        let folder = try ecmaswiftFolder(pinned: false)
        let config = folder.appendingPathComponent("webbridge-job.json").path
        for subcommand in ["preflight", "test"] {
            let result = try CLI.run(["xcode", subcommand, "--config", config], environment: linux)
            XCTAssertEqual(result.status, 3, subcommand + ": " + result.stderr)
            let output = result.stdout + result.stderr
            let failures = output.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
            XCTAssertEqual(
                failures,
                [
                    "FAIL config: xcodeVersion is missing: a job must pin the Xcode it runs with (CI selects "
                        + "/Applications/Xcode_<xcodeVersion>.app). Remedy: run 'webbridge xcode pin' on the Mac and "
                        + "commit the config"
                ], subcommand + ": " + output)
            XCTAssertFalse(output.contains("the run needs a Mac"), subcommand + ": " + output)
        }
    }

    /// Rules for a pinned ECMASwift job whose `xcodebuild test` prints a real recorded run, then hangs.
    func hangingRun(ignoreSignals: Bool) throws -> (environment: [String: String], folder: URL, lastLine: String) {
        let recorded = Self.realdata("xcodebuild/openbakery_xcodebuild-test-failed-xcode6.txt")
        let lastLine = try XCTUnwrap(
            String(decoding: Data(contentsOf: recorded), as: UTF8.self).split(separator: "\n").last.map(String.init))
        let (environment, folder) = try replayOnAMac([
            "tool": "xcodebuild", "contains": ["test"], "output": recorded.path, "createBundle": true, "hang": true,
            "ignoreSignals": ignoreSignals, "child": ignoreSignals,
        ])
        return (environment, folder, lastLine)
    }

    func pids(in replayFolder: URL) throws -> [Int32] {
        try Array(
            JSONDecoder().decode(
                [String: Int32].self, from: Data(contentsOf: replayFolder.appendingPathComponent("pids.json"))
            )
            .values)
    }

    /// Waits until none of `pids` runs (zombies count as gone), up to `timeout`; returns those still running.
    func stillRunning(_ pids: [Int32], timeout: TimeInterval = 10) -> [Int32] {
        func running(_ pid: Int32) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            return !stat[close...].hasPrefix(") Z")
        }
        let deadline = Date().addingTimeInterval(timeout)
        let tick = DispatchSemaphore(value: 0)
        while true {
            let left = pids.filter(running)
            if left.isEmpty || Date() >= deadline { return left }
            // Nothing signals the exit of a process that is not our child: look again shortly.
            _ = tick.wait(timeout: .now() + 0.02)
        }
    }

    func evidence(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path)
            .map { ($0 as NSString).pathExtension }.sorted()
    }

    func testSIGTERMIsForwardedToXcodebuildsGroupTheEvidenceIsKeptAndTheExitIs143() throws {
        let folder = try ecmaswiftFolder(pinned: true)
        let (environment, replayFolder, lastLine) = try hangingRun(ignoreSignals: true)
        let run = try RunningCLI(["xcode", "test"], environment: environment, currentDirectory: folder)
        XCTAssertTrue(run.waitForOutput(lastLine), "the recorded output never came: \(run.stderr)")
        let group = try pids(in: replayFolder)
        defer { for pid in stillRunning(group, timeout: 0) { kill(pid, SIGKILL) } }
        run.signal(SIGTERM)
        // xcodebuild ignores it (the stand-in says so on its output); a second SIGTERM stops the group at once.
        XCTAssertTrue(
            run.waitForOutput("replay: ignored signal \(SIGTERM)"),
            "SIGTERM was not forwarded to xcodebuild: \(run.stderr)")
        run.signal(SIGTERM)
        let result = try run.wait(timeout: 60)
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertEqual(run.process.terminationReason, .exit, "webbridge died of the signal instead of handling it")
        XCTAssertTrue(result.stderr.contains("received SIGTERM"), result.stderr)
        XCTAssertTrue(result.stderr.contains("evidence kept:"), result.stderr)
        XCTAssertEqual(try evidence(in: folder), ["json", "log", "xcresult"])
        XCTAssertEqual(stillRunning(group), [], "a process of xcodebuild's group outlived webbridge")
    }

    func testSIGINTIsForwardedAndTheExitIs130WithTheManifestKept() throws {
        let folder = try ecmaswiftFolder(pinned: true)
        let (environment, replayFolder, lastLine) = try hangingRun(ignoreSignals: false)
        let run = try RunningCLI(["xcode", "test"], environment: environment, currentDirectory: folder)
        XCTAssertTrue(run.waitForOutput(lastLine), "the recorded output never came: \(run.stderr)")
        let group = try pids(in: replayFolder)
        defer { for pid in stillRunning(group, timeout: 0) { kill(pid, SIGKILL) } }
        run.signal(SIGINT)
        let result = try run.wait(timeout: 60)
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertEqual(run.process.terminationReason, .exit, "webbridge died of the signal instead of handling it")
        let manifest = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path).first {
                $0.hasSuffix(".manifest.json")
            }, "no manifest was kept")
        let recorded = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("results/" + manifest))) as? [String: Any])
        XCTAssertEqual(recorded["exitCode"] as? Int, 130)
        XCTAssertEqual(recorded["interruptedBy"] as? String, "SIGINT")
        XCTAssertTrue(
            result.stderr.hasSuffix("webbridge xcode test: stopped by SIGINT; no further run\n"), result.stderr)
        XCTAssertEqual(stillRunning(group), [], "xcodebuild outlived webbridge")
    }
}
