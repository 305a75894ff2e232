import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `webbridge report merge`: the JSON reports of a shard matrix (or of runs) become the report of the whole list,
/// in any format, and a file that does not belong is refused naming the file, the field, the rule and the remedy.
final class ReportCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// A folder of five pages, the third broken (its ready's version is a String).
    private func pages() throws -> String {
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let folder = scratch.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 1...5 {
            let html = number == 3 ? fixture.replacingOccurrences(of: "version: 1", with: #"version: "1""#) : fixture
            try html.write(to: folder.appendingPathComponent("p\(number).html"), atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    /// What a merge must keep of a report: every page in order with its verdict, counts and categories (times
    /// differ from run to run).
    private func outline(_ document: [String: Any]) -> [String] {
        let pages = (document["pages"] as? [[String: Any]]) ?? []
        return pages.map { page in
            let categories = ((page["failedCategories"] as? [[String: Any]]) ?? []).compactMap { $0["category"] }
            return "\(page["page"] ?? "?") passed=\(page["passed"] ?? "?") sessions=\(page["sessionCount"] ?? "?") "
                + "failed=\(page["failedCount"] ?? "?") \(categories)"
        } + ["passed=\(document["passed"] ?? "?") failedPages=\(document["failedPages"] ?? "?")"]
    }

    func testTheShardsOfAMatrixMergeIntoTheReportOfTheWholeList() throws {
        let folder = try pages()
        let whole = try CLI.run(["check", "--page", folder, "--format", "json"])
        XCTAssertEqual(whole.status, 1, whole.stderr)
        let expected = outline(try SchemaCheck.validReport(whole.stdout))
        for count in [2, 3] {
            var files: [String] = []
            for index in 1...count {
                let file = path("shard-\(index)-of-\(count).json")
                let run = try CLI.run([
                    "check", "--page", folder, "--shard", "\(index)/\(count)", "--report", "json=\(file)",
                ])
                XCTAssertTrue([0, 1].contains(run.status), run.stdout + run.stderr)
                files.append(file)
            }
            // In any order: the shards say where their pages were in the list.
            let junit = path("merged-\(count).xml")
            let html = path("merged-\(count).html")
            let merged = try CLI.run(
                ["report", "merge", "--format", "json", "--report", "junit=\(junit)", "--report", "html=\(html)"]
                    + files.reversed())
            XCTAssertEqual(merged.status, 1, "a broken page fails the merge as it fails the run\n\(merged.stderr)")
            let document = try SchemaCheck.validReport(merged.stdout)
            XCTAssertEqual(outline(document), expected, "\(count) shards merged")
            XCTAssertEqual(
                (document["shards"] as? [[String: Int]])?.map { $0["index"] ?? 0 }, Array(1...count), merged.stdout)

            let names = (1...5).map { "\(folder)/p\($0).html" }
            let suites = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)))
                .nodes(forXPath: "/testsuites/testsuite").compactMap { ($0 as? XMLElement)?.attribute(forName: "name") }
            XCTAssertEqual(suites.map(\.stringValue), names, "JUnit: a suite per page, in list order")
            let page = try String(contentsOfFile: html, encoding: .utf8)
            let sections = names.compactMap {
                page.range(of: "data-page=\"\($0)\" data-passed=")?.lowerBound
            }
            XCTAssertEqual(sections.count, 5, "HTML: a section per page")
            // The HTML report draws failed pages first, each group in list order, as a run's own report does.
            let failed = Set(
                ((document["pages"] as? [[String: Any]]) ?? []).filter { $0["passed"] as? Bool == false }
                    .compactMap { $0["page"] as? String })
            let order = zip(names, sections).sorted { $0.1 < $1.1 }.map(\.0)
            XCTAssertEqual(
                order, names.filter(failed.contains) + names.filter { !failed.contains($0) },
                "HTML: failed pages first, then the rest, each in list order")
        }
    }

    /// `--shard I/N --durations REPORT` splits by the measured times (one slow page alone, the rest together),
    /// and the merge puts the balanced shards' pages back in list order.
    func testShardsBalancedByDurationsSplitByTimeAndMergeInListOrder() throws {
        let folder = try pages()
        let timed = path("whole.json")
        let whole = try CLI.run(["check", "--page", folder, "--report", "json=\(timed)", "--format", "json"])
        XCTAssertEqual(whole.status, 1, whole.stderr)
        let expected = outline(try SchemaCheck.validReport(whole.stdout))
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: timed))) as? [String: Any])
        var listed = try XCTUnwrap(document["pages"] as? [[String: Any]])
        for index in listed.indices { listed[index]["seconds"] = index == 0 ? 50.0 : 1.0 }
        document["pages"] = listed
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: timed))
        var files: [String] = []
        for index in 1...2 {
            let file = path("balanced-\(index).json")
            let run = try CLI.run([
                "check", "--page", folder, "--shard", "\(index)/2", "--durations", timed, "--report", "json=\(file)",
            ])
            XCTAssertTrue([0, 1].contains(run.status), run.stdout + run.stderr)
            let shard = try SchemaCheck.validReport(String(contentsOfFile: file, encoding: .utf8))
            let names = ((shard["pages"] as? [[String: Any]]) ?? []).compactMap { $0["page"] as? String }
            XCTAssertEqual(
                names, index == 1 ? ["\(folder)/p1.html"] : (2...5).map { "\(folder)/p\($0).html" },
                "shard \(index)/2 by time")
            files.append(file)
        }
        let merged = try CLI.run(["report", "merge", "--format", "json"] + files.reversed())
        XCTAssertEqual(merged.status, 1, merged.stderr)
        XCTAssertEqual(outline(try SchemaCheck.validReport(merged.stdout)), expected)
        let modulo = path("modulo.json")
        _ = try CLI.run(["check", "--page", folder, "--shard", "2/2", "--report", "json=\(modulo)"])
        let mixed = try CLI.run(["report", "merge", files[0], modulo])
        XCTAssertEqual(mixed.status, 2, mixed.stdout + mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("(other-split)"), mixed.stderr)
    }

    func testRunsOfAPageKeepEverySessionAndTheTextSummaryCounts() throws {
        let first = path("first.json")
        let second = path("second.json")
        XCTAssertEqual(try CLI.run(["check", "--report", "json=\(first)"]).status, 0)
        XCTAssertEqual(try CLI.run(["check", "--repeat", "2", "--report", "json=\(second)"]).status, 0)
        let merged = try CLI.run(["report", "merge", first, second])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(
            merged.stdout.hasPrefix("webbridge report merge: 2 reports, contract 'bridge' v1, webbridge "),
            merged.stdout)
        XCTAssertTrue(merged.stdout.contains("pages: 1 passed, 0 failed (of 1)"), merged.stdout)
        let json = try CLI.run(["report", "merge", "--format", "json", first, second])
        let page = try SchemaCheck.onlyPage(try SchemaCheck.validReport(json.stdout))
        XCTAssertEqual(page["sessionCount"] as? Int, 3)
        XCTAssertEqual((page["sessions"] as? [[String: Any]])?.map { $0["session"] as? Int }, [1, 2, 3])
    }

    func testAMissingShardIsNamedOnStderrAndInTheHTMLReport() throws {
        let folder = try pages()
        let file = path("shard-3.json")
        _ = try CLI.run(["check", "--page", folder, "--shard", "3/3", "--report", "json=\(file)"])
        let merged = try CLI.run(["report", "merge", "--format", "html", file])
        XCTAssertEqual(merged.status, 1, "shard 3/3 holds the broken page\n\(merged.stderr)")
        XCTAssertTrue(
            merged.stderr.contains("shards 1, 2 of 3 missing: their pages are not in this report"), merged.stderr)
        XCTAssertTrue(
            merged.stdout.contains("<p class=\"notice\">INCOMPLETE: shards 1, 2 of 3 missing"), merged.stdout)
    }

    /// The merge of shard 1 of 2 alone, every page passing, fails: the pages of shard 2 never ran.
    func testTheMergeOfOneShardOfTwoFails() throws {
        let file = path("shard-1.json")
        let run = try CLI.run(["check", "--shard", "1/2", "--report", "json=\(file)"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        for format in ["text", "json", "junit", "html"] {
            let merged = try CLI.run(["report", "merge", "--format", format, file])
            XCTAssertEqual(merged.status, 1, "\(format): a merge that lacks a shard is no pass\n\(merged.stderr)")
            XCTAssertTrue(
                merged.stderr.contains("shard 2 of 2 missing: its pages are not in this report"), merged.stderr)
            if format == "text" {
                let last = merged.stdout.split(separator: "\n").last.map(String.init) ?? ""
                XCTAssertEqual(last, "INCOMPLETE: shard 2 of 2 missing: its pages are not in this report; no verdict")
            }
            if format == "json" {
                XCTAssertEqual(try SchemaCheck.validReport(merged.stdout)["passed"] as? Bool, false, merged.stdout)
            }
        }
    }

    /// A shard count or index out of range is refused naming the file, the field and the rule: 0 and -3 crashed
    /// the merge, and index 5 of 3 was merged.
    func testAShardOutOfRangeIsRefusedNamingTheFieldAndTheRule() throws {
        let report = path("one.json")
        XCTAssertEqual(try CLI.run(["check", "--shard", "1/1", "--report", "json=\(report)"]).status, 0)
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        for (shard, expected) in [
            ((1, 0), "shards[0].count: 0 is not a shard count (the rule: 1 <= count <= 10000, as --shard I/N takes N)"),
            ((1, -3), "shards[0].count: -3 is not a shard count"),
            ((5, 3), "shards[0].index: 5 is not a shard of 3 (the rule: 1 <= index <= count)"),
        ] {
            document["shards"] = [["index": shard.0, "count": shard.1]]
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: report))
            let merged = try CLI.run(["report", "merge", report])
            XCTAssertEqual(merged.status, 2, merged.stdout + merged.stderr)
            XCTAssertTrue(merged.stderr.contains("\(report): \(expected)"), merged.stderr)
            XCTAssertTrue(merged.stderr.contains("(invalid-value). Remedy: "), merged.stderr)
            XCTAssertTrue(merged.stdout.isEmpty, merged.stdout)
        }
    }

    /// Every JSON report records when its run started, the timeout, the engine and the contract; the merged HTML
    /// shows them, not the merge's own date.
    func testEveryReportRecordsItsRunAndTheMergedHTMLShowsIt() throws {
        let before = Date()
        let file = path("run.json")
        XCTAssertEqual(try CLI.run(["check", "--timeout", "30", "--report", "json=\(file)"]).status, 0)
        let after = Date()
        let document = try SchemaCheck.validReport(String(contentsOfFile: file, encoding: .utf8))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let started = try XCTUnwrap((document["startedAt"] as? String).flatMap(formatter.date), "\(document)")
        XCTAssertTrue(
            started >= before.addingTimeInterval(-1) && started <= after, "\(started) not in \(before)…\(after)")
        XCTAssertEqual(document["timeout"] as? Double, 30)
        let engine = try XCTUnwrap(document["engine"] as? String)
        XCTAssertTrue(engine.hasPrefix("WebKitGTK "), engine)
        let merged = try CLI.run(["report", "merge", "--format", "html", file])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        for fact in [
            ISO8601DateFormatter().string(from: started), "&#39;bridge&#39; v1", "30 s", engine,
        ] {
            XCTAssertTrue(merged.stdout.contains(fact), "the merged HTML lacks \(fact)")
        }
    }

    /// `--report html=F` never replaces an input, even when F is a hard link to it (one device and inode).
    func testAReportPathThatIsAHardLinkToAnInputIsRefused() throws {
        let report = path("input.json")
        XCTAssertEqual(try CLI.run(["check", "--report", "json=\(report)"]).status, 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: report))
        let link = path("link.html")
        XCTAssertEqual(Foundation.link(report, link), 0, String(cString: strerror(errno)))
        let merged = try CLI.run(["report", "merge", report, "--report", "html=\(link)"])
        XCTAssertEqual(merged.status, 2, merged.stdout + merged.stderr)
        XCTAssertTrue(merged.stderr.contains("a report never replaces a file the command reads"), merged.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: report)), original, "the input was overwritten")
    }

    /// Page names come from the report: the merge prints them through the one escape, never raw.
    func testPageNamesFromAReportArePrintedEscaped() throws {
        let report = path("names.json")
        let run = try CLI.run(["check", "--page", try pages(), "--report", "json=\(report)"])
        XCTAssertEqual(run.status, 1, run.stderr)
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        var pages = try XCTUnwrap(document["pages"] as? [[String: Any]])
        for index in pages.indices { pages[index]["page"] = "p\(index)\u{1B}[2J\u{202E}lmth.html" }
        document["pages"] = pages
        document["notRun"] = ["late\u{1B}]0;title\u{7}.html"]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: report))
        let merged = try CLI.run(["report", "merge", report])
        XCTAssertEqual(merged.status, 1, merged.stderr)
        let output = merged.stdout + merged.stderr
        XCTAssertFalse(output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7}" }, output)
        XCTAssertTrue(output.contains("p2\\u{1B}[2J\\u{202E}lmth.html"), output)
        XCTAssertTrue(output.contains("late\\u{1B}]0;title\\u{7}.html"), output)
    }

    /// Every file that does not belong is refused (exit 2) before anything is written, naming the file, the field,
    /// the rule and the remedy.
    func testAFileThatDoesNotBelongIsRefusedNamingTheFieldTheRuleAndTheRemedy() throws {
        let report = path("one.json")
        XCTAssertEqual(try CLI.run(["check", "--report", "json=\(report)"]).status, 0)
        let original = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        func variant(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> String {
            var document = original
            change(&document)
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }
        func shard(_ index: Int, of count: Int) -> (inout [String: Any]) -> Void {
            { $0["shards"] = [["index": index, "count": count]] }
        }
        try "{\"schema\": 1,".write(toFile: path("cut.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("folder.json"), withIntermediateDirectories: true)
        let cases: [(files: [String], expected: String)] = [
            ([path("absent.json")], "absent.json: no such file (unreadable). Remedy: pass the path of a JSON report"),
            ([path("folder.json")], "folder.json: a folder, not a file (unreadable)"),
            ([path("cut.json")], "cut.json: the file is not JSON (not-json). Remedy: pass the file"),
            (
                [try variant("noschema.json") { $0["schema"] = nil }],
                "noschema.json: schema: missing; a webbridge JSON report is an object with \"schema\": 1 (not-a-report)"
            ),
            (
                [report, try variant("schema2.json") { $0["schema"] = 2 }],
                "schema2.json: schema: 2 is not schema 1, the one webbridge 0.1.0 reads (written by webbridge 0.1.0) (other-schema). Remedy: merge it with the webbridge version that wrote it"
            ),
            (
                [report, try variant("v2.json") { $0["contract"] = ["name": "bridge", "version": 2] }],
                "v2.json: contract: 'bridge' v2, but \(report) is 'bridge' v1; reports of another contract or contract version are not merged (other-contract). Remedy:"
            ),
            (
                [try variant("a.json", shard(1, of: 2)), try variant("b.json", shard(1, of: 2))],
                "b.json: shards: shard 1/2 is in \(path("a.json")) too; its pages would count twice (duplicate-shard). Remedy: pass each shard's report once"
            ),
            (
                [try variant("c.json", shard(1, of: 2)), try variant("d.json", shard(2, of: 3))],
                "d.json: shards: 2/3, but \(path("c.json")) is a shard of 2; parts of different splits overlap (other-split)"
            ),
            (
                [try variant("e.json", shard(1, of: 2)), report],
                "one.json: shards: \(path("e.json")) is a --shard run and \(report) checked a whole list; merged, pages would count twice (other-split)"
            ),
            (
                [
                    try variant("status.json") {
                        var pages = $0["pages"] as! [[String: Any]]
                        var sessions = pages[0]["sessions"] as! [[String: Any]]
                        sessions[0]["load"] = ["status": "not run", "note": ""]
                        pages[0]["sessions"] = sessions
                        $0["pages"] = pages
                    }
                ],
                "status.json: pages[0].sessions[0].load.status: 'not run' is not one of pass, fail, not-run (invalid-value). Remedy: pass the file"
            ),
            (
                [try variant("nopages.json") { $0["pages"] = nil }],
                "nopages.json: pages: missing; schema 1 requires it (invalid-value)"
            ),
        ]
        let output = path("merged.xml")
        for (files, expected) in cases {
            let result = try CLI.run(["report", "merge", "--report", "junit=\(output)"] + files)
            XCTAssertEqual(result.status, 2, "\(files): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "expected \(expected)\ngot \(result.stderr)")
            XCTAssertTrue(result.stdout.isEmpty, result.stdout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a refused merge wrote its report")
        }
        let input = try CLI.run(["report", "merge", report, "--report", "json=\(report)"])
        XCTAssertEqual(input.status, 2, input.stderr)
        XCTAssertTrue(input.stderr.contains("a report never replaces a file the command reads"), input.stderr)
        let none = try CLI.run(["report", "merge"])
        XCTAssertEqual(none.status, 2, none.stderr)
        XCTAssertTrue(none.stderr.contains("missing report file; give FILE"), none.stderr)
    }
}
