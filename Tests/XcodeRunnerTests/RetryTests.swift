import Foundation
import XCTest

@testable import XcodeRunner

/// `--retries`: only the failed tests are rerun, each retry into a bundle of its own, and the verdict follows the
/// last run. The stand-in replays a real failing Xcode 26 run and real result bundles (see the fixtures' sidecars).
extension XcodeJobTests {
    var stem: String { "20270115T080000Z-\(pinnedUDID)" }
    var firstResults: URL { Realdata.url("xcresult/oxr_tests_failed_expectedfailure_skipped.json") }
    var retryPassed: URL {
        Realdata.root.appendingPathComponent("xcresult-retry-of-testFoo-and-testExpectedFailure2-passed_DERIVED.json")
    }

    /// A first run that fails (exit 65, two failed tests), then retries replaying `retry` (exit, bundle's results).
    func retryRules(_ retry: [ReplayRule]) -> [ReplayRule] {
        rules16(
            test: retry + [
                ReplayRule(
                    "xcodebuild", ["test"], excludes: ["-retry"], output: failingLog, exit: 65,
                    createBundle: true)
            ],
            results: [ReplayRule("xcrun", ["test-results", "tests", stem + ".xcresult"], output: firstResults)])
    }

    func retryArgv(_ folder: JobFolder, bundle: String) -> [String] {
        [
            "xcodebuild", "test", "-project", "App.xcodeproj", "-scheme", "ECMASwift",
            "-destination", "platform=iOS Simulator,id=\(pinnedUDID)",
            "-only-testing:RandomStuffTests/RandomStuffTests/testExpectedFailure2",
            "-only-testing:RandomStuffTests/RandomStuffTests/testFoo",
            "-resultBundlePath", folder.folder.appendingPathComponent("results/\(bundle).xcresult").path,
        ]
    }

    func testARetryRerunsOnlyTheFailedTestsAndPassesOnceTheyPass() throws {
        let folder = try xcode16Job()
        let replay = try Replay(
            self,
            rules: retryRules([
                ReplayRule("xcodebuild", ["test", "-retry1.xcresult"], output: passingLog, createBundle: true),
                ReplayRule("xcrun", ["test-results", "tests", "-retry1.xcresult"], output: retryPassed),
            ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(retries: 2))
        XCTAssertEqual(outcome.verdict, .passed, "\(outcome)")
        XCTAssertEqual(outcome.runs.map(\.ending), [.exited(65), .exited(0)])
        XCTAssertEqual(outcome.retries.map(\.number), [1])
        XCTAssertEqual(
            outcome.passedOnRetry.map { "\($0.test.identifier) \($0.retry)" },
            ["RandomStuffTests/testExpectedFailure2() 1", "RandomStuffTests/testFoo() 1"])
        XCTAssertEqual(outcome.stillFailing, [])
        let runs = try replay.calls().filter { $0.count > 1 && $0[0] == "xcodebuild" && $0[1] == "test" }
        XCTAssertEqual(runs.count, 2, "one retry once both passed")
        XCTAssertEqual(runs.dropFirst().first, retryArgv(folder, bundle: stem + "-retry1"))
        // Every run keeps its own evidence; the retry's manifest records its argv.
        XCTAssertEqual(
            try bundles(in: folder.folder),
            [
                stem + "-retry1.log", stem + "-retry1.manifest.json", stem + "-retry1.xcresult", stem + ".log",
                stem + ".manifest.json", stem + ".xcresult",
            ])
        let retry = try XCTUnwrap(outcome.retries.first?.run.manifest)
        XCTAssertEqual(retry.argv, runs.dropFirst().first)
        XCTAssertNoThrow(try XcodebuildCommand.checkRecordedTestRun(retry), "a retry can be rerun")
    }

    func testTestsThatStillFailAreRetriedUpToNTimesAndTheLastExitCodeStands() throws {
        let folder = try xcode16Job()
        // Each retry replays the real failing run and its real bundle: the same two tests fail again.
        let replay = try Replay(
            self,
            rules: retryRules([
                ReplayRule(
                    "xcodebuild", ["test", "-retry"], output: failingLog, exit: 65, createBundle: true),
                ReplayRule("xcrun", ["test-results", "tests", "-retry"], output: firstResults),
            ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(retries: 2))
        XCTAssertEqual(outcome.verdict, .testsFailed(.xcodebuildFailed(exitCode: 65)), "\(outcome)")
        XCTAssertEqual(outcome.retries.map(\.number), [1, 2])
        XCTAssertEqual(outcome.passedOnRetry.count, 0)
        XCTAssertEqual(
            outcome.stillFailing.map(\.identifier),
            ["RandomStuffTests/testExpectedFailure2()", "RandomStuffTests/testFoo()"])
        let runs = try replay.calls().filter { $0.count > 1 && $0[0] == "xcodebuild" && $0[1] == "test" }
        XCTAssertEqual(
            runs.dropFirst().map { $0 },
            [
                retryArgv(folder, bundle: stem + "-retry1"), retryArgv(folder, bundle: stem + "-retry2"),
            ])
    }

    func testARetryThatDoesNotRunTheTestDoesNotPassIt() throws {
        let folder = try xcode16Job()
        // The retry exits 0 but its bundle holds other tests (a real all-passing bundle): the failed ones did not run.
        let replay = try Replay(
            self,
            rules: retryRules([
                ReplayRule("xcodebuild", ["test", "-retry1.xcresult"], output: passingLog, createBundle: true),
                ReplayRule(
                    "xcrun", ["test-results", "tests", "-retry1.xcresult"],
                    output: Realdata.url("xcresult/oxr_tests_ui_and_perf.json")),
            ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(retries: 1))
        XCTAssertEqual(outcome.verdict, .testsFailed(.failedAfterRetries), "\(outcome)")
        XCTAssertEqual(outcome.stillFailing.count, 2)
    }

    func testAnExistingRetryBundleIsNeverOverwritten() throws {
        let folder = try xcode16Job()
        let results = folder.folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(
            at: results.appendingPathComponent(stem + "-retry1.xcresult"), withIntermediateDirectories: true)
        let replay = try Replay(
            self,
            rules: retryRules([
                ReplayRule("xcodebuild", ["test", "-retry1-2.xcresult"], output: passingLog, createBundle: true),
                ReplayRule("xcrun", ["test-results", "tests", "-retry1-2.xcresult"], output: retryPassed),
            ]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init(retries: 1))
        XCTAssertEqual(outcome.verdict, .passed, "\(outcome)")
        XCTAssertEqual(outcome.runs.last?.artifacts.resultBundle.lastPathComponent, stem + "-retry1-2.xcresult")
    }

    func testNoRetryWithoutFailedTestsOrWithoutRetries() throws {
        let folder = try xcode16Job()
        let replay = try Replay(self, rules: retryRules([]))
        let outcome = job(replay, RecordingConsole()).test(
            config: folder.config, folder: folder.folder, options: .init())
        XCTAssertEqual(outcome.verdict, .testsFailed(.xcodebuildFailed(exitCode: 65)))
        XCTAssertNil(outcome.results, "results are read only for retries or a report")
        XCTAssertEqual(try replay.calls().filter { $0[0] == "xcrun" && $0.contains("test-results") }, [])
    }
}
