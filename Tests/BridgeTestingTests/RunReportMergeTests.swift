import BridgeContract
import BridgeReports
import XCTest

@testable import BridgeTesting

/// Merging reports: shards back in list order whatever their sizes or the order given, runs of a page joined,
/// and the files that do not belong refused with the rule they break.
final class RunReportMergeTests: XCTestCase {
    let contract = RunReport.Contract(name: "checkout", version: 2)
    let passed = SessionReport(
        load: .pass("didFinish"), pageToNative: .pass("ready"), nativeToPage: .pass("shown"),
        timeline: [TimelineEntry(event: .syncSent, milliseconds: 3)], extraMessages: [])
    let failed = SessionReport(
        load: .pass("didFinish"), pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no valid 'ready'")),
        nativeToPage: .notRun("no ready"), timeline: [], extraMessages: [])

    /// The shard `index`/`count` of a list of `total` pages named p0, p1, …, as `--shard` selects them.
    func shard(_ index: Int, of count: Int, total: Int) -> RunReport {
        let pages = (0..<total).filter { $0 % count == index - 1 }.map {
            BridgeReport(page: "p\($0)", sessions: [$0 == 4 ? failed : passed])
        }
        return RunReport(pages: pages, contract: contract, shards: [RunReport.Shard(index: index, count: count)])
    }

    func names(_ report: RunReport) -> [String] { report.pages.map(\.page) }

    func testShardsOfUnevenSizeGoBackInListOrderInAnyOrderGiven() throws {
        let list = (0..<7).map { "p\($0)" }
        let shards = (1...3).map { shard($0, of: 3, total: 7) }
        let merged = try RunReport.merged([("3", shards[2]), ("1", shards[0]), ("2", shards[1])])
        XCTAssertEqual(names(merged), list)
        XCTAssertEqual(merged.shards.map(\.index), [1, 2, 3])
        XCTAssertFalse(merged.failedPages.isEmpty)
        // A merged report of some shards merges again with the rest.
        let partial = try RunReport.merged([("1", shards[0]), ("3", shards[2])])
        XCTAssertEqual(names(try RunReport.merged([("1+3", partial), ("2", shards[1])])), list)
    }

    func testRunsOfOnePageKeepEverySessionNumberedOn() throws {
        let first = RunReport(pages: [BridgeReport(page: "a", sessions: [passed, passed])], contract: contract)
        let second = RunReport(
            pages: [
                BridgeReport(page: "a", sessions: [failed]), BridgeReport(page: "b", sessions: []),
            ],
            contract: contract)
        let merged = try RunReport.merged([("first", first), ("second", second)])
        XCTAssertEqual(names(merged), ["a", "b"])
        let tally = merged.pages[0]
        XCTAssertEqual(tally.sessionCount, 3)
        XCTAssertEqual(tally.failedCount, 1)
        XCTAssertEqual(tally.kept.map(\.session), [1, 2, 3])
        XCTAssertEqual(tally.failedCategories, [.nativeDidNotReceive])
        XCTAssertFalse(tally.onlyUnreachable)
    }

    func testAFileThatDoesNotBelongIsRefusedWithItsRule() {
        let one = shard(1, of: 2, total: 4)
        let cases: [(RunReport, CheckError.Code)] = [
            (one, .duplicateShard),
            (shard(1, of: 3, total: 4), .otherSplit),
            (RunReport(pages: [], contract: contract), .otherSplit),
            (RunReport(pages: [], contract: RunReport.Contract(name: "checkout", version: 3)), .otherContract),
        ]
        for (other, code) in cases {
            XCTAssertThrowsError(try RunReport.merged([("a.json", one), ("b.json", other)])) { error in
                let error = error as? CheckError
                XCTAssertEqual(error?.code, code)
                XCTAssertEqual(error?.file, "b.json")
                XCTAssertTrue(error?.description.contains(". Remedy: ") == true, "\(String(describing: error))")
            }
        }
    }

