import XCTest

@testable import BridgeTesting

/// One page's report: every session of a check of a few, the first and the failed ones of a long run, and the
/// verdict, count and categories over every session either way.
final class BridgeReportTests: XCTestCase {
    let failedReady = SessionReport(
        load: .pass("didFinish"),
        pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no valid 'ready'")),
        nativeToPage: .notRun("the page never sent its ready"),
        timeline: [TimelineEntry(event: .didFinish, milliseconds: 12.5)], extraMessages: [])

    let notAccepted = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready {kind: String}"),
        nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "the receiver threw")),
        timeline: [TimelineEntry(event: .didFinish, milliseconds: 8)], extraMessages: [])

    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready {kind: String}"), nativeToPage: .pass("shown"),
        timeline: [TimelineEntry(event: .didFinish, milliseconds: 10)], extraMessages: [])

    func testAReportOfItsSessionsKeepsEveryOne() {
        let sessions = Array(repeating: passed, count: 200) + [failedReady]
        let report = BridgeReport(page: "p.html", sessions: sessions)
        XCTAssertEqual(report.sessions, sessions)
        XCTAssertEqual(report.sessionCount, 201)
        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.failedCategories, [.nativeDidNotReceive])
        XCTAssertTrue(report.failureText?.contains("session 201") ?? false, report.failureText ?? "passed")
    }

    func testALongRunKeepsTheFirstAndTheFailedSessionsAndCountsEveryOne() {
        var report = BridgeReport(page: "p.html")
        for _ in 0..<(BridgeReport.keptFirst + BridgeReport.keptFailures + 50) { report.add(failedReady) }
        report.add(notAccepted)
        XCTAssertEqual(report.sessions.count, BridgeReport.keptFirst + BridgeReport.keptFailures)
        XCTAssertEqual(report.sessionCount, BridgeReport.keptFirst + BridgeReport.keptFailures + 51)
        XCTAssertEqual(report.omitted, 51)
        XCTAssertFalse(report.sessions.contains(notAccepted), "the 101st failure after the first 10 is not kept")
        XCTAssertEqual(
            report.failedCategories, [.nativeDidNotReceive, .pageDidNotAccept],
            "a category is counted from a session not kept, in the order it first failed")
    }

    func testASetupErrorFailsWithNoSession() {
        let report = BridgeReport(page: "p.html", setupError: "the page p.html can't be read")
        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.sessionCount, 0)
        XCTAssertEqual(report.failureText, "FAIL: the page p.html can't be read")
    }
}
