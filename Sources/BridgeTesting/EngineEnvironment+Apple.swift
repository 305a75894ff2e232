#if !os(Linux)
import Foundation
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

    /// Runs the main RunLoop for good, for an executable's top level. Start the work first (a main actor `Task`),
    /// then call this; it never returns, so end with `exit`.
    @MainActor
    public static func runMainLoop() -> Never {
        // A far-off timer keeps the RunLoop waiting (not spinning) when it has no other source.
        RunLoop.main.add(Timer(timeInterval: 86_400 * 365, repeats: false) { _ in }, forMode: .default)
        while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    }

    #if canImport(WebKit)
    /// Does nothing: Apple's WebKit has no public call to end a web process; it ends it with the last view.
    @MainActor
    public static func release(_ webView: WKWebView, sessionTimedOut: Bool) {}
    #endif

    /// None: Apple's WebKit needs no X server.
    package static func xvfbExecutable(path: String?) -> String? { nil }

    /// Does nothing: Apple's WebKit ends its processes with the app.
    public static func shutDown() {}
}
#endif
