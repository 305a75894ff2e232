#if os(Linux)
import CWebKitGTK
import Foundation
import Glibc

/// Why the Linux engine could not start, with the package or setting that fixes it.
///
/// Package access: WebKitGTKSupport publishes it as `EngineEnvironmentFailure`, out of Apple's names.
package struct EngineEnvironmentFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of the environment failed.
    package enum Code: String, Sendable {
        case xvfbMissing = "xvfb-missing"
        case xvfbFailed = "xvfb-failed"
        case displayUnavailable = "display-unavailable"
        case addressSpaceLimited = "address-space-limited"
    }

    package let code: Code
    /// The setting or program that was checked.
    package let field: String
    /// What the engine needs.
    package let rule: String
    /// What the user should do.
    package let remedy: String

    package init(code: Code, field: String, rule: String, remedy: String) {
        self.code = code
        self.field = field
        self.rule = rule
        self.remedy = remedy
    }

    package var description: String {
        "WebKitGTK environment [\(code.rawValue)]: \(field): \(rule). Remedy: \(remedy)"
    }
}

extension EngineEnvironmentFailure: LocalizedError {
    package var errorDescription: String? { description }
}

/// Prepares the process for WebKitGTK: a display (a private Xvfb when none is set) and GTK.
package enum EngineHost {
    @MainActor private static var outcome: Result<Void, EngineEnvironmentFailure>?
    /// An Xvfb started by `startDisplay()` that has not reported its display number yet.
    @MainActor private static var pending: Result<Xvfb.Launch, EngineEnvironmentFailure>?

    /// Hands the main thread to GLib's loop for good, draining the main dispatch queue from it (see
    /// `MainContextDriver`); for an executable's top level, instead of running the main RunLoop.
    @MainActor
    package static func runMainLoop() -> Never { MainContextDriver.shared.runMainLoop() }

    /// Starts the private Xvfb, when one is needed, without waiting for it, so a caller can do its own set-up
    /// (reading a contract, a page) while the server starts; `prepare()` then waits for it.
    @MainActor
    package static func startDisplay() {
        guard outcome == nil, pending == nil, (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty else {
            return
        }
        pending = Xvfb.launch()
        // Stopped at exit even if the caller never calls prepare() (a usage error after this, say).
        if case .success(let launch) = pending { Xvfb.stopAtExit(launch.pid) }
    }

    /// Starts a headless display if needed and initialises GTK once; later calls return the first outcome.
    @MainActor
    package static func prepare() throws(EngineEnvironmentFailure) {
        if outcome == nil { outcome = start() }
        if case .failure(let error) = outcome! { throw error }
    }

    /// The display the engine uses, once prepared.
    @MainActor package static var display: String? { ProcessInfo.processInfo.environment["DISPLAY"] }

    /// The address space WebKitGTK needs: JavaScriptCore reserves several GiB up front and aborts the process
    /// (measured here: 6,000,000 KB aborts, 7,000,000 KB runs the fixture), so the bound keeps a margin.
    package static let minimumAddressSpaceKB: UInt64 = 8 * 1024 * 1024

    /// The failure for an address-space limit (`ulimit -v`, in KB) too small for the engine, if it is.
    package static func addressSpaceFailure(limitKB: UInt64?) -> EngineEnvironmentFailure? {
        guard let limitKB, limitKB < minimumAddressSpaceKB else { return nil }
        return EngineEnvironmentFailure(
            code: .addressSpaceLimited, field: "ulimit -v",
            rule:
                "the address space is limited to \(limitKB) KB and WebKitGTK's JavaScript engine reserves more (it needs at least \(minimumAddressSpaceKB) KB); it would abort",
            remedy:
                "raise the limit with `ulimit -v unlimited` (or at least `ulimit -v \(minimumAddressSpaceKB)`) before running"
        )
    }

    /// The process's address-space limit in KB, or nil when unlimited.
    static func addressSpaceLimitKB() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return UInt64(limit.rlim_cur) / 1024
    }

    @MainActor
    private static func start() -> Result<Void, EngineEnvironmentFailure> {
        // Checked first: past this point the engine aborts the process instead of failing.
        if let failure = addressSpaceFailure(limitKB: addressSpaceLimitKB()) { return .failure(failure) }
        let environment = ProcessInfo.processInfo.environment
        if (environment["DISPLAY"] ?? "").isEmpty {
            let launch = pending ?? Xvfb.launch()
            pending = nil
            switch launch.flatMap({ Xvfb.waitForDisplay($0) }) {
            case .success(let server):
                setenv("DISPLAY", server.display, 1)
                Xvfb.stopAtExit(server.pid)
            case .failure(let error): return .failure(error)
            }
        }
        guard gtk_init_check(nil, nil) != 0 else {
            return .failure(
                EngineEnvironmentFailure(
                    code: .displayUnavailable, field: "DISPLAY",
                    rule: "GTK could not open the display",
                    remedy:
                        "unset DISPLAY to let WebKitGTK start Xvfb (Debian package xvfb), or point DISPLAY at a running X server"
                ))
        }
        MainContextDriver.shared.start()
        return .success(())
    }
}

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
    private nonisolated static func registerExitHandler() {
        atexit { if Xvfb.pid > 0 { kill(Xvfb.pid, SIGTERM) } }
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
        -> Result<(display: String, pid: pid_t), EngineEnvironmentFailure>
    {
        launch(executable: executable).flatMap { waitForDisplay($0, timeout: timeout) }
    }

    /// Spawns a server that will write its display number on a pipe; returns at once.
    package static func launch(executable path: String? = nil) -> Result<Launch, EngineEnvironmentFailure> {
        guard let xvfb = path ?? executable() else {
            return .failure(
                EngineEnvironmentFailure(
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
        -> Result<(display: String, pid: pid_t), EngineEnvironmentFailure>
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
                kill(child, SIGKILL)
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

    private static func failed(_ rule: String) -> EngineEnvironmentFailure {
        EngineEnvironmentFailure(
            code: .xvfbFailed, field: "Xvfb", rule: rule,
            remedy: "check that `Xvfb -displayfd 1 -nolisten tcp` runs here (Debian package xvfb), or set DISPLAY")
    }
}
#endif
