#if !os(Linux)
import Foundation
#if canImport(WebKit)
import WebKit
#endif

/// Apple's WebKit needs nothing readied.
extension EngineEnvironment {
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
    /// The engine as reports name it: `WebKit 620.1.1`, the system framework's version.
    public static var engineVersion: String {
        let version = Bundle(identifier: "com.apple.WebKit")?.infoDictionary?["CFBundleVersion"] as? String
        return "WebKit \(version ?? "(the system's)")"
    }

    /// Does nothing: Apple's WebKit ends its processes with the app.
    public static func shutDown() {}
}
#endif
