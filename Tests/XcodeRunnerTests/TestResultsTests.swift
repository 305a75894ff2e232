import Foundation
import XCTest

@testable import XcodeRunner

final class TestResultsTests: XCTestCase {
    func results(_ name: String) throws -> TestResults {
        try TestResults(json: Realdata.data("xcresult/" + name), source: name)
    }

    func testTheXcode16TestsTreeGivesOneOutcomePerTestCase() throws {
        let parsed = try results("codemagic_test-results-tests_xcode16.0.json")
        XCTAssertEqual(parsed.outcomes.count, 8)
        XCTAssertEqual(parsed.outcomes["banaanTests/testExample()"], .passed)
        XCTAssertEqual(parsed.outcomes["banaanTests/testFailExample()"], .failed)
        XCTAssertEqual(parsed.outcomes["banaanTests/testSkippedExample()"], .skipped)
    }

    func testExpectedFailuresRepetitionsAndArgumentsStayWithTheirTestCase() throws {
        let xcode26 = try results("oxr_tests_failed_expectedfailure_skipped.json")
        XCTAssertEqual(xcode26.outcomes["RandomStuffTests/testExpectedFailure()"], .expectedFailure)
        XCTAssertEqual(xcode26.outcomes.count, 7)
        // Swift Testing with retries: Repetition and Arguments nodes are parts of 20 test cases.
        XCTAssertEqual(try results("dbxc_SPM-26.1.1-iOS_test-results-tests.json").outcomes.count, 20)
    }

    func testTheLegacyObjectGraphGivesTheSameVocabulary() throws {
        let legacy = try results("codemagic_legacy_ActionTestPlanRunSummaries_testsRef.json")
        XCTAssertEqual(legacy.outcomes["banaanTests/testExample()"], .passed)
        XCTAssertEqual(legacy.outcomes["banaanTests/testFailExample()"], .failed)
        XCTAssertEqual(legacy.outcomes["banaanTests/testSkippedExample()"], .skipped)
        XCTAssertEqual(legacy.outcomes.count, 7)
    }

    func testTheLegacyRootRecordListsItsTestsReferences() throws {
        let ids = try TestResults.legacyTestsReferences(
            json: Realdata.data("xcresult/codemagic_legacy_ActionsInvocationRecord_3actions.json"), source: "record")
        // Three actions; the first was not requested and has no testsRef.
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(
            try TestResults.legacyTestsReferences(
                json: Realdata.data("xcresult/dbxc_legacy_ActionsInvocationRecord_unit-failure.json"), source: "r"
            ).count, 1)
    }

    func testSummariesAndErrorTextAreNotMistakenForTestLists() throws {
        for name in [
            "oxr_summary_one_failure.json", "codemagic_test-results-summary_xcode16.0.json",
            "xctestrunner-issue65_xcresulttool-legacy-required_ISSUE.txt",
        ] {
            XCTAssertThrowsError(try results(name), name) { error in
                XCTAssertEqual((error as? XcodeRunnerError)?.code, .resultsUnreadable, name)
            }
        }
    }

    func testOutcomesAreRestrictedToTheOnlyTestingClassWithoutTheTargetPrefix() throws {
        let parsed = try results("codemagic_test-results-tests_xcode16.0.json")
        let restricted = parsed.restricted(to: "banaanTests/banaanTests")
        XCTAssertEqual(restricted.outcomes.count, 6)
        XCTAssertNil(restricted.outcomes["banaanUITests/testUIExample()"])
        XCTAssertEqual(
            parsed.restricted(to: "banaanTests/banaanTests/testExample").outcomes.keys.sorted(),
            ["banaanTests/testExample()"])
    }

