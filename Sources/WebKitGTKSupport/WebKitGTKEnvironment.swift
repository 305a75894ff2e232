#if os(Linux)
import Foundation
import WebKitGTK

/// Why the Linux engine could not start, with the package or setting that fixes it.
public struct WebKitGTKEnvironmentError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Which part of the environment failed.
    public enum Code: String, Sendable {
        case xvfbMissing = "xvfb-missing"
        case xvfbFailed = "xvfb-failed"
        case displayUnavailable = "display-unavailable"
        case addressSpaceLimited = "address-space-limited"
    }

    public let code: Code
    /// The setting or program that was checked.
    public let field: String
    /// What the engine needs.
    public let rule: String
    /// What the user should do.
    public let remedy: String

    public var description: String {
        "WebKitGTK environment [\(code.rawValue)]: \(field): \(rule). Remedy: \(remedy)"
    }

    public var errorDescription: String? { description }

    package init(_ failure: EngineEnvironmentFailure) {
        code = Code(rawValue: failure.code.rawValue) ?? .displayUnavailable
        field = failure.field
        rule = failure.rule
        remedy = failure.remedy
    }
}

/// Prepares the process for WebKitGTK (a display, a private Xvfb when none is set, and GTK) and stops what the
/// engine started.
public enum WebKitGTKEnvironment {
    /// Starts the private Xvfb, when one is needed, without waiting for it; `prepare()` then waits for it.
    @MainActor
    public static func startDisplay() { EngineHost.startDisplay() }

    /// Starts a headless display if needed and initialises GTK once; later calls return the first outcome.
    @MainActor
    public static func prepare() throws(WebKitGTKEnvironmentError) {
        do throws(EngineEnvironmentFailure) { try EngineHost.prepare() } catch {
            throw WebKitGTKEnvironmentError(error)
        }
    }

    /// Runs the process's main thread as GLib's loop for good, the main actor and `DispatchQueue.main` included: each
    /// engine event is handled where it arrives, with no hop between threads. For an executable's top level,
    /// called before the engine starts, in place of running the main RunLoop (whose own sources and timers no
    /// longer run on the main thread). Not for tests: XCTest owns the main RunLoop there.
    @MainActor
    public static func runMainLoop() -> Never { EngineHost.runMainLoop() }

    /// The display the engine uses, once prepared.
    @MainActor public static var display: String? { EngineHost.display }

    /// Kills every engine process (web, network) this process started; also done at exit. Returns how many.
    @discardableResult
    public static func stopEngineProcesses() -> Int { EngineProcesses.killAll() }

    /// Pids of the engine processes (web, network) this process started.
    public static func engineProcesses() -> [pid_t] { EngineProcesses.descendants() }
}

extension WKWebView {
    /// Ends the view's web process (WebKitGTK's `terminate_web_process`) and makes sure no later view shares it.
    ///
    /// For a session that timed out: its page may be stuck in a script or allocating without bound. When other
    /// live views share the process, it ends as soon as the last of them is released, so concurrent sessions are
    /// not taken down with it.
    public func terminateWebProcess() { terminateEngineProcess() }

    /// Whether WebKit considers the view's web process responsive.
    public var isWebProcessResponsive: Bool { isEngineProcessResponsive }
}
#endif
