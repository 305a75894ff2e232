#if os(Linux)
import Foundation
import Glibc

/// The engine's web processes paused with SIGSTOP (a stressed session's starved web process), always resumed.
///
/// Pauses are counted holds: a process gets SIGCONT when the last hold on it is released, so two sessions that
/// pause at once never resume each other early. Whatever is still paused is resumed at exit (the CLI's SIGINT and
/// SIGTERM handlers exit through it), so a paused process is resumed or ended, never left stopped. A check killed
/// outright (SIGKILL, a crash) runs no exit handler; its web processes end with it all the same, stopped or not:
/// WebKit starts them with a parent-death SIGKILL.
package enum PausedProcesses {
    private static let lock = NSLock()
    private nonisolated(unsafe) static var holds = 0
    private nonisolated(unsafe) static var paused: Set<pid_t> = []
    private nonisolated(unsafe) static var registered = false

    /// Stops every web process this process started and returns how many it stopped; release with ``release()``.
    @discardableResult
    package static func hold() -> Int {
        let pids = EngineProcesses.descendants(of: getpid(), named: ["WebKitWebProces"])
        return lock.withLock {
            if !registered {
                registered = true
                atexit { PausedProcesses.resumeAll() }
            }
            holds += 1
            for pid in pids where kill(pid, SIGSTOP) == 0 { paused.insert(pid) }
            return pids.count
        }
    }

    /// Releases one hold; the last one resumes every paused process.
    package static func release() {
        lock.withLock {
            holds = max(0, holds - 1)
            if holds == 0 { resumeLocked() }
        }
    }

    /// Resumes every paused process now, whatever holds remain (exit, a failed session).
    package static func resumeAll() {
        lock.withLock {
            holds = 0
            resumeLocked()
        }
    }

    /// Processes paused right now.
    package static var pausedNow: [pid_t] { lock.withLock { Array(paused) } }

    private static func resumeLocked() {
        for pid in paused { kill(pid, SIGCONT) }
        paused.removeAll()
    }
}
#endif
