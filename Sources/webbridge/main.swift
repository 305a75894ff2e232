import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

// Thin entry point: each subcommand lives in its own file over the libraries.
let subcommands: KeyValuePairs<String, @MainActor (ArraySlice<String>) async -> ExitStatus> = [
    "check": CheckCommand.run,
    "contract": ContractCommand.run,
    "doctor": DoctorCommand.run,
    "xcode": XcodeCommand.run,
]

let options = OptionTable(
    command: "webbridge",
    positionals: [Positional("subcommand", "<subcommand>", choices: subcommands.map(\.key))],
    options: [.flag("--version", "print the version (`\(WebBridgeVersion.tool)`) and exit")])

let usage = """
    \(options.synopsis()) [options]

    Tests the message bridge between a web page and native code as a contract.

    OPTIONS:
      --version   Print the version (`\(WebBridgeVersion.tool)`) and exit 0.
      -h, --help  Show this help.

    SUBCOMMANDS:
      check       Run both directions of the bridge on the real WebKit engine.
      contract    Print, lock, diff or export the bridge contract.
      doctor      Check WebKitGTK, Xvfb, the display and the test styles before `swift test`.
      xcode       Pin, preflight and run the bridge tests on a cloud Mac.

    EXIT CODES:
      0 pass, 1 contract failure, 2 usage, 3 environment, 4 page not deployed / request failed,
      130/143/129/131 stopped by SIGINT/SIGTERM/SIGHUP/SIGQUIT (after reporting what was done),
      141 standard output closed by its reader (`| head`)

      A file named on the command line (or its default) that is missing, unreadable or write-protected
      is a usage error (2), naming the path and the remedy (one exception: a lock never written yet,
      which `contract diff` reports as a contract failure, 1). 3 is the environment: the engine, the
      installation, or output that cannot be written (a full disk, a closed stream).

    See 'webbridge <subcommand> --help'.
    """

/// Runs the subcommand named in `argv`: its first word, the rest being that subcommand's command line.
@MainActor
func dispatch(_ argv: ArraySlice<String>) async -> ExitStatus {
    // `--version` before any subcommand, as swift-format and swift-argument-parser tools take it; on stdout, exit 0.
    if argv.first == "--version" {
        Output.out(WebBridgeVersion.tool)
        return .pass
    }
    if argv.first == "version" {
        printError("webbridge: unknown subcommand 'version'; the version is an option: webbridge --version")
        printError(options.usageHint)
        return .usage
    }
    switch options.read(argv.prefix(1), help: usage) {
    case .exit(let status): return status
    case .options(let parsed):
        let run = subcommands.first { $0.key == parsed.positionals[0] }!.value
        return await run(argv.dropFirst())
    }
}

// WebKit must run on the process's real main thread. An async top level would hand the main queue to
// dispatch_main(), which drains it on a worker thread on Linux; the engine's main loop keeps it on the main
// thread (on Linux GLib's loop, which drains the main queue too: no thread hop per engine event).
Output.prepare()
Task { @MainActor in
    let status = await dispatch(CommandLine.arguments.dropFirst())
    exit(Output.finalStatus(status).rawValue)
}
EngineEnvironment.runMainLoop()
