import Foundation
import XCTest

/// `webbridge xcode test --retries N` and `--report junit=FILE`, run as the built binary with the stand-in replaying
/// a real failing Xcode 26 run and real result bundles (and, for a retry that passes, the derived bundle whose
/// sidecar says how it was made).
extension XcodeCommandTests {
    static let stem = "-218E4ECD-F530-413F-9A8F-65951D3C4DBF"

    /// A pinned Xcode 16.2 job whose first run fails two tests (exit 65); `retry` rules come first.
    func failingXcode16Job(retry: [[String: Any]]) throws -> (environment: [String: String], folder: URL) {
        let folder = try ecmaswiftFolder(
            pinned: true,
            overrides: [
                "xcodeVersion": "16.2", "xcodeBuild": "16C5032a", "onlyTesting": "RandomStuffTests/RandomStuffTests",
            ])
        let (environment, _) = try replay(
            [
                [
                    "tool": "xcodebuild", "contains": ["-version"],
                    "output": Self.fixtures.appendingPathComponent("xcodebuild-version_xcode16.2_DOCUMENTED-FORMAT.txt")
                        .path,
                ],
                [
                    "tool": "xcrun", "contains": ["simctl", "list", "devices"],
                    "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
                ],
            ] + retry + [
                [
                    "tool": "xcodebuild", "contains": ["test"], "excludes": ["-retry"],
                    "output": Self.realdata("xcodebuild/fastlane_xcode26_testing_failure.log").path, "exit": 65,
                    "createBundle": true,
                ],
                [
                    "tool": "xcrun", "contains": ["test-results", "tests"],
                    "output": Self.realdata("xcresult/oxr_tests_failed_expectedfailure_skipped.json").path,
                ],
            ])
        return (environment, folder)
    }

    static var retryThatPasses: [[String: Any]] {
        [
            [
                "tool": "xcodebuild", "contains": ["test", "-retry1.xcresult"],
                "output": realdata("xcodebuild/verbum_xcode26.4_test-succeeded_sim-id.txt").path, "createBundle": true,
            ],
            [
                "tool": "xcrun", "contains": ["test-results", "tests", "-retry1.xcresult"],
                "output": fixtures.appendingPathComponent(
                    "xcresult-retry-of-testFoo-and-testExpectedFailure2-passed_DERIVED.json"
                ).path,
            ],
        ]
    }

    func testRetriesRerunOnlyTheFailedTestsAndSayWhichPassedOnARetry() throws {
        let (environment, folder) = try failingXcode16Job(retry: Self.retryThatPasses)
        let result = try CLI.run(
            ["xcode", "test", "--retries", "2"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 0, "every failed test passed on the retry: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            Array(lines.suffix(4)),
            [
                "webbridge xcode test: 2 tests passed on a retry (flaky):",
                "  RandomStuffTests/RandomStuffTests/testExpectedFailure2 (retry 1)",
                "  RandomStuffTests/RandomStuffTests/testFoo (retry 1)",
                "webbridge xcode test: every failed test passed on a retry (1 retry)",
            ], result.stderr)
        // The retry's command line, as shown, names each failed test once.
        XCTAssertTrue(
            lines.contains {
                $0.contains(
                    "-only-testing:RandomStuffTests/RandomStuffTests/testExpectedFailure2 "
                        + "-only-testing:RandomStuffTests/RandomStuffTests/testFoo -resultBundlePath")
                    && $0.contains("-retry1.xcresult")
            }, result.stderr)
    }

    func testTestsThatStillFailAfterTheRetriesAreListedAndTheExitIsXcodebuilds() throws {
        let (environment, folder) = try failingXcode16Job(retry: [
            [
                "tool": "xcodebuild", "contains": ["test", "-retry"],
                "output": Self.realdata("xcodebuild/fastlane_xcode26_testing_failure.log").path, "exit": 65,
                "createBundle": true,
            ]
        ])
        let result = try CLI.run(
            ["xcode", "test", "--retries", "2"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(
            Array(result.stderr.split(separator: "\n").map(String.init).suffix(3)),
            [
                "webbridge xcode test: 2 tests still failing after 2 retries:",
                "  RandomStuffTests/RandomStuffTests/testExpectedFailure2",
                "  RandomStuffTests/RandomStuffTests/testFoo",
            ], result.stderr)
        let bundles = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("results").path
        ).filter { $0.hasSuffix(".xcresult") }.map { String($0.dropFirst(16)) }.sorted()
        XCTAssertEqual(
            bundles, [Self.stem + "-retry1.xcresult", Self.stem + "-retry2.xcresult", Self.stem + ".xcresult"],
            "each attempt keeps its own bundle")
    }

    func testRetriesAndTheReportTakeASingleRunOnly() throws {
        for arguments in [
            ["--retries", "1", "--alone-then-suite"], ["--report", "junit=j.xml", "--compare-udid", "X"],
            ["--retries", "-1"], ["--retries", "11"], ["--report", "html=r.html"],
        ] {
            let result = try CLI.run(["xcode", "test"] + arguments, environment: linux)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " ") + ": " + result.stderr)
        }
    }
}
