import BridgeTesting
import Foundation

/// One `contract lock` at a time per folder: the folder's flock, waited for with a deadline that names who holds it.
extension LockTarget {
    /// Takes the lock file's folder's lock, held until this process exits; waits at most `seconds` for another
    /// holder (a second `lock`, or any tool that flocks the folder), saying so at once and naming it.
    func takeTurn(waitingAtMost seconds: Double) throws(CommandError) {
        let directory = file.deletingLastPathComponent().path
        let shownDirectory = TerminalText.escape(directory)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandError(
                .usage,
                "\(shownDirectory): the lock file's directory can't be opened (\(String(cString: strerror(errno)))). Remedy: create it, or check its permissions"
            )
        }
        // Deliberately never closed: the flock is released when the process exits.
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK || errno == EINTR else { throw Self.cannotLock(shownDirectory, errno) }
        let holder = Self.holder(of: directory).map { "held by \($0)" } ?? "held by another process"
        let waited = BridgeCheck.seconds(seconds)
        printError("webbridge contract: waiting up to \(waited) for \(shownDirectory): its lock is \(holder)")
        // flock has no deadline: it blocks on a thread of its own while this one waits for it with one.
        let outcome = TurnOutcome()
        Thread.detachNewThread {
            var result: Int32 = 0
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    result = errno
                    break
                }
            }
            outcome.finish(result)
        }
        guard let result = outcome.wait(seconds) else {
            throw CommandError(
                .environment,
                "\(shownDirectory): still locked after \(waited), \(holder); the lock file was not changed. Remedy: let that process finish (or stop it), then run `webbridge contract lock` again, or wait longer with --wait SECONDS"
            )
        }
        if result != 0 { throw Self.cannotLock(shownDirectory, result) }
    }

    private static func cannotLock(_ directory: String, _ code: Int32) -> CommandError {
        CommandError(
            .environment,
            "\(directory): can't take the directory's lock (\(String(cString: strerror(code)))). Remedy: run one `webbridge contract lock` at a time"
        )
    }

    /// "pid N (command)" of a process holding a flock on `directory`, from /proc/locks; nil when none is found.
    static func holder(of directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        // glibc's major() and minor(), as /proc/locks prints them: MAJOR:MINOR:INODE, the numbers in hex.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF)
        let minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
        let key = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; "->" marks a waiter, not a holder.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == key, let pid = Int32(fields[4]),
                pid > 0, pid != getpid()
            else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return "pid \(pid)" + (name.map { " (\(TerminalText.escape($0)))" } ?? "")
        }
        return nil
    }
}

/// The result of the blocking flock, handed from its thread to the waiting one.
private final class TurnOutcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Int32 = 0

    func finish(_ code: Int32) {
        lock.withLock { result = code }
        done.signal()
    }

    /// The flock's errno (0: taken), or nil when `seconds` passed first.
    func wait(_ seconds: Double) -> Int32? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { result }
    }
}
