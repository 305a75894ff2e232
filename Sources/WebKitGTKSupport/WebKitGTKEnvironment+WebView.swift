#if os(Linux)
import WebKitGTK
import WebKitGTKHost

extension WebKitGTKEnvironment {
    /// Lets go of a session's web view; after a timeout (or when WebKit reports its process unresponsive) the
    /// process is ended, so a page stuck in a script or allocating without bound neither outlives the session
    /// nor hangs the next one (sessions share the process). When other live views share it, it ends as soon as
    /// the last of them is released, so concurrent sessions are not taken down with it; no later view shares it.
    @MainActor
    public static func release(_ webView: WKWebView, sessionTimedOut: Bool) {
        if sessionTimedOut || !webView.isWebProcessResponsive { webView.terminateWebProcess() }
    }
}
#endif
