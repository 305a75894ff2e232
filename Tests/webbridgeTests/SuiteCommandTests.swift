#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `webbridge check` over many pages in one engine: blocks per page, the worst exit wins, folders, lists,
/// shards, isolation between pages, and JSON/JUnit with one entry per page.
final class SuiteCommandTests: XCTestCase {
    var scratch: URL!
    var fixture: String!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-suite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes `html` (the fixture by default) as `name` under the scratch folder and returns its path.
    @discardableResult
    func page(_ name: String, _ html: String? = nil) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (html ?? fixture).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The fixture whose ready carries `version: "1"`: native did not receive the page's message.
    var brokenHTML: String {
        let html = fixture.replacingOccurrences(of: "version: 1", with: #"version: "1""#)
        XCTAssertNotEqual(html, fixture, "the fixture changed: update this test")
        return html
    }

    /// The `page` names of a JSON suite report, in order.
    func pageNames(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let document = try SchemaCheck.validReport(json, file: file, line: line)
        let pages = try XCTUnwrap(document["pages"] as? [[String: Any]], json, file: file, line: line)
        return pages.compactMap { $0["page"] as? String }
    }

    // MARK: Verdicts and exit codes

    func testPassingPagesExitZeroWithABlockPerPageAndASummary() throws {
        let first = try page("first.html")
        let second = try page("second.html")
        let result = try CLI.run(["check", "--page", first, "--page", second])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("webbridge check: 2 pages, contract 'bridge' v1"), result.stdout)
        let firstBlock = try XCTUnwrap(result.stdout.range(of: "== page 1 of 2: \(first)\nsession 1\n"), result.stdout)
        let secondBlock = try XCTUnwrap(
            result.stdout.range(of: "== page 2 of 2: \(second)\nsession 1\n"), result.stdout)
        XCTAssertLessThan(firstBlock.lowerBound, secondBlock.lowerBound, "blocks print in list order")
        XCTAssertEqual(result.stdout.components(separatedBy: "native → page  PASS").count - 1, 2, result.stdout)
        XCTAssertTrue(
            result.stdout.hasSuffix(
                "pages: 2 passed, 0 failed (of 2)\nPASS: both directions of the bridge hold on every page (2 pages)\n"),
            result.stdout)
        XCTAssertEqual(result.stderr, "", "nothing extra on stderr when it is not a terminal")
    }

    func testOneBrokenPageAmongPassingOnesExitsOneAndIsNamedInTheSummary() throws {
        let good = try page("good.html")
        let broken = try page("broken.html", brokenHTML)
        let result = try CLI.run([
            "check", "--page", good, "--page", broken, "--page", good, "--jobs", "2",
        ])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("== page 2 of 3: \(broken)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("version: expected Number 1, found String"), result.stdout)
        XCTAssertTrue(result.stdout.contains("pages: 2 passed, 1 failed (of 3)"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("  native did not receive the page's message: 1 page (\(broken))"), result.stdout)
        XCTAssertTrue(
            result.stdout.hasSuffix("FAIL: native did not receive the page's message (1 of 3 pages failed)\n"),
            result.stdout)
    }

    /// `--max-failures N` starts no page once N pages failed: the rest are reported as not run, never as passed.
    func testMaxFailuresStopsStartingPagesAfterNFailedPages() throws {
        let first = try page("web/a.html", brokenHTML)
        let rest = try ["b", "c", "d", "e"].map { try page("web/\($0).html", $0 == "c" ? brokenHTML : nil) }
        let folder = scratch.appendingPathComponent("web").path
        let json = scratch.appendingPathComponent("stopped.json").path
        let run = try CLI.run([
            "check", "--page", folder, "--jobs", "1", "--max-failures", "1", "--report", "json=\(json)",
        ])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(
            run.stdout.contains("stopped after 1 failed page (--max-failures 1): 4 pages not run"), run.stdout)
        XCTAssertTrue(run.stdout.contains("NOT RUN: 4 pages ("), run.stdout)
        let document = try SchemaCheck.validReport(String(contentsOfFile: json, encoding: .utf8))
        XCTAssertEqual(try pageNames(String(contentsOfFile: json, encoding: .utf8)), [first])
        XCTAssertEqual(document["notRun"] as? [String], rest)
        XCTAssertEqual(document["passed"] as? Bool, false)
        // Without the limit every page runs.
        let all = try CLI.run(["check", "--page", folder, "--jobs", "1", "--format", "json"])
        XCTAssertEqual(try pageNames(all.stdout).count, 5)
        let single = try CLI.run(["check", "--page", first, "--max-failures", "1"])
        XCTAssertEqual(single.status, 2, single.stderr)
        XCTAssertTrue(single.stderr.contains("--max-failures stops a suite"), single.stderr)
    }

    /// `--last-failed REPORT` checks only the pages the last JSON report has failed or not run, in list order.
    func testLastFailedChecksOnlyThePagesTheLastReportFailedOrDidNotRun() throws {
        let names = ["a", "b", "c", "d"].map { scratch.appendingPathComponent("web/\($0).html").path }
        for (index, name) in names.enumerated() {
            try page("web/\(URL(fileURLWithPath: name).lastPathComponent)", [1, 3].contains(index) ? brokenHTML : nil)
        }
        let folder = scratch.appendingPathComponent("web").path
        let last = scratch.appendingPathComponent("last.json").path
        let first = try CLI.run(["check", "--page", folder, "--report", "json=\(last)"])
        XCTAssertEqual(first.status, 1, first.stdout + first.stderr)
        // Page d is fixed since; b still fails.
        try page("web/d.html")
        let rerun = try CLI.run(["check", "--page", folder, "--last-failed", last, "--format", "json"])
        XCTAssertEqual(rerun.status, 1, rerun.stdout + rerun.stderr)
        XCTAssertEqual(try pageNames(rerun.stdout), [names[1], names[3]])
        // A report with nothing failed leaves nothing to rerun: said, not run as a pass.
        let passing = scratch.appendingPathComponent("passing.json").path
        XCTAssertEqual(try CLI.run(["check", "--page", names[0], "--report", "json=\(passing)"]).status, 0)
        let nothing = try CLI.run(["check", "--page", folder, "--last-failed", passing])
        XCTAssertEqual(nothing.status, 2, nothing.stdout + nothing.stderr)
        XCTAssertTrue(nothing.stderr.contains("no page failed or went unrun"), nothing.stderr)
        let missing = try CLI.run([
            "check", "--page", folder, "--last-failed", scratch.appendingPathComponent("none.json").path,
        ])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("none.json: no such file (unreadable)"), missing.stderr)
    }

    func testAContractFailureOutranksAnUnreachablePage() throws {
        let refused = try LoopbackHTTPServer.refusedPort()
        let unreachable = "http://127.0.0.1:\(refused.port)/index.html"
        let good = try page("good.html")
        let broken = try page("broken.html", brokenHTML)

        let onlyUnreachable = try CLI.run(["check", "--page", good, "--url", unreachable])
        XCTAssertEqual(onlyUnreachable.status, 4, onlyUnreachable.stdout + onlyUnreachable.stderr)
        XCTAssertTrue(
            onlyUnreachable.stdout.contains(
                "  page not deployed / request failed: 1 page (127.0.0.1:\(refused.port)/index.html)"),
            onlyUnreachable.stdout)

        let both = try CLI.run(["check", "--url", unreachable, "--page", broken, "--page", good])
        XCTAssertEqual(both.status, 1, both.stdout + both.stderr)
        XCTAssertTrue(both.stdout.contains("pages: 1 passed, 2 failed (of 3)"), both.stdout)
        XCTAssertTrue(
            both.stdout.contains(
                "FAIL: native did not receive the page's message; page not deployed / request failed (2 of 3 pages failed)"
            ), both.stdout)
    }

    // MARK: Folders, lists, shards

    func testAFolderChecksItsHTMLFilesSortedAndNotItsSubfolders() throws {
        try page("pages/b.html")
        try page("pages/a.htm")
        try page("pages/notes.txt", "not a page")
        try page("pages/nested/c.html", brokenHTML)
        let folder = scratch.appendingPathComponent("pages").path
        let result = try CLI.run(["check", "--page", folder, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try pageNames(result.stdout), ["\(folder)/a.htm", "\(folder)/b.html"])

        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try CLI.run(["check", "--page", empty.path])
        XCTAssertEqual(none.status, 2, none.stdout + none.stderr)
        XCTAssertTrue(none.stderr.contains("the folder holds no *.html file"), none.stderr)
    }

    func testAListFileSkipsCommentsAndBlankLinesAndResolvesPathsBesideIt() throws {
        let server = try LoopbackHTTPServer(routes: ["/served.html": .page(status: 200, html: fixture)])
        defer { server.stop() }
        try page("lists/pages/one.html")
        try page("lists/two.html", brokenHTML)
        let list = scratch.appendingPathComponent("lists/suite.txt")
        try """
        # the checkout screens

        pages/one.html
          two.html
        \(server.url("/served.html").absoluteString)
        """.write(to: list, atomically: true, encoding: .utf8)
        // From another directory: the list's own folder anchors its relative paths.
        let result = try CLI.run(
            ["check", "--pages", list.path, "--format", "json"],
            currentDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let folder = list.deletingLastPathComponent().path
        XCTAssertEqual(
            try pageNames(result.stdout),
            ["\(folder)/pages/one.html", "\(folder)/two.html", "127.0.0.1:\(server.port)/served.html"])

        try "pages/one.html\nmissing.html\n".write(to: list, atomically: true, encoding: .utf8)
        let missing = try CLI.run(["check", "--pages", list.path])
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--pages \(list.path), line 2: no such file"), missing.stderr)
        XCTAssertEqual(missing.stdout, "", "no page runs before the list is valid")
    }

    func testShardsPartitionTheListExactly() throws {
        let pages = try (1...7).map { try page("shards/page\($0).html") }
        let folder = scratch.appendingPathComponent("shards").path
        for count in [1, 2, 3, 8] {
            var seen: [String] = []
            for index in 1...count {
                let result = try CLI.run([
                    "check", "--page", folder, "--shard", "\(index)/\(count)", "--format", "json",
                ])
                XCTAssertEqual(result.status, 0, "shard \(index)/\(count): \(result.stdout + result.stderr)")
                let names = try pageNames(result.stdout)
                if count == 3 && index == 1 {
                    XCTAssertEqual(names, [pages[0], pages[3], pages[6]], "shard i/n is every n-th page from the i-th")
                }
                XCTAssertTrue(Set(names).isDisjoint(with: seen), "shard \(index)/\(count) repeats a page: \(names)")
                seen += names
            }
            XCTAssertEqual(seen.sorted(), pages, "the \(count) shards together are not the list")
        }
        let bad = try CLI.run(["check", "--page", folder, "--shard", "3/2"])
        XCTAssertEqual(bad.status, 2, bad.stdout + bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--shard must be i/n with 1 <= i <= n"), bad.stderr)
    }

    // MARK: Isolation

    /// A page that posts a valid ready only when no earlier page's cookie or storage is visible, after setting both.
    static let probe = """
        <!doctype html>
        <meta charset="utf-8">
        <body>
        <script>
        window.bridgeReceive = function (message) { document.body.dataset.received = message.value; };
        var leaked = document.cookie !== "" || localStorage.length !== 0 || sessionStorage.length !== 0;
        document.cookie = "suite=seen; max-age=3600; path=/";
        localStorage.setItem("suite", "seen");
        sessionStorage.setItem("suite", "seen");
        // Proves the page could set both, so a clean next page means isolation, not a page that stores nothing.
        var stored = document.cookie.indexOf("suite=seen") >= 0 && localStorage.getItem("suite") === "seen";
        window.webkit.messageHandlers.bridge.postMessage({
          kind: "ready",
          version: leaked ? "leaked" : (stored ? 1 : "not stored")
        });
        </script>
        </body>
        """

    func testAPageDoesNotSeeTheCookiesOrStorageAnEarlierPageSet() throws {
        let paths = ["/one.html", "/two.html", "/three.html", "/four.html"]
        let server = try LoopbackHTTPServer(
            routes: Dictionary(uniqueKeysWithValues: paths.map { ($0, .page(status: 200, html: Self.probe)) }))
        defer { server.stop() }
        let urls = paths.flatMap { ["--url", server.url($0).absoluteString] }
        for jobs in ["1", "2"] {
            let result = try CLI.run(["check"] + urls + ["--jobs", jobs])
            XCTAssertEqual(
                result.status, 0, "--jobs \(jobs): a page saw another's data:\n\(result.stdout + result.stderr)")
            XCTAssertTrue(result.stdout.contains("pages: 4 passed, 0 failed (of 4)"), result.stdout)
        }
    }

    // MARK: Formats

    func testJSONHasOneEntryPerPageWithItsSessions() throws {
        let good = try page("good.html")
        let broken = try page("broken.html", brokenHTML)
        let result = try CLI.run([
            "check", "--page", good, "--page", broken, "--repeat", "2", "--format", "json",
        ])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let document = try SchemaCheck.validReport(result.stdout)
        XCTAssertEqual(document["passed"] as? Bool, false)
        XCTAssertEqual(document["pageCount"] as? Int, 2)
        XCTAssertEqual(document["passedPages"] as? Int, 1, result.stdout)
        XCTAssertEqual(document["failedPages"] as? Int, 1)
        let counts = try XCTUnwrap(document["failedByCategory"] as? [[String: Any]])
        XCTAssertEqual(counts.map { $0["category"] as? String }, ["native-did-not-receive"])
        XCTAssertEqual(counts.map { $0["categoryText"] as? String }, ["native did not receive the page's message"])
        XCTAssertEqual(counts.map { $0["pages"] as? Int }, [1])
        let pages = try XCTUnwrap(document["pages"] as? [[String: Any]])
        XCTAssertEqual(pages.map { $0["page"] as? String }, [good, broken])
        XCTAssertEqual(pages.map { $0["passed"] as? Bool }, [true, false])
        for entry in pages {
            XCTAssertEqual(entry["sessionCount"] as? Int, 2, "\(entry)")
            let sessions = try XCTUnwrap(entry["sessions"] as? [[String: Any]])
            XCTAssertEqual(sessions.map { $0["session"] as? Int }, [1, 2])
        }
    }

    func testJUnitHasOneTestSuitePerPage() throws {
        let good = try page("good.html")
        let broken = try page("broken & <odd>.html", brokenHTML)
        let result = try CLI.run(["check", "--page", good, "--page", broken, "--format", "junit"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let suites = try document.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, [good, broken])
        XCTAssertEqual(suites.map { $0.attribute(forName: "tests")?.stringValue }, ["2", "2"])
        XCTAssertEqual(suites.map { $0.attribute(forName: "failures")?.stringValue }, ["0", "1"])
        let failures = try document.nodes(forXPath: "/testsuites/testsuite[2]/testcase/failure")
        XCTAssertEqual(
            (failures.first as? XMLElement)?.attribute(forName: "type")?.stringValue,
            "native did not receive the page's message")
    }

    /// A page is read when its turn comes, not all at the start (200 entries of a 5 MB page held 1.2 GB): the
    /// second page, changed while the first runs, is checked as it is then.
    func testAPageIsReadWhenItsTurnComes() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let later = try page("later.html", brokenHTML)
        let run = try RunningCLI([
            "check", "--url", server.url("/stall").absoluteString, "--page", later, "--jobs", "1",
        ])
        XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "the first page was never requested")
        try page("later.html")
        let result = try run.wait()
        let block = try XCTUnwrap(
            result.stdout.range(of: "== page 2 of 2: \(later)\n"), result.stdout + result.stderr)
        let second = result.stdout[block.upperBound...]
        XCTAssertTrue(second.contains("page → native  PASS"), "the page was read before its turn:\n\(result.stdout)")
    }

    func testURLsThatDifferInTheirQueryGetTheirOwnNamesWithoutIt() throws {
        let server = try LoopbackHTTPServer(routes: ["/ok": .page(status: 200, html: fixture)])
        defer { server.stop() }
        let urls = ["?token=QUERY-SECRET-1", "?token=QUERY-SECRET-2"].flatMap {
            ["--url", server.url("/ok").absoluteString + $0]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = ["junit", "html"].flatMap { ["--report", "\($0)=" + folder.appendingPathComponent($0).path] }
        let result = try CLI.run(["check", "--format", "json"] + reports + urls)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            try pageNames(result.stdout), ["127.0.0.1:\(server.port)/ok?…", "127.0.0.1:\(server.port)/ok?… #2"])
        let text = try CLI.run(["check"] + urls)
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        let written = try ["junit", "html"].map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        for output in [result.stdout, result.stderr, text.stdout, text.stderr] + written {
            XCTAssertFalse(output.contains("QUERY-SECRET"), "the query was shown:\n\(output)")
        }
        XCTAssertTrue(text.stdout.contains("/ok?… #2"), text.stdout)
    }

    // MARK: Signals

    func testSIGINTPrintsTheFinishedPagesAndAPartialSummary() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let good = try page("good.html")
        let run = try RunningCLI([
            "check", "--page", good, "--url", server.url("/stall").absoluteString, "--jobs", "1", "--timeout", "60",
        ])
        XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "the second page was never requested")
        XCTAssertTrue(run.waitForStdout(containing: "== page 1 of 2"), run.stdout)
        run.signal(SIGINT)
        let result = try run.wait()
        XCTAssertEqual(result.status, 130, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("INTERRUPTED: interrupted by SIGINT after 1 of 2 pages; so far:\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("pages: 1 passed, 0 failed (of 1)"), result.stdout)
    }

    /// `--report` files are written on SIGINT too, holding the pages that finished, as stdout's report does.
    func testSIGINTWritesTheReportFilesWithTheFinishedPages() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let good = try page("good.html")
        let json = scratch.appendingPathComponent("partial.json").path
        let junit = scratch.appendingPathComponent("partial.xml").path
        let run = try RunningCLI([
            "check", "--page", good, "--url", server.url("/stall").absoluteString, "--jobs", "1", "--timeout", "60",
            "--report", "json=\(json)", "--report", "junit=\(junit)",
        ])
        XCTAssertTrue(server.waitForRequest("/stall", timeout: 30), "the second page was never requested")
        XCTAssertTrue(run.waitForStdout(containing: "== page 1 of 2"), run.stdout)
        run.signal(SIGINT)
        let result = try run.wait()
        XCTAssertEqual(result.status, 130, result.stdout + result.stderr)
        let document = try SchemaCheck.validReport(try String(contentsOfFile: json, encoding: .utf8))
        XCTAssertEqual(document["interrupted"] as? Bool, true)
        XCTAssertEqual(document["pageCount"] as? Int, 1)
        let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)), options: [])
        let suites = try xml.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        // The page that never finished is there too, as a skipped case (see SignalCommandTests).
        XCTAssertEqual(
            suites.map { $0.attribute(forName: "name")?.stringValue },
            [good, "127.0.0.1:\(server.url("/").port!)/stall"])
    }

    func testSIGUSR1SIGUSR2AndSIGALRMTakeTheirDefaultActionNotACrash() throws {
        // JavaScriptCore's own SIGUSR1 handler crashed (SIGSEGV) on a SIGUSR1 from outside (issue 25).
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall])
        defer { server.stop() }
        let good = try page("good.html")
        for (number, name) in [(SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"), (SIGALRM, "SIGALRM")] {
            let marker = UUID().uuidString
            var environment = ProcessInfo.processInfo.environment
            environment["WEBBRIDGE_SIGNAL_PROBE"] = marker
            let run = try RunningCLI(
                [
                    "check", "--page", good, "--url", server.url("/stall").absoluteString, "--jobs", "1", "--timeout",
                    "60",
                ],
                environment: environment)
            // Whatever the run ends by, nothing it started outlives this test.
            defer { for pid in WebProcesses.carrying("WEBBRIDGE_SIGNAL_PROBE", marker) { kill(pid, SIGKILL) } }
            XCTAssertTrue(
                run.waitForStdout(containing: "== page 1 of 2"), "\(name): page 1 did not finish:\n\(run.stdout)")
            run.signal(number)
            let result = try run.wait()
            XCTAssertTrue(
                result.signalled, "\(name): exit \(result.status), not ended by the signal:\n\(result.stderr)")
            XCTAssertEqual(result.status, number, "\(name) ended the run by another signal:\n\(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Backtracing"), "\(name) crashed:\n\(result.stderr)")
            let left = WebProcesses.waitForExit(
                of: WebProcesses.carrying("WEBBRIDGE_SIGNAL_PROBE", marker), timeout: 15)
            for pid in left { kill(pid, SIGKILL) }
            XCTAssertEqual(left, [], "\(name): processes webbridge started still ran 15 s after it ended")
        }
    }
}
#endif
