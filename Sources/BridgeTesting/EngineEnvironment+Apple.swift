#if !os(Linux)
#if canImport(WebKit)
import WebKit
#endif

/// Readies the engine before the first session; Apple's WebKit needs nothing.
public enum EngineEnvironment {
    /// Does nothing: there is no display to start.
    @MainActor
    public static func beginPreparing() {}

    /// Does nothing: the system WebKit is always there.
    @MainActor
    public static func prepare() throws {}

    #if canImport(WebKit)
    /// Does nothing: Apple's WebKit has no public call to end a web process; it ends it with the last view.
    @MainActor
    public static func release(_ webView: WKWebView, sessionTimedOut: Bool) {}
    #endif

    /// Does nothing: Apple's WebKit ends its processes with the app.
    public static func shutDown() {}
}
#endif
