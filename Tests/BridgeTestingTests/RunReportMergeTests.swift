import BridgeContract
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
            PageTally(name: "p\($0)", tally: SessionTally([$0 == 4 ? failed : passed]))
        }
        return RunReport(pages: pages, contract: contract, shards: [RunReport.Shard(index: index, count: count)])
    }

    func names(_ report: RunReport) -> [String] { report.pages.map(\.name) }

    func testShardsOfUnevenSizeGoBackInListOrderInAnyOrderGiven() throws {
        let list = (0..<7).map { "p\($0)" }
        let shards = (1...3).map { shard($0, of: 3, total: 7) }
        let merged = try RunReport.merged([("3", shards[2]), ("1", shards[0]), ("2", shards[1])])
        XCTAssertEqual(names(merged), list)
        XCTAssertEqual(merged.shards.map(\.index), [1, 2, 3])
        XCTAssertFalse(merged.suite.passed)
        // A merged report of some shards merges again with the rest.
        let partial = try RunReport.merged([("1", shards[0]), ("3", shards[2])])
        XCTAssertEqual(names(try RunReport.merged([("1+3", partial), ("2", shards[1])])), list)
    }

    func testRunsOfOnePageKeepEverySessionNumberedOn() throws {
        let first = RunReport(pages: [PageTally(name: "a", tally: SessionTally([passed, passed]))], contract: contract)
        let second = RunReport(
            pages: [
                PageTally(name: "a", tally: SessionTally([failed])), PageTally(name: "b", tally: SessionTally([])),
            ],
            contract: contract)
        let merged = try RunReport.merged([("first", first), ("second", second)])
        XCTAssertEqual(names(merged), ["a", "b"])
        let tally = merged.pages[0].tally
        XCTAssertEqual(tally.count, 3)
        XCTAssertEqual(tally.failedCount, 1)
        XCTAssertEqual(tally.kept.map(\.session), [1, 2, 3])
        XCTAssertEqual(tally.failedCategories, [.nativeDidNotReceive])
        XCTAssertFalse(tally.onlyUnreachable)
    }

    func testAFileThatDoesNotBelongIsRefusedWithItsRule() {
        let one = shard(1, of: 2, total: 4)
        let cases: [(RunReport, ReportFileError.Code)] = [
            (one, .duplicateShard),
            (shard(1, of: 3, total: 4), .otherSplit),
            (RunReport(pages: [], contract: contract), .otherSplit),
            (RunReport(pages: [], contract: RunReport.Contract(name: "checkout", version: 3)), .otherContract),
        ]
        for (other, code) in cases {
            XCTAssertThrowsError(try RunReport.merged([("a.json", one), ("b.json", other)])) { error in
                let error = error as? ReportFileError
                XCTAssertEqual(error?.code, code)
                XCTAssertEqual(error?.file, "b.json")
                XCTAssertTrue(error?.description.contains(". Remedy: ") == true, "\(String(describing: error))")
            }
        }
    }
}
