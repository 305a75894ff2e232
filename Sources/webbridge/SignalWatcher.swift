import Foundation
import XcodeRunner

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into an orderly stop on the main thread: the handler reports what was
/// done, then the process exits 128 + the signal's number (130, 143, 129, 131), as shells do. SIGTERM is how CI
/// runners cancel a job, SIGHUP a closed terminal, SIGQUIT Ctrl-\ (no core dump: the run's report is what is
/// wanted). SIGUSR1, SIGUSR2 and SIGALRM are not handled: they take their default action and end the process by
/// that signal, as for most tools (the engine's own SIGUSR1 handler, which crashed on one from outside, is
/// guarded: see `EngineSignals`).
///
/// A signal to the process group (Ctrl-C, a CI runner's cancel) also reaches the engine's web and network
/// processes, which the engine starts with the default actions and in our group (GLib's posix_spawn resets them):
/// they die at once, and a session then fails with "the web content process terminated". The C handler records
/// the signal the moment it arrives, before the engine can hear of a dead process, and `checkpoint()` is called
/// where a result is counted: a result that arrives after the signal is never reported as a verdict.
@MainActor
enum SignalWatcher {
    /// The signals that stop a run in order.
    nonisolated static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The first stop signal received, written by the C handler (0 until one arrives).
    private nonisolated(unsafe) static var received: Int32 = 0
    /// The pipe's write end the handler wakes the main loop with.
    private nonisolated(unsafe) static var wakeFD: Int32 = -1
    private static var source: (any DispatchSourceRead)?
    private static var interrupted: (@MainActor (Int32) -> Void)?

    /// Calls `interrupted` with the signal's number on the first handled signal, then exits.
    static func install(_ interrupted: @escaping @MainActor (Int32) -> Void) {
        self.interrupted = interrupted
        guard source == nil else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        received = 0
        wakeFD = ends[1]
        for number in handled {
            // Only async-signal-safe work here: keep the first signal, wake the main loop.
            signal(number) { number in
                if SignalWatcher.received == 0 { SignalWatcher.received = number }
                var byte: UInt8 = 1
                _ = write(SignalWatcher.wakeFD, &byte, 1)
            }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .main)
        source.setEventHandler {
            // Drained, so a wake-up is handled once (the source would fire again while a byte waits).
            var bytes = [UInt8](repeating: 0, count: 16)
            _ = read(ends[0], &bytes, bytes.count)
            MainActor.assumeIsolated { checkpoint() }
        }
        source.resume()
        self.source = source
    }

    /// Whether a stop signal has arrived (read from any thread; set once by the handler).
    nonisolated static var stopRequested: Bool { received != 0 }

    /// Stops the run here when a signal has arrived: reports what was done, then exits. Called where a result is
    /// about to be counted, so none that the signal cut short is taken for a verdict.
    static func checkpoint() {
        let number = received
        guard number != 0, let interrupted else { return }
        self.interrupted = nil
        interrupted(number)
        exit(Output.finalStatus(.interrupted(by: number)).rawValue)
    }

    /// The signal's name as the INTERRUPTED line says it: `SIGTERM`.
    nonisolated static func name(_ number: Int32) -> String { SignalName.of(number) }
}

extension ExitStatus {
    /// The status of a run stopped by `signal`: 128 + its number (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT).
    static func interrupted(by signal: Int32) -> ExitStatus {
        switch signal {
        case SIGINT: .interruptedBySIGINT
        case SIGHUP: .interruptedBySIGHUP
        case SIGQUIT: .interruptedBySIGQUIT
        default: .interruptedBySIGTERM
        }
    }
}