    /// A report is input: every number in it is checked before a merge uses it, and one out of its range is refused
    /// naming the field and the rule (a shard count of 0 or -3 crashed the merge, 10^18 ran past a minute, and
    /// index 5 of 3 was merged).
    func testEveryNumberOfAReportIsCheckedBeforeUse() throws {
        let written = Data(JSONReport.render(shard(1, of: 2, total: 4)).utf8)
        let original = try XCTUnwrap(JSONSerialization.jsonObject(with: written) as? [String: Any])
        func variant(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var document = original
            change(&document)
            return try JSONSerialization.data(withJSONObject: document)
        }
        func page(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
            {
                var pages = $0["pages"] as! [[String: Any]]
                pages[0][key] = value
                $0["pages"] = pages
            }
        }
        let cases: [(change: (inout [String: Any]) -> Void, field: String, rule: String)] = [
            (
                { $0["shards"] = [["index": 1, "count": 0]] }, "shards[0].count",
                "0 is not a shard count (the rule: 1 <= count <= 10000"
            ),
            ({ $0["shards"] = [["index": 1, "count": -3]] }, "shards[0].count", "-3 is not a shard count"),
            (
                { $0["shards"] = [["index": 1, "count": 1_000_000_000_000_000_000]] }, "shards[0].count",
                "1000000000000000000 is not a shard count"
            ),
            (
                { $0["shards"] = [["index": 5, "count": 3]] }, "shards[0].index",
                "5 is not a shard of 3 (the rule: 1 <= index <= count)"
            ),
            ({ $0["shards"] = [["index": 0, "count": 3]] }, "shards[0].index", "0 is not a shard of 3"),
            (
                page("sessionCount", Int.max), "pages[0].sessionCount",
                "is not a count (the rule: 0 <= count <= 1000000000000)"
            ),
            (page("failedCount", -1), "pages[0].failedCount", "-1 is not a count"),
            (page("skippedDirections", -2), "pages[0].skippedDirections", "-2 is not a count"),
            (page("seconds", -0.5), "pages[0].seconds", "-0.5 is not a duration"),
            ({ $0["timeout"] = 0 }, "timeout", "0.0 is not a timeout (the rule: seconds, more than 0, at most 86400)"),
            ({ $0["startedAt"] = "yesterday" }, "startedAt", "not an ISO 8601 date and time"),
        ]
        for (change, field, rule) in cases {
            XCTAssertThrowsError(try RunReport.read(try variant(change), file: "r.json"), field) { error in
                let error = error as? CheckError
                XCTAssertEqual(error?.code, .invalidValue, field)
                XCTAssertEqual(error?.field, field)
                XCTAssertTrue(error?.problem.contains(rule) == true, "\(field): \(String(describing: error))")
                XCTAssertTrue(error?.description.hasPrefix("r.json: \(field): ") == true)
                XCTAssertTrue(error?.description.contains(". Remedy: ") == true)
            }
        }
        // A session numbered past the page's count is refused too, not drawn.
        let renumbered = try variant {
            var pages = $0["pages"] as! [[String: Any]]
            var sessions = pages[0]["sessions"] as! [[String: Any]]
            sessions[0]["session"] = 7
            pages[0]["sessions"] = sessions
            $0["pages"] = pages
        }
        XCTAssertThrowsError(try RunReport.read(renumbered, file: "r.json")) { error in
            XCTAssertEqual((error as? CheckError)?.field, "pages[0].sessions")
        }
        XCTAssertNoThrow(try RunReport.read(written, file: "r.json"), "the report as written reads back")
    }

