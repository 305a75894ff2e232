import XCTest

@testable import BridgeTesting

#if canImport(FoundationXML)
import FoundationXML
#endif

/// How reports read: aligned verdicts for people, well-formed JUnit for dashboards, no values anywhere.
final class ReportRenderingTests: XCTestCase {
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
        let text = ReportRendering.text(session: 1, failedReady)
        XCTAssertTrue(text.contains("      12.5 ms  didFinish"), text)
        XCTAssertTrue(text.contains("  page → native  FAIL     native did not receive the page's message: "), text)
        XCTAssertTrue(text.contains("  native → page  PASS     document.body"), text)
        XCTAssertFalse(text.contains("also seen"), "a failed ready already lists what arrived:\n\(text)")
    }

    func testSummaryNamesEachFailedCategoryAndTheCount() {
        XCTAssertEqual(ReportRendering.summary([passed]), "PASS: both directions of the bridge hold (1 session)")
        XCTAssertEqual(
            ReportRendering.summary([passed, failedReady, failedReady]),
            "FAIL: native did not receive the page's message (2 of 3 sessions failed)")
    }

    func testJUnitIsWellFormedEvenWithMarkupAndControlCharactersInAnError() throws {
        let hostile = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"),
            nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "Error: <b>&\"'\u{1}\u{0} (about:blank:1:2)")),
            timeline: [], extraMessages: [])
        let xml = ReportRendering.junit([hostile, passed])
        let parser = XMLParser(data: Data(xml.utf8))
        XCTAssertTrue(
            parser.parse(), "JUnit output is not well-formed XML: \(String(describing: parser.parserError))\n\(xml)")
        XCTAssertTrue(xml.contains(#"tests="4" failures="1""#), xml)
        XCTAssertTrue(xml.contains("&lt;b&gt;&amp;&quot;&apos;??"), xml)
    }

    func testJSONCarriesEverySessionAndTheVerdict() throws {
        let json = ReportRendering.json([passed, failedReady])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(document["passed"] as? Bool, false)
        let sessions = try XCTUnwrap(document["sessions"] as? [[String: Any]])
        XCTAssertEqual(sessions.count, 2)
        let verdict = try XCTUnwrap(sessions[1]["pageToNative"] as? [String: Any])
        XCTAssertEqual(verdict["status"] as? String, "fail")
    }
}
