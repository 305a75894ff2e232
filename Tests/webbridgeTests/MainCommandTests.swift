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
                "webbridge: unknown subcommand 'frobnicate'; give one of check, contract, doctor, xcode\n"),
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
}
