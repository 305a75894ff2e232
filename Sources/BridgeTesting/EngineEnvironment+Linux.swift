#if os(Linux)
import WebKitGTK
import WebKitGTKSupport

/// Readies the engine before the first session: on Linux, a display (Xvfb when none) and GTK.
public enum EngineEnvironment {
    /// Starts what takes time to come up (Xvfb, when no DISPLAY is set) without waiting for it, so the
    /// caller's own set-up overlaps it; `prepare()` waits. Reports nothing: `prepare()` does.
    @MainActor
    public static func beginPreparing() {
        WebKitGTKEnvironment.startDisplay()
    }

    /// Throws an error naming the package to install when WebKitGTK or Xvfb cannot start.
    @MainActor
    public static func prepare() throws {
        try WebKitGTKEnvironment.prepare()
    }

    /// Runs the main thread's event loop for good, for an executable's top level: on Linux, GLib's loop, which
    /// drives the engine and drains the main queue (the main actor) on one thread. Start the work first (a main
    /// actor `Task`), then call this; it never returns, so end with `exit`.
    @MainActor
    public static func runMainLoop() -> Never {
        WebKitGTKEnvironment.runMainLoop()
    }

    /// Lets go of a session's web view; after a timeout (or when WebKit reports its process unresponsive) the
    /// process is ended, so a page stuck in a script or allocating without bound neither outlives the session
    /// nor hangs the next one (sessions share the process).
    @MainActor
    public static func release(_ webView: WKWebView, sessionTimedOut: Bool) {
        if sessionTimedOut || !webView.isWebProcessResponsive { webView.terminateWebProcess() }
    }

    /// Stops every engine process the tool started (also done at exit); for a signal handler before exiting.
    public static func shutDown() {
        WebKitGTKEnvironment.stopEngineProcesses()
    }
}
#endif
