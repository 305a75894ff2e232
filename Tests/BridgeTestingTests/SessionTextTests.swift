import XCTest

@testable import BridgeTesting

/// How a session reads as text: aligned verdicts, escaped and capped notes, repeats grouped, no values anywhere.
final class SessionTextTests: XCTestCase {
    let failedReady = SessionReport(
        load: .pass("didFinish"),
        pageToNative: .fail(
            BridgeFailure(.nativeDidNotReceive, "no valid 'ready'; what arrived instead: {kind: String}")),
        nativeToPage: .pass("document.body.dataset.received shows the sent text"),
        timeline: [
            TimelineEntry(event: .loadStarted, milliseconds: 0), TimelineEntry(event: .didFinish, milliseconds: 12.5),
        ],
        extraMessages: ["rejected {kind: String}: version: expected Number 1, found Missing"])

    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready {kind: String, version: Number}"),
        nativeToPage: .pass("shown"), timeline: [], extraMessages: [])

    func testTextAlignsVerdictsAndListsWhatArrivedOnlyOnce() {
        let text = failedReady.text(session: 1)
        XCTAssertTrue(text.contains("      12.5 ms  didFinish"), text)
        XCTAssertTrue(text.contains("  page → native  FAIL     native did not receive the page's message: "), text)
        XCTAssertTrue(text.contains("  native → page  PASS     document.body"), text)
        XCTAssertFalse(text.contains("also seen"), "a failed ready already lists what arrived:\n\(text)")
    }

    func testSummaryNamesEachFailedCategoryAndTheCount() {
        XCTAssertEqual(BridgeReport(sessions: [passed]).summary, "PASS: both directions of the bridge hold (1 session)")
        XCTAssertEqual(
            BridgeReport(sessions: [passed, failedReady, failedReady]).summary,
            "FLAKY: native did not receive the page's message (2 of 3 sessions failed, 1 passed)")
        XCTAssertEqual(
            BridgeReport(sessions: [failedReady, failedReady]).summary,
            "FAIL: native did not receive the page's message (2 of 2 sessions failed)")
    }

    func testEveryTimelineLabelFitsItsColumn() {
        let report = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"), nativeToPage: .pass("ok"),
            timeline: [
                TimelineEntry(event: .navigated, milliseconds: 3, note: "about:blank"),
                TimelineEntry(event: .processTerminated, milliseconds: 4, note: "crashed"),
            ], extraMessages: [])
        let text = report.text(session: 1)
        XCTAssertTrue(text.contains("page navigated away     about:blank"), text)
        XCTAssertTrue(text.contains("web process terminated  crashed"), text)
    }

    func testControlCharactersFromThePageAreEscaped() {
        let report = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"),
            nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "Error: \u{1B}[2J\rok\u{07}\u{9B}\u{202E}")),
            timeline: [TimelineEntry(event: .notAccepted, milliseconds: 1, note: "\u{1B}]0;title\u{07}")],
            extraMessages: [])
        let text = report.text(session: 1)
        XCTAssertFalse(
            text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, text)
        XCTAssertTrue(text.contains(#"Error: \u{1B}[2J\rok\u{7}\u{9B}\u{202E}"#), text)
        XCTAssertTrue(text.contains(#"\u{1B}]0;title\u{7}"#), text)
    }

    func testALongErrorIsCutWithANoteAndShownOnce() {
        let error = "Error: " + String(repeating: "x", count: 100_000)
        let report = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"),
            nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, error)),
            timeline: [TimelineEntry(event: .notAccepted, milliseconds: 1, note: error)], extraMessages: [])
        let text = report.text(session: 1)
        XCTAssertLessThan(text.utf8.count, TerminalText.detailLimit + 1_000, "not capped")
        XCTAssertEqual(text.components(separatedBy: "Error: ").count - 1, 1, text)
        XCTAssertTrue(text.contains("… [cut: "), text)
        XCTAssertTrue(text.contains("(the error below)"), text)
    }

    func testRepeatsAreGroupedAsTimesN() {
        let rejected = "{kind: String}: kind: expected one of: ready"
        let report = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"), nativeToPage: .pass("ok"),
            timeline: Array(
                repeating: TimelineEntry(event: .messageRejected, milliseconds: 1, note: rejected), count: 1_000),
            extraMessages: Array(repeating: "rejected \(rejected)", count: 1_000))
        let text = report.text(session: 1)
        XCTAssertEqual(text.split(separator: "\n").count, 5, text)
        XCTAssertTrue(text.contains("message rejected  \(rejected) × 1000"), text)
        XCTAssertTrue(text.contains("also seen: rejected \(rejected) × 1000"), text)

        let failed = SessionReport(
            load: .pass("didFinish"),
            pageToNative: .fail(
                BridgeFailure(
                    .nativeDidNotReceive,
                    "no valid 'ready'; what arrived instead: "
                        + Array(repeating: "{kind: String}", count: 500)
                        .joined(separator: " | "))),
            nativeToPage: .pass("ok"), timeline: [], extraMessages: [])
        XCTAssertTrue(
            failed.text(session: 1).contains("what arrived instead: {kind: String} × 500"),
            failed.text(session: 1))
    }
}
