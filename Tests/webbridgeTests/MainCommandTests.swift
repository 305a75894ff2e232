import XCTest

/// The top level of `webbridge`: help, unknown subcommands, exit codes.
final class MainCommandTests: XCTestCase {
    func testHelpListsTheSubcommandsAndExitCodes() throws {
        let result = try CLI.run(["--help"])
        XCTAssertEqual(result.status, 0)
        for word in ["check", "contract", "xcode", "EXIT CODES", "3 environment", "4 page not deployed"] {
            XCTAssertTrue(result.stdout.contains(word), "help lacks \(word)")
        }
    }

    func testUnknownSubcommandExitsTwoWithOneLineAndUsage() throws {
        let result = try CLI.run(["frobnicate"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "webbridge: unknown subcommand 'frobnicate'; give one of check, contract, doctor, report, xcode\n"),
            result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testMissingSubcommandExitsTwo() throws {
        let result = try CLI.run([])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("missing subcommand"), result.stderr)
    }

    func testEverySubcommandHasHelp() throws {
        for subcommand in ["check", "contract", "xcode"] {
            let result = try CLI.run([subcommand, "--help"])
            XCTAssertEqual(result.status, 0, "\(subcommand) --help: \(result.stderr)")
            XCTAssertTrue(
                result.stdout.contains("USAGE: webbridge \(subcommand)"), "\(subcommand) --help:\n\(result.stdout)")
        }
    }

    func testVersionPrintsOneLineAndExitsZero() throws {
        let result = try CLI.run(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertNotNil(
            result.stdout.wholeMatch(of: /webbridge \d+\.\d+\.\d+\n/), "not `webbridge X.Y.Z`: \(result.stdout)")
        XCTAssertTrue(try CLI.run(["--help"]).stdout.contains("--version"), "the help does not list --version")
    }

    func testVersionSubcommandPointsAtTheOption() throws {
        let result = try CLI.run(["version"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("webbridge --version"), result.stderr)
    }

    /// The header line, the JSON and the HTML report carry the version `--version` prints (one source).
    func testReportsCarryTheVersion() throws {
        let version = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .newlines)
        let number = String(version.dropFirst("webbridge ".count))
        let text = try CLI.run(["check"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(
            text.stdout.split(separator: "\n").first?.hasSuffix(", \(version)") == true, text.stdout)
        let json = try CLI.run(["check", "--format", "json"])
        let document = try SchemaCheck.validReport(json.stdout)
        XCTAssertEqual(document["webbridgeVersion"] as? String, number)
        let html = try CLI.run(["check", "--format", "html"])
        XCTAssertTrue(html.stdout.contains("<meta name=\"generator\" content=\"\(version)\">"), html.stdout)
    }

    /// `webbridge help SUB` is `webbridge SUB --help`; `webbridge help` is the top-level help.
    func testHelpSubcommandPrintsThatSubcommandsHelp() throws {
        for subcommand in ["check", "contract", "doctor", "report", "xcode"] {
            let help = try CLI.run(["help", subcommand])
            XCTAssertEqual(help.status, 0, "help \(subcommand): \(help.stderr)")
            XCTAssertEqual(help.stdout, try CLI.run([subcommand, "--help"]).stdout, "help \(subcommand)")
        }
        XCTAssertEqual(try CLI.run(["help"]).stdout, try CLI.run(["--help"]).stdout)
        let unknown = try CLI.run(["help", "chek"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(
            unknown.stderr.contains("unknown subcommand 'chek'; give one of check, contract, doctor, report, xcode"),
            unknown.stderr)
    }

    /// The help and the man page say what a closed standard output does: exit 141, as a real `| head` shows.
    func testTheExitCodesOfTheHelpAndManPageMatchAClosedPipe() throws {
        let manual = try CLI.run(["--generate-manual"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for (name, text) in [
            ("--help", try CLI.run(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")), ("man", manual),
        ] {
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(words.contains("141 standard output closed by its reader"), "\(name): \(words)")
            XCTAssertFalse(words.contains("a closed stream"), "\(name) says a closed stream exits 3")
        }
        let run = try ExternalTool.run([
            "bash", "-c", "set -o pipefail; \"$0\" check --repeat 200 | head -1", CLI.binary.path,
        ])
        XCTAssertEqual(run.status, 141, run.stdout + run.stderr)
    }
}
