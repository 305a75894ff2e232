#if os(Linux)
import CWebKitGTK
import Foundation
import Glibc

/// The process around the engine on Linux, and the one way to ready, drive and stop it: a display (a private Xvfb
/// when DISPLAY is unset), GTK, GLib's loop on the main thread, and the engine's own processes.
///
/// BridgeTesting's `EngineEnvironment` forwards to this type on Linux; on Apple platforms it has the same actions,
/// as no-ops or on the main RunLoop. WebKitGTKSupport adds `release(_:sessionTimedOut:)` for a session's web view. A web view
/// made before `prepare()` prepares the engine itself and reports a failure through every load.
public enum WebKitGTKEnvironment {
    @MainActor private static var outcome: Result<Void, EngineEnvironmentError>?
    /// An Xvfb started by `beginPreparing()` that has not reported its display number yet.
    @MainActor private static var pending: Result<Xvfb.Launch, EngineEnvironmentError>?

    /// Starts what takes time to come up (a private Xvfb, when no DISPLAY is set) without waiting for it, so the
    /// caller's own set-up (reading a contract, a page) overlaps it; `prepare()` waits for it. Reports nothing:
    /// `prepare()` does.
    @MainActor
    public static func beginPreparing() {
        guard outcome == nil, pending == nil, (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty else {
            return
        }
        pending = Xvfb.launch()
        // Stopped at exit even if the caller never calls prepare() (a usage error after this, say).
        if case .success(let launch) = pending { Xvfb.stopAtExit(launch.pid) }
    }

    /// Starts a headless display if needed and initialises GTK once; later calls return the first outcome. The
    /// error names the package or setting that fixes it.
    @MainActor
    public static func prepare() throws(EngineEnvironmentError) {
        if outcome == nil { outcome = start() }
        if case .failure(let error) = outcome! { throw error }
    }

    /// Runs the process's main thread as GLib's loop for good, the main actor and `DispatchQueue.main` included:
    /// each engine event is handled where it arrives, with no hop between threads (see `MainContextDriver`). For
    /// an executable's top level: start the work first (a main-actor `Task`), then call this in place of running
    /// the main RunLoop (whose own sources and timers no longer run on the main thread); it never returns, so end
    /// with `exit`. Not for tests: XCTest owns the main RunLoop there.
    @MainActor
    public static func runMainLoop() -> Never { MainContextDriver.shared.runMainLoop() }

    /// The display the engine uses, once prepared.
    @MainActor public static var display: String? { ProcessInfo.processInfo.environment["DISPLAY"] }

    /// The Xvfb a private display would be started from (`PATH`'s first, then /usr/bin), nil when there is none:
    /// what `webbridge doctor` reports, so its xvfb line and its display line never disagree.
    package static func xvfbExecutable(path: String?) -> String? { Xvfb.executable(path: path) }
    /// The engine as reports name it: `WebKitGTK 2.50.6`, the library this process runs.
    public static var engineVersion: String {
        "WebKitGTK \(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
    }

    /// Pids of the engine processes (web, network) this process started.
    public static func processes() -> [pid_t] { EngineProcesses.descendants() }

    /// Stops every engine process (web, network) this process started; also done at exit. For a signal handler
    /// before exiting.
    public static func shutDown() { EngineProcesses.killAll() }

    /// The address space WebKitGTK needs: JavaScriptCore reserves several GiB up front and aborts the process
    /// (measured here: 6,000,000 KB aborts, 7,000,000 KB runs the fixture), so the bound keeps a margin.
    package static let minimumAddressSpaceKB: UInt64 = 8 * 1024 * 1024

    /// The failure for an address-space limit (`ulimit -v`, in KB) too small for the engine, if it is.
    package static func addressSpaceFailure(limitKB: UInt64?) -> EngineEnvironmentError? {
        guard let limitKB, limitKB < minimumAddressSpaceKB else { return nil }
        return EngineEnvironmentError(
            code: .addressSpaceLimited, field: "ulimit -v",
            rule:
                "the address space is limited to \(limitKB) KB and WebKitGTK's JavaScript engine reserves more (it needs at least \(minimumAddressSpaceKB) KB); it would abort",
            remedy:
                "raise the limit with `ulimit -v unlimited` (or at least `ulimit -v \(minimumAddressSpaceKB)`) before running"
        )
    }

    /// The process's address-space limit in KB, or nil when unlimited.
    package static func addressSpaceLimitKB() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return UInt64(limit.rlim_cur) / 1024
    }

    @MainActor
    private static func start() -> Result<Void, EngineEnvironmentError> {
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
        // The only JavaScript this process runs is the engine module's converter of message bodies and script
        // results. JavaScriptCore's optimizing tiers compiled it after some 50 sessions and paged in 2.8 MB of their
        // own code for no measurable gain: the baseline JIT converts a message in the same time. Set before the
        // engine starts, as JavaScriptCore asks; pages run in the web processes, whose options these are not.
        jsc_options_set_boolean(JSC_OPTIONS_USE_DFG, 0)
        guard gtk_init_check(nil, nil) != 0 else {
            return .failure(
                EngineEnvironmentError(
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
#endif
