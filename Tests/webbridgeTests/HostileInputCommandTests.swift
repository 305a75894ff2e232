import BridgeContract
import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `webbridge` under hostile but realistic use: huge numbers, output that can't be written, raw control
/// characters, page floods and signals end in a documented exit status with the report kept, never a crash.
final class HostileInputCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes the fixture with `original` replaced by `replacement` under `name` and returns its path.
    func page(_ original: String, _ replacement: String, name: String = "page.html") throws -> String {
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        XCTAssertTrue(html.contains(original), "the fixture changed: update this test")
        let url = scratch.appendingPathComponent(name)
        try Data(html.replacingOccurrences(of: original, with: replacement).utf8).write(to: url)
        return url.path
    }

    /// A receiver that throws `errorExpression` (JavaScript), so the page's error text reaches the report.
    func throwingPage(_ errorExpression: String) throws -> String {
        try page(
            "window.bridgeReceive = function (message) {",
            "window.bridgeReceive = function (message) {\n  throw new Error(\(errorExpression));")
    }

    func assertNoRawControlCharacters(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
        XCTAssertTrue(
            raw.isEmpty, "raw control characters \(raw.map { $0.value }) reach the terminal", file: file, line: line)
    }

    // MARK: Numbers (issue 14 item 2)

    func testEveryNumericOptionIsBoundedWithExitTwo() throws {
        let cases: [([String], String)] = [
            (["check", "--timeout", "1e19"], "--timeout must be a positive number of seconds, at most 86400"),
            (["check", "--timeout", "86400.5"], "--timeout must be a positive number of seconds, at most 86400"),
            (["check", "--timeout", "inf"], "--timeout must be a positive number of seconds"),
            (["check", "--repeat", "1000000001"], "--repeat must be a positive integer, at most 1000000000"),
            (["check", "--repeat", "99999999999999999999"], "--repeat must be a positive integer"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Output that can't be written (issue 14 item 2)

    func testOutputThatCannotBeWrittenExitsThreeNotACrash() throws {
        let cases: [(String, [String])] = [
            (">/dev/full", ["contract", "print"]),
            (">/dev/full", ["contract", "js"]),
            (">&-", ["contract", "print"]),
            (">&-", ["contract", "js"]),
            (">/dev/full", ["contract", "--help"]),
        ]
        for (redirection, arguments) in cases {
            let result = try CLI.runRedirected(redirection, arguments)
            XCTAssertEqual(result.status, 3, "\(arguments) \(redirection): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("the output could not be written"),
                "\(arguments) \(redirection): \(result.stderr)"
            )
        }
    }

    func testAnUnwritableStandardErrorExitsThreeNotACrash() throws {
        let missing = scratch.appendingPathComponent("none.json").path
        let result = try CLI.runRedirected("2>/dev/full", ["contract", "print", "--contract", missing])
        XCTAssertEqual(result.status, 3, result.stdout)
        let usage = try CLI.runRedirected("2>/dev/full", ["check", "--bogus"])
        XCTAssertEqual(usage.status, 3, usage.stdout)
    }

    func testAJUnitReportOnAFullDiskExitsThree() throws {
        let result = try CLI.runRedirected(">/dev/full", ["check", "--format", "junit"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("the output could not be written (No space left on device)"), result.stderr)
    }

    func testARepeatedRunStopsWhenItsOutputIsGone() throws {
        // Each session of a failing page is printed, so the full disk is seen at the first; 1000 sessions would
        // otherwise run on for minutes with no one to read them.
        let page = try throwingPage(#""refused""#)
        let result = try CLI.runRedirected(">/dev/full", ["check", "--page", page, "--repeat", "1000"], timeout: 120)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("the output could not be written"), result.stderr)
    }

    // MARK: Text output (issue 14 item 8)

    func testThePageErrorReachesTheTerminalEscaped() throws {
        let page = try throwingPage(#""\x1b[2J\x1b[31mforged\rok fake\x07""#)
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        assertNoRawControlCharacters(result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains(#"\u{1B}[2J\u{1B}[31mforged\rok fake\u{7}"#), result.stdout)
    }

    func testJSONAndJUnitStillCarryThePageErrorExactly() throws {
        let page = try throwingPage(#""\x1b[31m<b>&\"\r\x07""#)
        let json = try CLI.run(["check", "--page", page, "--format", "json"])
        XCTAssertEqual(json.status, 1, json.stderr)
        let document = try SchemaCheck.validReport(json.stdout)
        let sessions = try XCTUnwrap(try SchemaCheck.onlyPage(document)["sessions"] as? [[String: Any]])
        let verdict = try XCTUnwrap(sessions.first?["nativeToPage"] as? [String: Any])
        let failure = try XCTUnwrap(verdict["failure"] as? [String: Any])
        XCTAssertTrue((failure["detail"] as? String)?.contains("\u{1B}[31m<b>&\"\r\u{07}") == true, json.stdout)

        let junit = try CLI.run(["check", "--page", page, "--format", "junit"])
        XCTAssertEqual(junit.status, 1, junit.stderr)
        let cases = try JUnitCases(xml: Data(junit.stdout.utf8))
        XCTAssertEqual(cases.failureTypes, ["page did not accept the native message"])
    }

    func testAMegabytePageErrorIsPrintedOnceAndCut() throws {
        let page = try throwingPage(#""BIG" + "E".repeat(1 << 20)"#)
        let result = try CLI.run(["check", "--page", page, "--timeout", "10"])
        XCTAssertEqual(result.status, 1, String(result.stderr.prefix(2000)))
        XCTAssertLessThan(result.stdout.utf8.count, 16_384, "the error is not capped")
        XCTAssertEqual(result.stdout.components(separatedBy: "BIG").count - 1, 1, "the error is printed more than once")
        XCTAssertTrue(result.stdout.contains("… [cut: "), result.stdout)
    }

    func testAFloodOfMessagesIsCountedNotPrintedEach() throws {
        // 50,000 rejected messages after the ready: the text groups them; before, each was printed twice (~10 MB).
        let page = try page(
            "</script>",
            "for (let i = 0; i < 50000; i++) window.webkit.messageHandlers.bridge.postMessage({kind: \"noise\"});\n</script>"
        )
        // Lenient, so the run passes and lists them; strict fails on the first and groups them the same way.
        let result = try CLI.run(["check", "--page", page, "--timeout", "30", "--lenient"], timeout: 240)
        XCTAssertEqual(result.status, 0, String(result.stdout.prefix(4000)))
        XCTAssertLessThan(result.stdout.utf8.count, 65_536, String(result.stdout.prefix(4000)))
        XCTAssertTrue(result.stdout.contains("× 50000"), String(result.stdout.prefix(4000)))
    }

    func testTheHandlerNameAndThePageFileNameArePrintedEscaped() throws {
        let contract = scratch.appendingPathComponent("contract.json")
        var spec = BridgeContract.default
        spec.handler = "bridge\nPASS: forged"
        try spec.jsonData().write(to: contract)
        let page = try page("<body>", "<body>", name: "page\u{1B}[2J\rname.html")
        let result = try CLI.run(["check", "--page", page, "--contract", contract.path, "--timeout", "2"])
        assertNoRawControlCharacters(result.stdout + result.stderr)
        XCTAssertFalse(
            (result.stdout + result.stderr).split(separator: "\n").contains { $0.hasPrefix("PASS: forged") },
            "a handler name forged a line:\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.contains(#"page\u{1B}[2J\rname.html"#), result.stdout + result.stderr)
    }

    func testArgumentsQuotedInAUsageErrorAreEscaped() throws {
        for arguments in [["\u{1B}[2Jcheck"], ["check", "--b\u{07}d\rPASS"], ["contract", "print", "\u{1B}]0;x"]] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            assertNoRawControlCharacters(result.stdout + result.stderr)
            XCTAssertTrue(result.stderr.contains(#"\u{"#), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Signals (issue 14 item 11)

    func testSIGINTAndSIGTERMKeepWhatWasDoneAndPrintAPartialSummary() throws {
        for (number, status, name) in [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")] {
            let run = try RunningCLI(["check", "--repeat", "200"])
            XCTAssertTrue(
                run.waitForStdout(containing: "native → page", timeout: 60),
                "\(name): the first session's verdict did not reach stdout within 60 s")
            run.signal(number)
            let result = try run.wait(timeout: 60)
            XCTAssertFalse(result.signalled, "\(name) killed webbridge before it reported:\n\(result.stdout)")
            XCTAssertEqual(result.status, status, "\(name): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains("session 1"), "\(name): \(result.stdout)")
            XCTAssertTrue(
                result.stdout.contains("INTERRUPTED: interrupted by \(name) after "), "\(name): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("of 200 sessions; so far: PASS"), "\(name): \(result.stdout)")
        }
    }

    // MARK: Pages that reload themselves (issue 25 item 1)

    /// The fixture with `head` added after its charset, written as `name`.
    func reloadingPage(_ head: String, name: String) throws -> String {
        try page(#"<meta charset="utf-8">"#, #"<meta charset="utf-8">"# + "\n" + head, name: name)
    }

    func testAPageThatReloadsItselfGetsAVerdictNotACrash() throws {
        // WebKitGTK gives a reloaded file the content length UInt64.max; converting it to Int trapped.
        let script = try reloadingPage("<script>location.reload()</script>", name: "reload.html")
        let refresh = try reloadingPage(#"<meta http-equiv="refresh" content="0">"#, name: "refresh.html")
        for page in [script, refresh] {
            let result = try CLI.run(["check", "--page", page, "--timeout", "2"])
            XCTAssertFalse(result.stderr.contains("Not enough bits"), "\(page) crashed:\n\(result.stderr)")
            XCTAssertTrue([0, 1].contains(result.status), "\(page): exit \(result.status)\n\(result.stderr)")
            XCTAssertTrue(
                result.stdout.contains("PASS") || result.stdout.contains("FAIL"),
                "\(page): no verdict:\n\(result.stdout)")
        }
        let good = try page("<body>", "<body>", name: "good.html")
        let suite = ["check", "--page", script, "--page", refresh, "--page", good, "--timeout", "2"]

        let json = try CLI.run(suite + ["--format", "json"])
        XCTAssertTrue([0, 1].contains(json.status), "exit \(json.status)\n\(json.stderr)")
        let document = try SchemaCheck.validReport(json.stdout)
        XCTAssertEqual(document["pageCount"] as? Int, 3, json.stdout)
        let pages = try XCTUnwrap(document["pages"] as? [[String: Any]], json.stdout)
        XCTAssertEqual(pages.map { $0["page"] as? String }, [script, refresh, good])
        XCTAssertEqual(pages.last?["passed"] as? Bool, true, "the page after the reloading ones still runs")

        let junit = try CLI.run(suite + ["--format", "junit"])
        XCTAssertTrue([0, 1].contains(junit.status), "exit \(junit.status)\n\(junit.stderr)")
        XCTAssertFalse(junit.stdout.isEmpty, "the JUnit report is empty:\n\(junit.stderr)")
        let xml = try XMLDocument(data: Data(junit.stdout.utf8))
        let suites = try xml.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, [script, refresh, good])
    }

    // MARK: Pages and bounded reports (issue 14 item 12)

    func testAMissingPageIsReportedAsMissing() throws {
        let result = try CLI.run(["check", "--page", scratch.appendingPathComponent("absent.html").path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("absent.html: no such file"), result.stderr)
        XCTAssertFalse(result.stderr.contains("UTF-8"), result.stderr)
    }

    func testAFIFOAsAPageOrInAPageFolderIsRefusedAtOnce() throws {
        // Reading a FIFO waits for a writer; none comes, so the check blocked forever (issue 25).
        let folder = scratch.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try page("<body>", "<body>", name: "pages/a.html")
        let fifo = folder.appendingPathComponent("pipe.html").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, "mkfifo \(fifo): \(String(cString: strerror(errno)))")
        let cases = [
            (["check", "--page", fifo], "--page \(fifo): is a FIFO (named pipe), not a regular file"),
            (
                ["check", "--page", folder.path],
                "--page \(folder.path): \(fifo) is a FIFO (named pipe), not a regular file"
            ),
        ]
        for (arguments, message) in cases {
            let run = try RunningCLI(arguments)
            // The deadline is the failure: wait() kills a run still blocked after it and throws what did not end.
            let result = try run.wait(timeout: 30)
            XCTAssertFalse(result.signalled, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    func testATriggerThatCameAfterTheWaitIsNotCalledMissing() throws {
        // Five million elements keep the engine converting the ready for seconds: didFinish comes after the
        // check stopped waiting for it, and is on the timeline all the same.
        let path = try page(
            "window.webkit.messageHandlers.bridge.postMessage({",
            "window.webkit.messageHandlers.bridge.postMessage({ list: new Array(5000000).fill(1),", name: "big.html")
        let result = try CLI.run(["check", "--page", path, "--timeout", "3"], timeout: 120)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let sawDidFinish = result.stdout.contains("  didFinish\n")
        XCTAssertFalse(
            sawDidFinish && result.stdout.contains("didFinish did not arrive"),
            "the verdict contradicts the timeline:\n\(result.stdout)")
    }

    // MARK: Lists and files (issue 25 item 8)

    func testAListWithABOMAndCRLFLineEndsIsReadLineByLine() throws {
        let present = try page("<body>", "<body>", name: "present.html")
        let list = scratch.appendingPathComponent("list.txt")
        try Data("\u{FEFF}present.html\r\n# a comment\r\nmissing.html\r\n".utf8).write(to: list)
        let result = try CLI.run(["check", "--pages", list.path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("--pages \(list.path), line 3: no such file \(scratch.path)/missing.html;"),
            "the lines were not split at CRLF, or the BOM stayed on line 1 (\(present)): \(result.stderr)")
    }

    func testAContractFromAPipeIsRead() throws {
        let contract = scratch.appendingPathComponent("contract.json")
        try BridgeContract.default.jsonData().write(to: contract)
        let result = try CLI.runWrapped(
            ["/bin/bash", "-c", #"exec "$0" contract print --contract <(cat "$1")"#], [contract.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""handler" : "bridge""#), result.stdout + result.stderr)
    }

    func testDevNullAsAListSaysItNamesNoPage() throws {
        let result = try CLI.run(["check", "--pages", "/dev/null"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--pages /dev/null: the list names no page"), result.stderr)
    }

    func testASymlinkLoopNamedHTMLIsCalledALoopNotMissing() throws {
        let folder = scratch.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try page("<body>", "<body>", name: "pages/a.html")
        let loop = folder.appendingPathComponent("loop.html").path
        XCTAssertEqual(symlink(loop, loop), 0, "symlink \(loop): \(String(cString: strerror(errno)))")
        for arguments in [["check", "--page", loop], ["check", "--page", folder.path]] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("\(loop) is a symbolic link that loops"), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("no such file"), "\(arguments): \(result.stderr)")
        }
    }

    func testANULInAListLineIsNamedByTheListAndLine() throws {
        let list = scratch.appendingPathComponent("list.txt")
        try Data("a\u{0}b.html\n".utf8).write(to: list)
        let result = try CLI.run(["check", "--pages", list.path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("--pages \(list.path), line 1: the line holds a control character"), result.stderr)
        XCTAssertFalse(result.stderr.contains("--page \(scratch.path)"), result.stderr)
    }

    func testALatin1PageIsReadInTheCharsetItDeclares() throws {
        // "café" in ISO-8859-1: 0xE9 is not UTF-8.
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
            .replacingOccurrences(of: #"<meta charset="utf-8">"#, with: #"<meta charset="iso-8859-1">"#)
            .replacingOccurrences(of: "<body>", with: "<body>\n<p>caf\u{E9}</p>")
        let declared = scratch.appendingPathComponent("latin1.html")
        try XCTUnwrap(html.data(using: .isoLatin1)).write(to: declared)
        let result = try CLI.run(["check", "--page", declared.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(
            result.stderr.contains("windows-1252"), "a declared charset needs no fallback:\n\(result.stderr)")

        let undeclared = scratch.appendingPathComponent("undeclared.html")
        try XCTUnwrap(html.replacingOccurrences(of: #"<meta charset="iso-8859-1">"#, with: "").data(using: .isoLatin1))
            .write(to: undeclared)
        let fallback = try CLI.run(["check", "--page", undeclared.path])
        XCTAssertEqual(fallback.status, 0, fallback.stdout + fallback.stderr)
        XCTAssertTrue(fallback.stderr.contains("declares no charset; read as windows-1252"), fallback.stderr)
    }

    func testARepeatedRunKeepsCountsAndOnlyTheFirstReportsInFull() throws {
        let result = try CLI.run(["check", "--repeat", "12", "--format", "json"], timeout: 240)
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try SchemaCheck.onlyPage(try SchemaCheck.validReport(result.stdout))
        XCTAssertEqual(page["sessionCount"] as? Int, 12, result.stdout)
        XCTAssertEqual(page["omittedSessions"] as? Int, 2, result.stdout)
        XCTAssertEqual((page["sessions"] as? [Any])?.count, 10, result.stdout)
    }
}
