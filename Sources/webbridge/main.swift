import Foundation

// Thin entry point: each subcommand lives in its own file over the libraries.
let usage = """
    USAGE: webbridge <subcommand> [options]

    Tests the message bridge between a web page and native code as a contract.

    SUBCOMMANDS:
      check       Run both directions of the bridge on the real WebKit engine.
      contract    Print, lock, diff or export the bridge contract.
      xcode       Pin, preflight and run the bridge tests on a cloud Mac.

    EXIT CODES:
      0 pass, 1 contract failure, 2 usage, 3 environment, 4 page not deployed / request failed

    See 'webbridge <subcommand> --help'.
    """

let subcommands: [String: @MainActor (ArraySlice<String>) async -> ExitStatus] = [
    "check": CheckCommand.run,
    "contract": ContractCommand.run,
    "xcode": XcodeCommand.run,
]

let argv = CommandLine.arguments.dropFirst()
let status: ExitStatus
if let name = argv.first, let run = subcommands[name] {
    status = await run(argv.dropFirst())
} else if argv.first == "--help" || argv.first == "-h" {
    print(usage)
    status = .pass
} else {
    printError("webbridge: \(argv.first.map { "unknown subcommand '\($0)'" } ?? "missing subcommand")")
    printError("Usage: webbridge <check|contract|xcode> [options]; see 'webbridge --help'.")
    status = .usage
}
exit(status.rawValue)