    /// A merge of part of a split has no verdict: the missing shards are named and the report never passes.
    func testAMergeThatLacksAShardNeverPasses() throws {
        let passing = RunReport(
            pages: [BridgeReport(page: "p0", sessions: [passed])], contract: contract,
            shards: [RunReport.Shard(index: 1, count: 2)])
        XCTAssertTrue(passing.failedPages.isEmpty)
        let merged = try RunReport.merged([("1", passing)])
        XCTAssertEqual(merged.missingShards, [RunReport.Shard(index: 2, count: 2)])
        XCTAssertFalse(merged.passed)
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReport.render(merged).utf8)) as? [String: Any])
        XCTAssertEqual(document["passed"] as? Bool, false)
    }

    /// The merged report keeps the runs' metadata: the earliest start, the longest timeout, each engine once.
    func testAMergeKeepsTheEarliestStartTheLongestTimeoutAndEachEngine() throws {
        let early = Date(timeIntervalSince1970: 1_800_000_000)
        func run(_ index: Int, start: Date, timeout: Double, engine: String) -> RunReport {
            RunReport(
                pages: [], contract: contract, shards: [RunReport.Shard(index: index, count: 3)], startedAt: start,
                timeout: timeout, engine: engine)
        }
        let merged = try RunReport.merged([
            ("2", run(2, start: early.addingTimeInterval(60), timeout: 10, engine: "WebKitGTK 2.48.3")),
            ("1", run(1, start: early, timeout: 30, engine: "WebKitGTK 2.48.3")),
            ("3", run(3, start: early.addingTimeInterval(5), timeout: 10, engine: "WebKitGTK 2.50.0")),
        ])
        XCTAssertEqual(merged.startedAt, early)
        XCTAssertEqual(merged.timeout, 30)
        XCTAssertEqual(merged.engine, "WebKitGTK 2.48.3; WebKitGTK 2.50.0")
        let reread = try RunReport.read(Data(JSONReport.render(merged).utf8), file: "m.json")
        XCTAssertEqual(reread.startedAt, early)
        XCTAssertEqual(reread.timeout, 30)
        XCTAssertEqual(reread.engine, merged.engine)
    }

    /// Balanced shards of a 40-page suite with skewed durations (a few pages take most of the time) differ in total
    /// time by at most the longest page, for every split; each page is in exactly one shard, and pages without a
    /// time are spread evenly by number.
    func testBalancedShardsDifferInTotalTimeByAtMostTheLongestPage() {
        var random = SystemRandomNumberGenerator()
        for trial in 0..<50 {
            let durations: [Double?] = (0..<40).map { index in
                index % 9 == 0 ? Double.random(in: 20...90, using: &random) : Double.random(in: 0.1...3, using: &random)
            }
            let longest = durations.compactMap { $0 }.max()!
            for count in 2...8 {
                let shards = RunReport.Shard.balanced(count: count, durations: durations)
                XCTAssertEqual(shards.count, 40)
                XCTAssertTrue(shards.allSatisfy { (1...count).contains($0) })
                let totals = (1...count).map { shard in
                    zip(shards, durations).filter { $0.0 == shard }.reduce(0) { $0 + $1.1! }
                }
                XCTAssertLessThanOrEqual(
                    totals.max()! - totals.min()!, longest + 1e-9, "trial \(trial), \(count) shards: \(totals)")
                XCTAssertEqual(RunReport.Shard.balanced(count: count, durations: durations), shards, "deterministic")
            }
        }
        // The modulo split (--shard without --durations) does not hold the bound on the same kind of list.
        let skewed: [Double?] = (0..<40).map { $0 % 4 == 0 ? 60 : 1 }
        let modulo = (1...4).map { shard in
            skewed.indices.filter { $0 % 4 == shard - 1 }.reduce(0) { $0 + skewed[$1]! }
        }
        XCTAssertGreaterThan(modulo.max()! - modulo.min()!, 60)
        let balanced = RunReport.Shard.balanced(count: 4, durations: skewed)
        let balancedTotals = (1...4).map { shard in
            zip(balanced, skewed).filter { $0.0 == shard }.reduce(0) { $0 + $1.1! }
        }
        XCTAssertLessThanOrEqual(balancedTotals.max()! - balancedTotals.min()!, 60)
        // Untimed pages: by number.
        let mixed: [Double?] = (0..<10).map { $0 < 2 ? 5 : nil }
        let spread = RunReport.Shard.balanced(count: 3, durations: mixed)
        let untimedCounts = (1...3).map { shard in (2..<10).filter { spread[$0] == shard }.count }
        XCTAssertLessThanOrEqual(untimedCounts.max()! - untimedCounts.min()!, 1, "\(spread)")
    }
}
