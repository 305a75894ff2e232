import CommandLineOptions
import Foundation
import TerminalEscape

/// Standard output and error written with `write(2)`: unbuffered, so a signal loses nothing already reported,
/// and a failed write (a full disk, a closed stream) is remembered and turned into exit 3, never a crash.
enum Output {
    /// The standard streams and what went wrong writing them.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var failures: [Int32: Int32] = [:]
        /// The progress line shown on standard error (a terminal), erased before any other line is written to
        /// that terminal and drawn again after it.
        var status: String?
        /// `--color`: auto, always or never.
        var colourChoice = "auto"
    }
    private static let state = State()

    /// Makes failed writes reportable: a closed pipe is an error, not SIGPIPE, and a closed stream stays closed.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        // A stream closed at start (`>&-`) would be reused by the next file opened, so output could land in it:
        // hold its number with a read-only /dev/null, where every write fails (EBADF) and is reported.
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let null = open("/dev/null", O_RDONLY)
            if null >= 0, null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    /// Whether standard output failed: the report can't reach anyone, so further work is wasted.
    static var standardOutputFailed: Bool {
        state.lock.lock()
        defer { state.lock.unlock() }
        return state.failures[STDOUT_FILENO] != nil
    }

    /// Writes `text` and a newline to standard output.
    static func out(_ text: String) { send(text + "\n", to: STDOUT_FILENO) }

    /// Writes `data` to standard output as it is.
    static func out(data: Data) { send(data, to: STDOUT_FILENO) }

    /// Writes `text` and a newline to standard error.
    static func err(_ text: String) { send(text + "\n", to: STDERR_FILENO) }

    /// Writes text of a report to standard output, its verdicts in colour when `colour` holds.
    static func report(_ text: String) { out(colour ? TerminalStyle.colouringVerdicts(text) : text) }

    /// Whether standard output is coloured: `--color`, else `FORCE_COLOR`, else a terminal without `NO_COLOR`
    /// (see `TerminalStyle.usesColour`).
    static var colour: Bool {
        state.lock.lock()
        defer { state.lock.unlock() }
        return TerminalStyle.usesColour(
            isTerminal: isatty(STDOUT_FILENO) != 0, environment: ProcessInfo.processInfo.environment,
            choice: state.colourChoice)
    }

    /// `--color WHEN`, as `check` and `report merge` take it.
    static let colourOption = Option.value(
        "--color", "WHEN",
        "colour the verdicts: auto (on a terminal unless NO_COLOR is set; FORCE_COLOR colours a pipe or a CI log), "
            + "always or never",
        rule: .choice(TerminalStyle.colourChoices), default: .value("auto"))

    /// Applies `--color WHEN` (nil: auto).
    static func chooseColour(_ choice: String?) {
        state.lock.lock()
        state.colourChoice = choice ?? "auto"
        state.lock.unlock()
    }

    /// Whether standard output and standard error are both terminals (the same one, in practice): a line on
    /// standard output would be glued to the progress line on standard error.
    private static let sharedTerminal = isatty(STDOUT_FILENO) != 0 && isatty(STDERR_FILENO) != 0

    /// Shows `text` as the progress line on standard error, in place of the last one; nil erases it.
    static func status(_ text: String?) {
        state.lock.lock()
        defer { state.lock.unlock() }
        let shown = state.status != nil
        state.status = text
        guard shown || text != nil else { return }
        write(Data((TerminalStyle.eraseLine + (text ?? "")).utf8), to: STDERR_FILENO)
    }

    private static func send(_ text: String, to descriptor: Int32) { send(Data(text.utf8), to: descriptor) }

    private static func send(_ data: Data, to descriptor: Int32) {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard let status = state.status, descriptor == STDERR_FILENO || sharedTerminal else {
            write(data, to: descriptor)
            return
        }
        // The progress line gives way to the line, then comes back under it.
        write(Data(TerminalStyle.eraseLine.utf8), to: STDERR_FILENO)
        write(data, to: descriptor)
        write(Data(status.utf8), to: STDERR_FILENO)
    }

    /// Writes all of `data`, remembering a failure; the caller holds the lock.
    private static func write(_ data: Data, to descriptor: Int32) {
        // After one failure the stream is given up: the rest would fail the same way.
        guard state.failures[descriptor] == nil else { return }
        if let failure = writeFully(data, to: descriptor) { state.failures[descriptor] = failure }
    }

    /// The status to exit with: 3 when output was lost (the report is incomplete), otherwise `status`.
    ///
    /// Also flushes what `print` buffered (subcommands that print through the C library), checking it too.
    static func finalStatus(_ status: ExitStatus) -> ExitStatus {
        if fflush(nil) != 0 {
            state.lock.lock()
            state.failures[STDOUT_FILENO] = state.failures[STDOUT_FILENO] ?? errno
            state.lock.unlock()
        }
        state.lock.lock()
        let failures = state.failures
        state.lock.unlock()
        // The reader closed the pipe (`| head -1`): it has what it wanted, so end quietly, as SIGPIPE would.
        if failures[STDOUT_FILENO] == EPIPE { return .closedByReader }
        if let code = failures[STDOUT_FILENO] {
            // Standard error may still work; if it doesn't, the exit status alone says it.
            err(
                "webbridge: the output could not be written (\(String(cString: strerror(code)))); the report is incomplete. Remedy: free disk space, or send standard output to a file or pipe that can be written"
            )
            return .environment
        }
        if failures[STDERR_FILENO] != nil { return .environment }
        return status
    }
}

/// Standard error, unbuffered, for diagnostics; a failed write makes the exit status 3.
func printError(_ text: String) {
    Output.err(text)
}

/// Writes all of `data` to `descriptor`, again after a short write or an interrupted call; the errno that stopped
/// it (EIO for a write of nothing), or nil when every byte went. A non-blocking descriptor that is full (EAGAIN)
/// asks `whenFull`, which waits and returns nil to go on, or the errno to stop with; without it EAGAIN stops.
func writeFully(_ data: Data, to descriptor: Int32, whenFull: (() -> Int32?)? = nil) -> Int32? {
    data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0 else { return EIO }
            let failure = errno
            if failure == EINTR && whenFull == nil { continue }
            // EINTR while full: a stop signal may have come, which `whenFull` looks for.
            guard failure == EAGAIN || failure == EINTR, let whenFull else { return failure }
            if let stop = whenFull() { return stop }
        }
        return nil
    }
}
