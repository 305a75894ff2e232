#if os(Linux)
import WebKitGTK
import WebKitGTKSupport

/// WebKitGTK's environment: each action is WebKitGTKSupport's `WebKitGTKEnvironment`'s.
extension EngineEnvironment {
    /// Starts a private Xvfb (when no DISPLAY is set) without waiting for it; `prepare()` waits.
    @MainActor
    public static func beginPreparing() { WebKitGTKEnvironment.beginPreparing() }

    /// Readies the display and GTK, once; the error names the package or setting that fixes it.
    @MainActor
    public static func prepare() throws(EngineEnvironmentError) { try WebKitGTKEnvironment.prepare() }

    /// Runs GLib's main loop for good, for an executable's top level. Start the work first (a main actor `Task`),
    /// then call this; it never returns, so end with `exit`.
    @MainActor
    public static func runMainLoop() -> Never { WebKitGTKEnvironment.runMainLoop() }

    /// Lets go of a session's web view, ending its web process after a timeout or when it is unresponsive.
    @MainActor
    public static func release(_ webView: WKWebView, sessionTimedOut: Bool) {
        WebKitGTKEnvironment.release(webView, sessionTimedOut: sessionTimedOut)
    }

    /// The Xvfb the engine would start: `path`, else the one on PATH; nil when there is none.
    package static func xvfbExecutable(path: String?) -> String? { WebKitGTKEnvironment.xvfbExecutable(path: path) }

    /// The engine as reports name it: `WebKitGTK 2.50.6`.
    public static var engineVersion: String { WebKitGTKEnvironment.engineVersion }

    /// Stops every engine process (web, network) this process started; also done at exit.
    public static func shutDown() { WebKitGTKEnvironment.shutDown() }
}
#endif
