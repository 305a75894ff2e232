import BridgeTesting
import CommandLineOptions
import Foundation

/// The one error `webbridge`'s commands throw: `status` says what went wrong as the exit status it ends with, and
/// the description names the field, the rule and the remedy, with any control characters (from the arguments and
/// paths it quotes) escaped. What the option table refuses is a `CommandLineError`.
struct CommandError: Error, CustomStringConvertible {
    let status: ExitStatus
    let description: String

    /// A command line whose options parse but whose values don't work (a page that is missing, a shard of an empty
    /// list): exit 2 with a one-line message and the usage.
    init(_ description: String) { self.init(.usage, description) }

    /// A command that can't go on: a contract that breaks the rules (1), a path to fix (2), the machine (3).
    init(_ status: ExitStatus, _ description: String) {
        self.status = status
        self.description = TerminalText.escapeLines(description)
    }
}

extension OptionTable {
    /// Reports a usage error as every `webbridge` command does, `<command>: <error>` then the hint: exit 2.
    func usageError(_ error: any Error) -> ExitStatus {
        printError("\(command): \(error)")
        printError(usageHint)
        return .usage
    }

    /// Reads a command line: its options, or the status to exit with once the help (0) or the usage error (2)
    /// is printed.
    func read(_ argv: some Sequence<String>, help: @autoclosure () -> String) -> Reading {
        do {
            let parsed = try parse(argv)
            guard !parsed.wantsHelp else {
                Output.out(help())
                return .exit(.pass)
            }
            return .options(parsed)
        } catch {
            return .exit(usageError(error))
        }
    }
}

/// A command line read by its table: the options, or the exit status when there is nothing left to do.
enum Reading {
    case options(ParsedOptions)
    case exit(ExitStatus)
}

/// The documented exit codes of `webbridge`.
enum ExitStatus: Int32 {
    case pass = 0
    case contractFailure = 1
    case usage = 2
    case environment = 3
    case pageUnreachable = 4
    /// `xcode test --timeout` stopped a run, as timeout(1) reports it.
    case timedOut = 124
    /// Stopped by SIGHUP (the terminal closed) after reporting what was done.
    case interruptedBySIGHUP = 129
    /// Stopped by SIGINT (Ctrl-C) after reporting what was done.
    case interruptedBySIGINT = 130
    /// Stopped by SIGQUIT (Ctrl-\) after reporting what was done.
    case interruptedBySIGQUIT = 131
    /// Standard output's reader closed it (`| head -1`): the shell's status for a process ended by SIGPIPE.
    case closedByReader = 141
    /// Stopped by SIGTERM after reporting what was done.
    case interruptedBySIGTERM = 143
}
