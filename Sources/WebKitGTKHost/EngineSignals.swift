#if os(Linux)
import CEngineSignals

/// The signals the engine takes over in this process.
///
/// JavaScriptCore suspends its threads with SIGUSR1, and its handler crashes the process (SIGSEGV) on a
/// SIGUSR1 sent from outside. Once the engine is up, a guard passes the engine's own SIGUSR1 on and gives any
/// other one the default action: the process ends by SIGUSR1, as it ends by SIGUSR2 or SIGALRM, never by a crash.
package enum EngineSignals {
    private nonisolated(unsafe) static var guarded = false

    /// Puts the guard in front of the engine's SIGUSR1 handler; call after creating a web view (the engine
    /// installs its handler when it initializes). Once in place, later calls return at once.
    @MainActor
    package static func guardSIGUSR1() {
        guard !guarded else { return }
        guarded = ces_guard_sigusr1() == 1
    }
}
#endif
