#if os(Linux)
import CWebKitGTK
import Foundation
import Glibc

/// A private X server started once per process and stopped at exit.
package enum Xvfb {
    nonisolated(unsafe) package static var pid: pid_t = 0

    /// Makes `server` the process's own Xvfb, sent SIGTERM when the process exits.
    @MainActor
    package static func stopAtExit(_ server: pid_t) {
        if pid == 0 { registerExitHandler() }
        pid = server
    }

    /// Nonisolated: a handler declared on the main actor would trap when `exit` runs on another thread
    /// (Swift Testing ends its run from one).
    ///
    /// Only when `exit` runs on the main thread (the CLI, XCTest). When it runs on another (Swift Testing's),
    /// the main thread's GLib loop is still running: it would see the X connection close as the server stops, and
    /// GDK's I/O error handler would end the process with status 1, a passing run failing. Then the server stops
    /// with the process instead (its parent-death signal and -terminate), as a lone server always did.
    private nonisolated static func registerExitHandler() {
        atexit {
            guard Xvfb.pid > 0, cwk_is_main_thread() != 0 else { return }
            Xvfb.stopGroup(Xvfb.pid)
        }
    }

    /// SIGTERM to the server's process group, then, once the server has exited or `milliseconds` have passed,
    /// SIGKILL to whatever is left of it: a wrapper script that ignores SIGTERM must not leave itself or the
    /// children it forked behind.
    package nonisolated static func stopGroup(_ leader: pid_t, milliseconds: Int32 = 2_000) {
        if kill(-leader, SIGTERM) != 0 { kill(leader, SIGTERM) }
        let pidfd = cwk_pidfd_open(leader)
        if pidfd >= 0 {
            var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, milliseconds) < 0 && errno == EINTR {}
            close(pidfd)
        }
        if kill(-leader, SIGKILL) != 0 { kill(leader, SIGKILL) }
    }

    /// The first executable `Xvfb` on `path` (a PATH value), then in /usr/bin.
    package static func executable(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        // Each entry as a String: an empty entry means the current directory, as for the shell.
        let directories = (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "." : String($0)
        }
        for directory in directories + ["/usr/bin"] {
            let candidate = directory.hasSuffix("/") ? directory + "Xvfb" : directory + "/Xvfb"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// A spawned server and the read end of the pipe it reports its display number on.
    package struct Launch: Sendable {
        package let pid: pid_t
        let readEnd: Int32
    }

    /// Starts a server and waits for its display number; the caller owns the returned process.
    package static func start(executable: String? = nil, timeout: Int32 = 10_000)
        -> Result<(display: String, pid: pid_t), EngineEnvironmentError>
    {
        launch(executable: executable).flatMap { waitForDisplay($0, timeout: timeout) }
    }

    /// Spawns a server that will write its display number on a pipe; returns at once.
    package static func launch(executable path: String? = nil) -> Result<Launch, EngineEnvironmentError> {
        guard let xvfb = path ?? executable() else {
            return .failure(
                EngineEnvironmentError(
                    code: .xvfbMissing, field: "Xvfb",
                    rule: "no DISPLAY is set and Xvfb is not on PATH",
                    remedy:
                        "install it with `sudo apt-get install xvfb` (and libwebkit2gtk-4.1-dev to build), or set DISPLAY"
                ))
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(failed("pipe() failed: errno \(errno)")) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        let arguments = [
            xvfb, "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1280x1024x24", "-terminate",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // -terminate and the parent-death signal: the server goes away with us, even if we crash.
        let child = cwk_spawn_display_server(xvfb, &argv, writeEnd)
        close(writeEnd)
        guard child > 0 else {
            close(readEnd)
            return .failure(failed("starting Xvfb failed: errno \(errno)"))
        }
        return .success(Launch(pid: child, readEnd: readEnd))
    }

    /// Waits for the event (the display number on the pipe), with an explicit deadline; closes the pipe.
    package static func waitForDisplay(_ launch: Launch, timeout: Int32 = 10_000)
        -> Result<(display: String, pid: pid_t), EngineEnvironmentError>
    {
        let (child, readEnd) = (launch.pid, launch.readEnd)
        defer { close(readEnd) }
        var text = ""
        let deadline = Date().addingTimeInterval(Double(timeout) / 1000)
        while !text.contains("\n") {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, remaining)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                if kill(-child, SIGKILL) != 0 { kill(child, SIGKILL) }
                return .failure(failed("Xvfb did not report a display number within \(timeout) ms"))
            }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { return .failure(failed("Xvfb exited before reporting a display number")) }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else {
            return .failure(failed("Xvfb reported an unreadable display number"))
        }
        return .success((":\(number)", child))
    }

    private static func failed(_ rule: String) -> EngineEnvironmentError {
        EngineEnvironmentError(
            code: .xvfbFailed, field: "Xvfb", rule: rule,
            remedy: "check that `Xvfb -displayfd 1 -nolisten tcp` runs here (Debian package xvfb), or set DISPLAY")
    }
}
#endif
