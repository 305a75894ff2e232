import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `--report KIND=FILE`: every report from one run, beside the text on stdout, written only where it may be.
final class ReportFilesCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// The three report paths of one run, as `--report` options.
    private func allReports(_ prefix: String) -> [String] {
        [
            "--report", "junit=\(path("\(prefix).xml"))", "--report", "html=\(path("\(prefix).html"))",
            "--report=json=\(path("\(prefix).json"))",
        ]
    }

    private func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    func testOneRunOfTheFixtureWritesEveryReportBesideTheText() throws {
        let result = try CLI.run(["check"] + allReports("pass"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        // stdout keeps the text report: the header, the timeline, the verdict.
        XCTAssertTrue(result.stdout.hasPrefix("webbridge check: BridgeFixture.html (bundled)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("PASS: both directions of the bridge hold (1 session)"), result.stdout)
        let junit = try JUnitCases(xml: Data(try read("pass.xml").utf8))
        XCTAssertEqual(junit.names.count, 2)
        XCTAssertEqual(junit.failureTypes, [])
        let html = try read("pass.html")
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>") && html.contains("data-passed=\"true\""), html)
        let json = try SchemaCheck.validReport(try read("pass.json"))
        XCTAssertEqual(json["passed"] as? Bool, true)
        XCTAssertEqual((try SchemaCheck.onlyPage(json)["sessions"] as? [Any])?.count, 1)
    }

    func testOneRunOfABrokenPageWritesTheSameFailureToEveryReport() throws {
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        XCTAssertTrue(html.contains("version: 1"), "the fixture changed: update this test")
        let page = path("broken.html")
        try html.replacingOccurrences(of: "version: 1", with: "version: true")
            .write(toFile: page, atomically: true, encoding: .utf8)
        // stdout is JSON here: --format stays for stdout, the files are what --report names.
        let result = try CLI.run(["check", "--page", page, "--format", "json"] + allReports("fail"))
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, try read("fail.json"), "stdout and the file differ")
        let junit = try JUnitCases(xml: Data(try read("fail.xml").utf8))
        XCTAssertEqual(junit.failureTypes, ["native did not receive the page's message"])
        let report = try read("fail.html")
        XCTAssertTrue(report.contains("data-passed=\"false\""), report)
        XCTAssertTrue(report.contains("class=\"failure\""), report)
    }

    func testASuiteWritesEveryReportFromOneRun() throws {
        let page = path("copy.html")
        try FileManager.default.copyItem(atPath: CheckCommandTests.fixture.path, toPath: page)
        let result = try CLI.run(
            ["check", "--page", CheckCommandTests.fixture.path, "--page", page] + allReports("suite"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("PASS: both directions of the bridge hold on every page (2 pages)"))
        XCTAssertEqual(try JUnitCases(xml: Data(try read("suite.xml").utf8)).names.count, 4)
        let json = try SchemaCheck.validReport(try read("suite.json"))
        XCTAssertEqual(json["pageCount"] as? Int, 2)
        XCTAssertTrue(try read("suite.html").contains("data-page=\"\(page)\""))
    }

    func testAnExistingReportIsOverwritten() throws {
        let older = "an older run's report, longer than the new one: " + String(repeating: "x", count: 9000)
        try older.write(toFile: path("old.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", "--report", "json=\(path("old.json"))"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(try read("old.json").utf8)))
    }

    /// Paths a report is never written to: refused before the check runs, naming the option, the rule, the remedy.
    func testRefusedPathsAreUsageErrorsBeforeTheCheckRuns() throws {
        let target = path("target.txt")
        try "not a report".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.xml"), withDestinationPath: target)
        try FileManager.default.createDirectory(atPath: path("folder"), withIntermediateDirectories: false)
        let cases: [([String], String)] = [
            (
                ["--report", "junit=\(path("link.xml"))"],
                "--report junit=\(path("link.xml")): the path is a symbolic link; a report is never written through one"
            ),
            (
                ["--report", "html=\(path("folder"))"],
                "the path is a folder; a report is written to a file. Remedy: name a file in it, e.g. html=\(path("folder"))/report.html"
            ),
            (
                ["--report", "json=\(path("missing/report.json"))"],
                "the folder \(path("missing")) does not exist; a report's folder is not created. Remedy: create it first"
            ),
            (
                ["--report", "json=\(path("same"))", "--report", "junit=\(path("same"))"],
                "name the same file; each report needs a file of its own"
            ),
            (
                ["--page", target, "--report", "html=\(target)"],
                "the path is \(target), read as --page; a report never replaces a file the command reads"
            ),
            (["--report", "text=\(path("a.txt"))"], "--report must be KIND=FILE, with KIND junit, html or json"),
            (["--report", "junit="], "--report must be KIND=FILE, with KIND junit, html or json"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["check"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments): the check ran")
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "not a report", "written through the link")
    }

    func testAReportThatCannotBeWrittenExitsThree() throws {
        let result = try CLI.run(["check", "--report", "json=/dev/full", "--report", "junit=\(path("kept.xml"))"])
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "--report json=/dev/full: the report could not be written (No space left on device)"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("Remedy:"), result.stderr)
        // The other report is still written, and stdout still has the verdict.
        XCTAssertEqual(try JUnitCases(xml: Data(try read("kept.xml").utf8)).names.count, 2)
        XCTAssertTrue(result.stdout.contains("PASS: both directions"), result.stdout)
    }

    /// The JUnit reports of a real suite (a failing page and a passing one) and of a merge holding pages that never
    /// ran validate against the common JUnit schema (Fixtures/junit-10.xsd, Jenkins xunit's shape) with xmllint,
    /// as a strict dashboard reads them.
    func testTheJUnitReportsValidateAgainstTheCommonJUnitSchema() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/junit-10.xsd").path
        func errors(_ file: String) throws -> String? {
            let result = try ExternalTool.run(["xmllint", "--noout", "--schema", schema, file])
            if result.status == 127 {
                throw MissingTool(name: "xmllint (Debian libxml2-utils)")
            }
            return result.status == 0 ? nil : result.stderr
        }
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let broken = path("broken.html")
        try html.replacingOccurrences(of: "version: 1", with: "version: true")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let suite = path("suite.xml")
        let json = path("suite.json")
        let run = try CLI.run([
            "check", "--page", CheckCommandTests.fixture.path, "--page", broken, "--report", "junit=\(suite)",
            "--report", "json=\(json)",
        ])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertNil(try errors(suite), "the suite's JUnit breaks junit-10.xsd")
        // Pages that never ran are skipped cases: the counts move to each suite.
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        document["notRun"] = ["late.html"]
        document["interrupted"] = true
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: json))
        let merged = path("merged.xml")
        let merge = try CLI.run(["report", "merge", json, "--report", "junit=\(merged)"])
        XCTAssertEqual(merge.status, 1, merge.stdout + merge.stderr)
        XCTAssertTrue(try String(contentsOfFile: merged, encoding: .utf8).contains("<skipped "))
        XCTAssertNil(try errors(merged), "the merged JUnit with a skipped page breaks junit-10.xsd")
        // The schema is strict where dashboards are: a root `skipped` is refused.
        let rooted = path("rooted.xml")
        try String(contentsOfFile: merged, encoding: .utf8)
            .replacingOccurrences(of: "<testsuites name=", with: "<testsuites skipped=\"1\" name=")
            .write(toFile: rooted, atomically: true, encoding: .utf8)
        XCTAssertNotNil(try errors(rooted), "xmllint accepted a root skipped attribute")
    }

    /// The JUnit report of a real suite run, read by junitparser (PyPI; scripts/setup.sh installs it) as a
    /// dashboard reads it: a suite per page named by its path, cases by session and direction with the page as
    /// classname, the failure's body, each case's own time, and the counts on the root.
    func testJunitparserReadsTheSuiteAsADashboardWould() throws {
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let broken = path("broken.html")
        try html.replacingOccurrences(of: "version: 1", with: "version: true")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let good = CheckCommandTests.fixture.path
        let report = path("bridge.xml")
        let run = try CLI.run([
            "check", "--page", good, "--page", broken, "--report", "junit=\(report)",
        ])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let script = """
            import json, sys
            from junitparser import JUnitXml, Failure
            xml = JUnitXml.fromfile(sys.argv[1])
            suites = []
            for suite in xml:
                cases = []
                for case in suite:
                    failures = [r for r in case.result if isinstance(r, Failure)]
                    cases.append({"name": case.name, "classname": case.classname, "time": case.time,
                                  "failure": failures[0].text if failures else None})
                suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures,
                               "time": suite.time, "cases": cases})
            print(json.dumps({"tests": xml.tests, "failures": xml.failures, "skipped": xml.skipped,
                              "time": xml.time, "suites": suites}))
            """
        let python = try ExternalTool.run(["python3", "-c", script, report])
        guard python.status == 0 else {
            return XCTFail(
                "junitparser could not read the report (run scripts/setup.sh to install it): \(python.stderr)")
        }
        let data = Data(python.stdout.utf8)
        let read = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(read["tests"] as? Int, 4)
        XCTAssertEqual(read["failures"] as? Int, 1)
        // Summed from the suites: the root carries no skipped count (junit-10.xsd has none there).
        XCTAssertEqual(read["skipped"] as? Int, 0)
        let suites = try XCTUnwrap(read["suites"] as? [[String: Any]])
        XCTAssertEqual(suites.map { $0["name"] as? String }, [good, broken])
        XCTAssertEqual(suites.map { $0["failures"] as? Int }, [0, 1])
        let cases = try XCTUnwrap(suites.last?["cases"] as? [[String: Any]])
        XCTAssertEqual(
            cases.map { $0["name"] as? String }, ["session 1: page → native", "session 1: native → page"])
        XCTAssertEqual(cases.map { $0["classname"] as? String }, [broken, broken])
        let body = try XCTUnwrap(cases[0]["failure"] as? String)
        XCTAssertTrue(body.contains("message rejected  {kind: String, version: Boolean}"), body)
        XCTAssertTrue(body.contains("page → native  FAIL"), body)
        XCTAssertNil(cases[1]["failure"] as? String)
        // Each case its own share: the two cases add up to the suite's time, not twice it.
        for suite in suites {
            let caseTimes = (suite["cases"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? Double }
            let total = try XCTUnwrap(suite["time"] as? Double)
            XCTAssertEqual(caseTimes.reduce(0, +), total, accuracy: 0.0021, "\(suite)")
        }
        let rootTime = try XCTUnwrap(read["time"] as? Double)
        XCTAssertEqual(rootTime, suites.compactMap { $0["time"] as? Double }.reduce(0, +), accuracy: 0.0011)
    }
}
