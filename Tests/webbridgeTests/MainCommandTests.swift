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
}
