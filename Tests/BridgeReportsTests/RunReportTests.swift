import BridgeContract
import BridgeReports
import XCTest

@testable import BridgeTesting

/// The JSON report is the run's value encoded: identifiers beside their text, and every renderer draws the same
/// report from the decoded JSON as from the run itself.
final class RunReportTests: XCTestCase {
    let rejected = SessionReport(
        load: .pass("didFinish"),
        pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no valid 'ready'")),
        nativeToPage: .notRun("the page never sent its ready"),
        timeline: [
            TimelineEntry(event: .loadStarted, milliseconds: 0),
            TimelineEntry(event: .messageRejected, milliseconds: 4, note: "{kind: String, version: String}"),
            TimelineEntry(event: .didFinish, milliseconds: 12.5),
        ],
        extraMessages: [],
        rejections: [
            BridgeRejection(
                structure: "{kind: String, version: String}",
                violations: [
                    ContractViolation(path: "version", rule: .wrongType, expected: "Number 1", found: "String")
                ])
        ])
    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready {kind: String, version: Number}"),
        nativeToPage: .pass("shown"), timeline: [TimelineEntry(event: .syncSent, milliseconds: 3)], extraMessages: [])

    var report: RunReport {
        RunReport(
            pages: [
                BridgeReport(page: "a.html", sessions: [passed, rejected, passed]),
                BridgeReport(page: "b.html", sessions: [passed]),
            ],
            contract: RunReport.Contract(name: "checkout", version: 3), shards: [RunReport.Shard(index: 1, count: 2)],
            // A whole millisecond: the JSON keeps milliseconds, and the HTML header shows the start.
            startedAt: Date(timeIntervalSince1970: 1_796_000_000.512))
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testCategoriesRulesAndStatusesAreIdentifiersWithTheirTextBeside() throws {
        let document = try json(JSONReport.render(report))
        XCTAssertEqual(document["schema"] as? Int, 1)
        let counts = try XCTUnwrap(document["failedByCategory"] as? [[String: Any]])
        XCTAssertEqual(counts.first?["category"] as? String, "native-did-not-receive")
        XCTAssertEqual(counts.first?["categoryText"] as? String, FailureCategory.nativeDidNotReceive.rawValue)
        let session = try XCTUnwrap(((document["pages"] as? [[String: Any]])?[0]["sessions"] as? [[String: Any]])?[1])
        let failure = try XCTUnwrap((session["pageToNative"] as? [String: Any])?["failure"] as? [String: Any])
        XCTAssertEqual(failure["category"] as? String, "native-did-not-receive")
        XCTAssertEqual((session["nativeToPage"] as? [String: Any])?["status"] as? String, "not-run")
        let violation = try XCTUnwrap(
            ((session["rejections"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]])?.first)
        XCTAssertEqual(violation["rule"] as? String, "wrong-type")
        XCTAssertEqual(violation["ruleText"] as? String, "a field has another JS type")
        XCTAssertEqual(
            Set(violation.keys), ["path", "rule", "ruleText", "expected", "found", "direction", "remedy"])
    }

    /// What `report merge` relies on: the decoded JSON renders exactly the JSON, JUnit and HTML of the run.
    func testEveryRendererDrawsTheSameReportFromTheDecodedJSON() throws {
        let original = report
        let text = JSONReport.render(original)
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(text.utf8))
        XCTAssertEqual(JSONReport.render(decoded), text)
        XCTAssertEqual(JUnitReport.render(decoded), JUnitReport.render(original))
        XCTAssertEqual(HTMLReport.render(decoded), HTMLReport.render(original))
        XCTAssertEqual(TextReport.render(decoded), TextReport.render(original))
        XCTAssertEqual(decoded.contract, original.contract)
        XCTAssertEqual(decoded.shards, original.shards)
        XCTAssertEqual(decoded.pages, original.pages, "each page's report reads back as the same value")
    }

    func testCountsThatContradictTheSessionsAreRefused() throws {
        var document = try json(JSONReport.render(report))
        var pages = try XCTUnwrap(document["pages"] as? [[String: Any]])
        pages[0]["failedCount"] = 0
        document["pages"] = pages
        let data = try JSONSerialization.data(withJSONObject: document)
        XCTAssertThrowsError(try JSONDecoder().decode(RunReport.self, from: data)) { error in
            XCTAssertTrue("\(error)".contains("do not fit the 3 sessions listed"), "\(error)")
        }
    }

    func testAnotherSchemaIsRefused() throws {
        var document = try json(JSONReport.render(report))
        document["schema"] = 2
        let data = try JSONSerialization.data(withJSONObject: document)
        XCTAssertThrowsError(try JSONDecoder().decode(RunReport.self, from: data))
    }
}
