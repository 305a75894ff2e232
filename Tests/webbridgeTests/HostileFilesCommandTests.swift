import Foundation
import XCTest

/// The files a user names, as a hostile or careless user names them: one-character names, a report path that is
/// one of the run's own inputs (however it is reached), and a FIFO nobody reads.
final class HostileFilesCommandTests: XCTestCase {
    var scratch: URL!
    static let defaultContract = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BridgeContract/Resources/DefaultContract.json")

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: scratch.appendingPathComponent(name).path).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The bundled fixture's page, copied as `name`.
    func fixture(as name: String) throws -> String {
        try write(name, try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8))
    }

    /// A one-character name (a bare name, with a trailing slash's sibling, a non-ASCII one) for every file a
    /// command takes: the page, its list, the contract, the play, a user script, each report, a lock.
    func testOneCharacterFileNamesWorkLikeAnyOther() throws {
        _ = try fixture(as: "p")
        try write("l", "p\n")
        try write("u", "window.userScriptRan = true;\n")
        let contract = try String(contentsOf: Self.defaultContract, encoding: .utf8)
        try write("c", contract)
        let run = try CLI.run(
            [
                "check", "--pages", "l", "--contract", "c", "--user-script", "u", "--report", "junit=j",
                "--report", "html=é", "--report", "json=r",
            ], currentDirectory: scratch)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(read("j")?.contains("<testsuite") == true, "junit=j not written")
        XCTAssertTrue(read("é")?.contains("<html") == true, "html=é not written")
        let single = try CLI.run(["check", "--page", "p", "--report", "junit=k"], currentDirectory: scratch)
        XCTAssertEqual(single.status, 0, single.stdout + single.stderr)
        let merged = try CLI.run(["report", "merge", "r", "--report", "junit=m"], currentDirectory: scratch)
        XCTAssertEqual(merged.status, 0, merged.stdout + merged.stderr)
        XCTAssertTrue(read("m")?.contains("<testsuite") == true, "junit=m not written")
        // A report in a folder of one character that does not exist is refused, not a crash.
        let missing = try CLI.run(["check", "--page", "p", "--report", "junit=x/"], currentDirectory: scratch)
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        let lock = try CLI.run(["contract", "lock", "--contract", "c"], currentDirectory: scratch)
        XCTAssertEqual(lock.status, 0, lock.stdout + lock.stderr)
    }

    /// Every file the check reads, reached by any name (the same path, a relative one, a hard link, the script a
    /// contract or a play names, a page a list names, a file of the served folder): a report never replaces it.
    func testAReportNeverReplacesAFileTheCheckReads() throws {
        let page = try fixture(as: "page.html")
        let script = try write("script.js", "window.fromScript = 1;\n")
        let named = try write("named.js", "window.fromContract = 1;\n")
        let played = try write("played.js", "window.fromPlay = 1;\n")
        let steps =
            #""steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]"#
        var contract = try String(contentsOf: Self.defaultContract, encoding: .utf8)
        let brace = try XCTUnwrap(contract.lastIndex(of: "}"))
        contract.replaceSubrange(
            brace...brace, with: #", "check": {"userScripts": [{"file": "named.js"}], \#(steps)}}"#)
        let contractPath = try write("contract.json", contract)
        let play = try write("play.json", #"{"userScripts": [{"file": "played.js"}], \#(steps)}"#)
        let list = try write("list.txt", "page.html\n")
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("site"), withIntermediateDirectories: true)
        let module = try write("site/module.js", "export const a = 1;\n")
        let servedPage = try fixture(as: "site/index.html")
        let linked = scratch.appendingPathComponent("hard-link.html").path
        XCTAssertEqual(link(page, linked), 0, String(cString: strerror(errno)))
        let cases: [(arguments: [String], report: String, option: String)] = [
            (["--page", page, "--user-script", script], script, "--user-script"),
            (["--page", page, "--user-script", "end,all-frames:\(script)"], script, "--user-script"),
            (["--page", page, "--contract", contractPath], named, "userScripts"),
            (["--page", page, "--play", play], played, "userScripts"),
            (["--pages", list], page, "--page"),
            (["--page", page], linked, "--page"),
            (["--page", linked], "./" + (page as NSString).lastPathComponent, "--page"),
            (["--serve", scratch.appendingPathComponent("site").path, "--page", servedPage], module, "--serve"),
        ]
        for (arguments, report, option) in cases {
            let before = try XCTUnwrap(FileManager.default.contents(atPath: report.hasPrefix("./") ? page : report))
            let run = try CLI.run(
                ["check"] + arguments + ["--report", "junit=\(report)"], currentDirectory: scratch)
            let output = run.stdout + run.stderr
            XCTAssertEqual(run.status, 2, "\(arguments) --report junit=\(report): \(output)")
            XCTAssertTrue(output.contains("a report never replaces a file the command reads"), output)
            XCTAssertTrue(output.contains(option), "\(option) not named: \(output)")
            XCTAssertEqual(
                FileManager.default.contents(atPath: report.hasPrefix("./") ? page : report), before,
                "\(report) was changed")
        }
    }

    /// A FIFO with no reader: the report is not written (exit 3, saying why) and nothing blocks; with a reader,
    /// the reader gets the whole report.
    func testAReportToAFIFOWithNoReaderFailsAtOnceAndOneWithAReaderGetsIt() throws {
        let fifo = scratch.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let run = try RunningCLI(["check", "--report", "junit=\(fifo)"])
        let result = try run.wait(timeout: 60)
        XCTAssertFalse(result.signalled, "the check hung on the FIFO and had to be killed")
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("no process reads the FIFO"), result.stderr)
        // A reader (this test, holding the FIFO open): the report goes through it whole.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let fed = try CLI.run(["check", "--report", "junit=\(fifo)"])
        XCTAssertEqual(fed.status, 0, fed.stdout + fed.stderr)
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = Foundation.read(reader, &bytes, bytes.count)
        let report = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        XCTAssertTrue(report.contains("</testsuites>"), report)
    }

    /// SIGTERM while the report is being written to a FIFO whose reader never reads: the check ends (143), it
    /// does not wait for the reader.
    func testSIGTERMEndsACheckWritingToAFIFOThatIsNeverRead() throws {
        let fifo = scratch.appendingPathComponent("stalled").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A reader that holds the FIFO open and never reads, its buffer one page: any report fills it.
        let holder = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(holder, 0)
        defer { close(holder) }
        let pipeSize: Int32 = 1031  // F_SETPIPE_SZ
        XCTAssertEqual(fcntl(holder, pipeSize, 4096), 4096)
        let run = try RunningCLI(["check", "--report", "html=\(fifo)"])
        // The first byte of the report: the check is writing it, and blocks once the page is full.
        var ready = pollfd(fd: holder, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 120_000), 1, "the check never wrote to the FIFO: \(run.stdout)")
        run.signal(SIGTERM)
        let result = try run.wait(timeout: 60)
        XCTAssertFalse(result.signalled, "SIGTERM did not end the check: \(result.stdout)")
        XCTAssertEqual(result.status, 143, result.stdout + result.stderr)
    }

    /// A page that fails without any perturbation: the stress verdict says so, and never blames a timing.
    func testAPageThatFailsUnperturbedIsNotBlamedOnATiming() throws {
        let html = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        XCTAssertTrue(html.contains("window.bridgeReceive"), "the fixture changed: update this test")
        let broken = try write(
            "broken.html", html.replacingOccurrences(of: "window.bridgeReceive", with: "window.bridgeReceived"))
        let run = try CLI.run(["check", "--page", broken, "--stress", "4"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertFalse(run.stdout.contains("smallest that still fails"), run.stdout)
        XCTAssertTrue(run.stdout.contains("fails without any perturbation"), run.stdout)
        let json = try CLI.run(["check", "--page", broken, "--stress", "2", "--format", "json"])
        XCTAssertTrue(json.stdout.contains("\"failsUnperturbed\" : true"), json.stdout)
    }

    /// `webbridge <subcommand> [--version]`, as the usage line shows it: `webbridge check --version` prints the
    /// version, for every subcommand and nested one.
    func testEveryCommandTakesVersionAsTheUsageShows() throws {
        let top = try CLI.run(["--version"])
        XCTAssertEqual(top.status, 0, top.stderr)
        let usage = try CLI.run(["--help"])
        XCTAssertTrue(usage.stdout.contains("webbridge <subcommand> [--version]"), usage.stdout)
        let commands = [
            ["check"], ["contract"], ["doctor"], ["report"], ["xcode"], ["xcode", "test"], ["report", "merge"],
        ]
        for command in commands {
            let run = try CLI.run(command + ["--version"])
            XCTAssertEqual(run.status, 0, "\(command) --version: \(run.stdout + run.stderr)")
            XCTAssertEqual(run.stdout, top.stdout, "\(command) --version")
        }
    }
}
