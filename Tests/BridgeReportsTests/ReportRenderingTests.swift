import BridgeReports
import XCTest

@testable import BridgeTesting

#if canImport(FoundationXML)
import FoundationXML
#endif

/// How the reports of a run read: well-formed JUnit for dashboards, JSON for programs, no values anywhere.
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

    func testJUnitIsWellFormedEvenWithMarkupAndControlCharactersInAnError() throws {
        let hostile = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"),
            nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "Error: <b>&\"'\u{1}\u{0} (about:blank:1:2)")),
            timeline: [], extraMessages: [])
        let xml = JUnitReport.render(.of(page: "p.html", [hostile, passed]))
        let parser = XMLParser(data: Data(xml.utf8))
        XCTAssertTrue(
            parser.parse(), "JUnit output is not well-formed XML: \(String(describing: parser.parserError))\n\(xml)")
        XCTAssertTrue(xml.contains(#"tests="4" failures="1""#), xml)
        XCTAssertTrue(xml.contains("&lt;b&gt;&amp;&quot;&apos;??"), xml)
    }

    func testJSONCarriesEverySessionAndTheVerdict() throws {
        let report = RunReport(
            pages: [BridgeReport(page: "a.html", sessions: [passed, failedReady])],
            contract: RunReport.Contract(name: "bridge", version: 1))
        let json = JSONReport.render(report)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(document["passed"] as? Bool, false)
        let page = try XCTUnwrap((document["pages"] as? [[String: Any]])?.first)
        let sessions = try XCTUnwrap(page["sessions"] as? [[String: Any]])
        XCTAssertEqual(sessions.count, 2)
        let verdict = try XCTUnwrap(sessions[1]["pageToNative"] as? [String: Any])
        XCTAssertEqual(verdict["status"] as? String, "fail")
    }

    // MARK: Hostile text (issue 14 items 8 and 12)

    func testCombiningMarksCountTowardTheCapsInTextAndHTML() {
        // One base character and 500,000 combining marks is one grapheme cluster: a cap that counts clusters
        // lets all 1 MB through, once per place it is shown.
        let marks = "e" + String(repeating: "\u{301}", count: 500_000)
        let report = SessionReport(
            load: .pass("didFinish"), pageToNative: .pass("ok"),
            nativeToPage: .fail(BridgeFailure(.pageDidNotAccept, "Error: " + marks)),
            timeline: [TimelineEntry(event: .notAccepted, milliseconds: 1, note: marks)], extraMessages: [])
        let text = report.text(session: 1)
        XCTAssertLessThan(
            text.utf8.count, 4 * (TerminalText.detailLimit + TerminalText.noteLimit) + 1_000,
            "not capped: \(text.utf8.count) bytes")
        XCTAssertTrue(text.contains("… [cut: "), "the cut is not noted")
        let html = HTMLReport.render(.of(page: "p.html", [report]))
        XCTAssertLessThan(html.utf8.count, 100_000, "the HTML report is not capped: \(html.utf8.count) bytes")
    }

    func testATallyKeepsCountsButOnlyABoundedNumberOfReports() {
        var tally = BridgeReport()
        for _ in 0..<10_000 { tally.add(passed) }
        for _ in 0..<1_000 { tally.add(failedReady) }
        XCTAssertEqual(tally.sessionCount, 11_000)
        XCTAssertEqual(tally.failedCount, 1_000)
        XCTAssertEqual(tally.kept.count, BridgeReport.keptFirst + BridgeReport.keptFailures)
        XCTAssertEqual(tally.kept.last?.session, 10_100)
        XCTAssertFalse(tally.onlyUnreachable)
        XCTAssertEqual(
            tally.summary,
            "FLAKY: native did not receive the page's message (1000 of 11000 sessions failed, 10000 passed)")
        XCTAssertEqual(
            tally.summary,
            BridgeReport(
                sessions: Array(repeating: passed, count: 10_000) + Array(repeating: failedReady, count: 1_000)
            ).summary)
        let xml = JUnitReport.render(.of(page: "p.html", tally))
        // The root and the page's suite both count every session, not only the kept ones.
        XCTAssertTrue(
            xml.contains(#"<testsuites name="webbridge check" tests="22000" failures="1000" errors="0" time=""#),
            String(xml.prefix(400)))
        XCTAssertTrue(xml.contains(#"tests="22000" failures="1000" errors="0" skipped="0""#), String(xml.prefix(400)))
        XCTAssertTrue(XMLParser(data: Data(xml.utf8)).parse())
    }

    /// What a dashboard reads: a suite named by the page, cases named by session and direction with the page as
    /// classname, each case's own time, a failure with the session's timeline as its body, counts on the root.
    func testJUnitNamesThePageTheSessionAndTheDirection() throws {
        let broken = SessionReport(
            load: .pass("didFinish"),
            pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no valid 'ready'; nothing arrived")),
            nativeToPage: .pass("document.body.dataset.received shows the sent text"),
            timeline: [
                TimelineEntry(event: .loadStarted, milliseconds: 0),
                TimelineEntry(event: .didFinish, milliseconds: 100),
                TimelineEntry(event: .syncSent, milliseconds: 150, note: "{kind: String, value: String}"),
                TimelineEntry(event: .accepted, milliseconds: 175),
            ], extraMessages: [])
        let xml = JUnitReport.render(.of([("web/good.html", [passed]), ("web/broken.html", [broken, broken])]))
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        let root = try XCTUnwrap(document.rootElement())
        let passedSeconds = (passed.timeline.last?.milliseconds ?? 0) / 1000
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "6")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "2")
        // Each suite counts its skipped cases; the root has no `skipped` (junit-10.xsd refuses it there).
        XCTAssertNil(root.attribute(forName: "skipped"))
        XCTAssertEqual(
            root.attribute(forName: "time")?.stringValue, String(format: "%.3f", passedSeconds + 2 * 0.175))
        let suites = try document.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, ["web/good.html", "web/broken.html"])
        XCTAssertEqual(suites[1].attribute(forName: "time")?.stringValue, "0.350", "the sessions' time, not twice it")
        let cases = try document.nodes(forXPath: "/testsuites/testsuite[2]/testcase").compactMap { $0 as? XMLElement }
        XCTAssertEqual(
            cases.map { $0.attribute(forName: "name")?.stringValue },
            [
                "session 1: page → native", "session 1: native → page", "session 2: page → native",
                "session 2: native → page",
            ])
        XCTAssertEqual(Set(cases.map { $0.attribute(forName: "classname")?.stringValue }), ["web/broken.html"])
        // page → native until native first sends (150 ms), native → page from then to the end (25 ms).
        XCTAssertEqual(cases.map { $0.attribute(forName: "time")?.stringValue }, ["0.150", "0.025", "0.150", "0.025"])
        let failure = try XCTUnwrap(cases[0].elements(forName: "failure").first)
        XCTAssertEqual(failure.attribute(forName: "type")?.stringValue, "native did not receive the page's message")
        let body = try XCTUnwrap(failure.stringValue)
        XCTAssertTrue(body.hasPrefix("session 1\n"), body)
        XCTAssertTrue(body.contains("sync sent         {kind: String, value: String}"), body)
        XCTAssertTrue(body.contains("page → native  FAIL"), body)
        XCTAssertTrue(cases[1].elements(forName: "failure").isEmpty)
    }
}
