import Foundation

/// Turns SIGINT and SIGTERM into an orderly stop on the main thread: the handler reports what was done, then
/// the process exits 128 + the signal's number (130, 143), as shells do.
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