    func testDifferencesNameEachTestAndBothOutcomes() throws {
        // Two real runs of the same RandomStuff project: a failing run and a later all-passing one.
        let failing = try results("oxr_tests_failed_expectedfailure_skipped.json").restricted(
            to: "RandomStuffTests/RandomStuffTests")
        let passing = try results("oxr_tests_ui_and_perf.json").restricted(to: "RandomStuffTests/RandomStuffTests")
        let lines = failing.differences(from: passing, left: "alone", right: "suite")
        XCTAssertTrue(
            lines.contains("RandomStuffTests/testFoo(): alone failed, suite did not run"), lines.joined(separator: "\n")
        )
        XCTAssertFalse(
            lines.contains { $0.hasPrefix("RandomStuffTests/testExample():") }, "equal outcomes reported as different")
        XCTAssertEqual(failing.differences(from: failing, left: "a", right: "b"), [])
    }

    // MARK: test cases in full

    func testEachTestCaseKeepsItsBundleTimeAndFailureMessages() throws {
        let xcode26 = try results("oxr_tests_failed_expectedfailure_skipped.json")
        XCTAssertEqual(xcode26.cases.count, 7)
        let foo = try XCTUnwrap(xcode26.cases.first { $0.identifier == "RandomStuffTests/testFoo()" })
        XCTAssertEqual(foo.target, "RandomStuffTests")
        XCTAssertEqual(foo.outcome, .failed)
        XCTAssertEqual(try XCTUnwrap(foo.seconds), 0.0021200180053710938, accuracy: 1e-12)
        XCTAssertEqual(
            foo.messages, [#"RandomStuffTests.swift:38: XCTAssertEqual failed: ("1") is not equal to ("2")"#])
        XCTAssertEqual(foo.onlyTesting, "RandomStuffTests/RandomStuffTests/testFoo")
        XCTAssertEqual(foo.className, "RandomStuffTests")
        XCTAssertEqual(foo.methodName, "testFoo()")
        let skipped = try XCTUnwrap(xcode26.cases.first { $0.outcome == .skipped })
        XCTAssertEqual(skipped.messages, ["Test skipped - Required API is not available for this test."])
    }

    func testTheDurationTextIsReadWhenNoSecondsAreRecorded() throws {
        // Xcode 16.0 prints only "duration", with the recording Mac's decimal comma ("0,2s", "2s").
        let xcode16 = try results("codemagic_test-results-tests_xcode16.0.json")
        let seconds = Dictionary(uniqueKeysWithValues: xcode16.cases.map { ($0.identifier, $0.seconds) })
        XCTAssertEqual(try XCTUnwrap(seconds["banaanTests/testExceptionExample()"] ?? nil), 0.2, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(seconds["banaanUITests/testUIExample()"] ?? nil), 2, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(seconds["banaanTests/testExample()"] ?? nil), 0.00045, accuracy: 1e-9)
        XCTAssertEqual(
            Set(xcode16.cases.map(\.target)), ["banaanTests", "banaanUITests"], "each case is in its test bundle")
    }

    func testARepeatedCaseKeepsEachFailureMessageOnce() throws {
        let swiftTesting = try results("dbxc_SPM-26.1.1-iOS_test-results-tests.json")
        let failure = try XCTUnwrap(swiftTesting.cases.first { $0.identifier == "XCTestTests/test_failure()" })
        XCTAssertEqual(failure.messages, ["XCTestTests.swift:21: failed - Expected 5.0 but got 6.0"])
    }

    func testTheLegacyGraphGivesTargetsAndTimes() throws {
        let legacy = try results("codemagic_legacy_ActionTestPlanRunSummaries_testsRef.json")
        let failed = try XCTUnwrap(legacy.cases.first { $0.identifier == "banaanTests/testFailExample()" })
        XCTAssertEqual(failed.target, "banaanTests")
        XCTAssertEqual(try XCTUnwrap(failed.seconds), 0.0036939382553100586, accuracy: 1e-12)
        XCTAssertEqual(failed.onlyTesting, "banaanTests/banaanTests/testFailExample")
    }
}
