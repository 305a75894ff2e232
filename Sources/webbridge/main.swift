import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

// Thin entry point: each subcommand lives in its own file over the libraries.
let subcommands: KeyValuePairs<String, @MainActor (ArraySlice<String>) async -> ExitStatus> = [
    "check": CheckCommand.run,
    "contract": ContractCommand.run,
    "doctor": DoctorCommand.run,
    "report": ReportCommand.run,
    "xcode": XcodeCommand.run,
]

let options = OptionTable(
    command: "webbridge",
    positionals: [Positional("subcommand", "<subcommand>", choices: subcommands.map(\.key))],
    options: [
        .flag("--version", "print the version (`\(WebBridgeVersion.tool)`) and exit"),
        .value(
            "--generate-completion-script", "SHELL",
            "print the completion script for SHELL, generated from the option tables, and exit",
            rule: .choice(Completions.Shell.allCases.map(\.rawValue))),
        .flag(
            "--generate-manual", "print the man page (roff, webbridge.1), generated from the option tables, and exit"),
    ])

let description = "Tests the message bridge between a web page and native code as a contract."

let exitCodes = """
    0 pass, 1 contract failure, 2 usage, 3 environment, 4 page not deployed / request failed,
    130/143 stopped by SIGINT/SIGTERM (after reporting what was done), 141 standard output closed
    by its reader (`| head`: it has what it wanted; ended quietly, as SIGPIPE would)

    A file named on the command line (or its default) that is missing, unreadable or write-protected
    is a usage error (2), naming the path and the remedy (one exception: a lock never written yet,
    which `contract diff` reports as a contract failure, 1). 3 is the environment: the engine, the
    installation, or output that cannot be written (a full disk, a closed standard error).
    """

let usage = """
    \(options.synopsis()) [options]

    \(description)

    OPTIONS:
    \(options.optionsHelp())

    SUBCOMMANDS:
    \(Manual.subcommandList)

    EXIT CODES:
    \(exitCodes.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n"))

    See 'webbridge help <subcommand>' (or 'webbridge <subcommand> --help').
    """

/// Runs the subcommand named in `argv`: its first word, the rest being that subcommand's command line.
@MainActor
func dispatch(_ argv: ArraySlice<String>) async -> ExitStatus {
    // `--version` before any subcommand, as swift-format and swift-argument-parser tools take it, or as the only
    // option after one (`webbridge check --version`, `webbridge xcode test --version`); on stdout, exit 0.
    if argv.first == "--version" || (argv.last == "--version" && argv.dropLast().allSatisfy { !$0.hasPrefix("-") }) {
        Output.out(WebBridgeVersion.tool)
        return .pass
    }
    // Generated from the option tables, on stdout, exit 0 (as swift-argument-parser tools take
    // --generate-completion-script).
    if argv.first == "--generate-manual" || argv.first == "--generate-completion-script" {
        // The same options without the subcommand the root table requires.
        switch OptionTable(command: options.command, options: options.options).read(argv, help: usage) {
        case .exit(let status): return status
        case .options(let parsed):
            if let shell = parsed.value("--generate-completion-script").flatMap(Completions.Shell.init) {
                Output.out(Completions.script(shell, for: Manual.tree))
            } else {
                Output.out(data: Data(Manual.page.utf8))
            }
            return .pass
        }
    }
    // `webbridge help` is the top-level help; `webbridge help check` is `webbridge check --help`.
    if argv.first == "help" {
        let rest = argv.dropFirst()
        guard let name = rest.first else {
            Output.out(usage)
            return .pass
        }
        guard rest.count == 1, let run = subcommands.first(where: { $0.key == name })?.value else {
            let names = subcommands.map(\.key).joined(separator: ", ")
            printError(
                "webbridge help: \(rest.count == 1 ? "unknown subcommand '\(TerminalText.escape(name))'" : "takes one subcommand"); give one of \(names) (e.g. webbridge help check)"
            )
            return .usage
        }
        return await run(["--help"])
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
