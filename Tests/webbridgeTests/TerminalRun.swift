#if os(Linux)
import Foundation
import XCTest

/// A `webbridge` run on a real pseudo-terminal, as from an interactive shell: a session of its own whose
/// controlling terminal is the pty (stdin, stdout and stderr on it), so its process group is the terminal's
/// foreground group. Typing Ctrl-C (`interrupt()`) makes the line discipline send SIGINT to that whole group, as
/// a terminal does.
final class TerminalRun: @unchecked Sendable {
    let pid: pid_t
    private let master: Int32
    private let condition = NSCondition()
    private var output = Data()
    private var closed = false
    private var exitStatus: Int32?

    /// Starts `webbridge` with `arguments` on a new pty `columns` wide, with `environment` added to ours (TERM
    /// is xterm, NO_COLOR unset unless given).
    init(_ arguments: [String], environment extra: [String: String] = [:], columns: UInt16 = 200) throws {
        // posix_openpt, unlockpt and ptsname as Linux implements them (Swift's Glibc module leaves them out):
        // TIOCSPTLCK unlocks the pty, TIOCGPTN gives its number under /dev/pts.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw TerminalError("no pseudo-terminal: errno \(errno)")
        }
        var size = winsize(ws_row: 50, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slavePath = "/dev/pts/\(number)"
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm"
        environment.merge(extra) { $1 }

        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // The session's leader opens the pty without O_NOCTTY: it becomes the controlling terminal (glibc runs
        // setsid before the file actions), and the child's group its foreground group.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        // POSIX_SPAWN_SETSID (glibc), and the default action for the signals a test runner may ignore.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = [CLI.binary.path] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, CLI.binary.path, &actions, &attributes, &cArguments, &cEnvironment)
        guard status == 0 else {
            close(master)
            throw TerminalError("posix_spawn failed: \(String(cString: strerror(status)))")
        }
        pid = child
        Thread.detachNewThread { [self] in readUntilClosed() }
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            condition.withLock {
                exitStatus = status
                condition.broadcast()
            }
        }
    }

    deinit {
        if condition.withLock({ exitStatus == nil }) { kill(pid, SIGKILL) }
        close(master)
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            condition.lock()
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else {
                // EIO: every process holding the terminal closed it.
                closed = true
            }
            condition.broadcast()
            condition.unlock()
            if count <= 0 { return }
        }
    }

    /// Everything the terminal received, escape sequences included (the pty turns `\n` into `\r\n`).
    var raw: String { condition.withLock { String(decoding: output, as: UTF8.self) } }

    /// Waits until what the terminal received satisfies `test`; false when `timeout` passes or the run ends first.
    func waitForOutput(timeout: TimeInterval = 60, _ test: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !test(String(decoding: output, as: UTF8.self)) {
            if closed || exitStatus != nil || !condition.wait(until: deadline) {
                return test(String(decoding: output, as: UTF8.self))
            }
        }
        return true
    }

    func waitForOutput(containing text: String, timeout: TimeInterval = 60) -> Bool {
        waitForOutput(timeout: timeout) { $0.contains(text) }
    }

    /// Types the terminal's interrupt character (Ctrl-C): SIGINT to the foreground process group.
    func interrupt() {
        var byte: UInt8 = 3
        _ = write(master, &byte, 1)
    }

    /// Waits for the exit (SIGKILL after `timeout`, then throws): the exit code, or 128 + the signal that ended
    /// it, as a shell reports it; and whether a signal ended it.
    func wait(timeout: TimeInterval = 60) throws -> (status: Int32, signalled: Bool, raw: String) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while exitStatus == nil, condition.wait(until: deadline) {}
        guard let status = exitStatus else {
            condition.unlock()
            kill(pid, SIGKILL)
            throw TerminalError("webbridge did not exit within \(timeout) s; the terminal showed:\n\(raw)")
        }
        // What the run wrote before it exited: read until the terminal closes (its helpers close it at exit).
        while !closed, condition.wait(until: deadline) {}
        let text = String(decoding: output, as: UTF8.self)
        condition.unlock()
        let signal = status & 0x7f
        return (signal == 0 ? (status >> 8) & 0xff : 128 + signal, signal != 0, text)
    }

    /// The lines a person sees on the terminal once the run is over: carriage returns and erasures applied,
    /// colour codes dropped.
    static func screen(_ raw: String) -> [String] {
        var lines: [String] = []
        var line: [Unicode.Scalar] = []
        var cursor = 0
        // Scalars, not Characters: "\r\n" is one Character.
        var characters = Array(raw.unicodeScalars)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": cursor = 0
            case "\n":
                lines.append(String(String.UnicodeScalarView(line)))
                line = []
                cursor = 0
            case "\u{1B}":
                // CSI: parameters, then a final letter (m colours, K erases to the end of the line).
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var final: Unicode.Scalar = " "
                while let next = characters.popFirst() {
                    if next.properties.isAlphabetic {
                        final = next
                        break
                    }
                }
                if final == "K" { line.removeSubrange(min(cursor, line.count)...) }
            default:
                if cursor < line.count { line[cursor] = character } else { line.append(character) }
                cursor += 1
            }
        }
        if !line.isEmpty { lines.append(String(String.UnicodeScalarView(line))) }
        return lines
    }
}

struct TerminalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif
