#if os(Linux)
import Glibc
import WebKitGTK
import WebKitGTKSupport

/// Pausing the engine's web process, where this process can (Linux: it starts the web processes itself).
@MainActor
enum WebProcessStarvation {
    nonisolated static let isAvailable = true

    /// Has the engine record which web process runs which views from now on: call before a perturbed session's
    /// view is made.
    static func prepare() { WKWebView.recordWebProcessStarts() }

    /// Pauses the web process that runs `webView`'s page, or every web process of this check when which one is
    /// not known (a process started again after a crash); returns what to pass to ``release(_:)``, nil when there
    /// was nothing to pause.
    static func hold(_ webView: WKWebView?) -> [Int32]? {
        let own = webView?.webProcessIdentifiers ?? []
        var held = own.isEmpty ? [] : PausedProcesses.hold(own)
        if held.isEmpty { held = PausedProcesses.hold() }
        return held.isEmpty ? nil : held
    }

    static func release(_ held: [Int32]) { PausedProcesses.release(held) }

    /// Kills the web process that runs `webView`'s page (a crash in the middle of a call, as the engine reports
    /// one: `webViewWebContentProcessDidTerminate`); whether there was one to kill. The engine reaps it.
    static func kill(_ webView: WKWebView?) -> Bool {
        let own = webView?.webProcessIdentifiers ?? []
        for pid in own { _ = Glibc.kill(pid, SIGKILL) }
        return !own.isEmpty
    }
}
#endif
