#if os(Linux)
import Foundation
import Glibc

/// The engine's web processes paused with SIGSTOP (a stressed session's starved web process), always resumed.
///
/// Pauses are counted holds per process: a process gets SIGCONT when the last hold on it is released, so two
/// sessions that pause it at once never resume each other early. Whatever is still paused is resumed at exit (the
/// CLI's stop-signal handlers exit through it). A check killed outright (SIGKILL, a crash, the OOM killer) runs no
/// exit handler, and a stopped process never runs to notice its UI process is gone: for that, ``PauseWatchdog``
/// is told of each process before it is stopped and ends what is still stopped once the check is gone. A process
/// the watchdog cannot cover is not paused. So a paused process is resumed or ended, never left stopped.
package enum PausedProcesses {
    private static let lock = NSLock()
    /// How many holds each paused process has.
    private nonisolated(unsafe) static var holds: [pid_t: Int] = [:]
    private nonisolated(unsafe) static var registered = false

    /// Stops `pids` (nil: every web process this process started) and returns those held, to pass to
    /// ``release(_:)``; a pid already gone is left out.
    @discardableResult
    package static func hold(_ pids: [pid_t]? = nil) -> [pid_t] {
        let candidates = pids ?? EngineProcesses.webProcesses()
        return lock.withLock {
            if !registered {
                registered = true
                atexit { PausedProcesses.resumeAll() }
            }
            return candidates.filter { pid in
                if let count = holds[pid] {
                    holds[pid] = count + 1
                    return true
                }
                guard PauseWatchdog.willStop(pid) else { return false }
                guard kill(pid, SIGSTOP) == 0 else {
                    PauseWatchdog.resumed(pid)
                    return false
                }
                holds[pid] = 1
                return true
            }
        }
    }

    /// Releases one hold on each of `pids`; a process is resumed when its last hold is released.
    package static func release(_ pids: [pid_t]) {
        lock.withLock {
            for pid in pids {
                guard let count = holds[pid] else { continue }
                if count > 1 {
                    holds[pid] = count - 1
                } else {
                    holds[pid] = nil
                    kill(pid, SIGCONT)
                    PauseWatchdog.resumed(pid)
                }
            }
        }
    }

    /// Resumes every paused process now, whatever holds remain (exit, a failed session).
    package static func resumeAll() {
        lock.withLock {
            for pid in holds.keys {
                kill(pid, SIGCONT)
                PauseWatchdog.resumed(pid)
            }
            holds.removeAll()
        }
    }

    /// Processes paused right now.
    package static var pausedNow: [pid_t] { lock.withLock { Array(holds.keys) } }
}
#endif
