import Foundation

/// Turns SIGINT and SIGTERM into an orderly stop on the main thread: the handler reports what was done, then
/// the process exits 128 + the signal's number (130, 143), as shells do. SIGUSR1, SIGUSR2 and SIGALRM are not
/// handled: they take their default action and end the process by that signal, as for most tools (the engine's
/// own SIGUSR1 handler, which crashed on one from outside, is guarded: see `EngineSignals`).
@MainActor
enum SignalWatcher {
    private static var sources: [any DispatchSourceSignal] = []

    /// Calls `interrupted` with the signal's number on the first SIGINT or SIGTERM, then exits.
    static func install(_ interrupted: @escaping @MainActor (Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            // The default action would end the process at once, losing the partial report.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated {
                    interrupted(number)
                    exit(Output.finalStatus(.interrupted(by: number)).rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}

extension ExitStatus {
    /// The status of a run stopped by `signal`: 130 for SIGINT, 143 for SIGTERM.
    static func interrupted(by signal: Int32) -> ExitStatus {
        signal == SIGINT ? .interruptedBySIGINT : .interruptedBySIGTERM
    }
}
