#if os(Linux)
import CWebKitGTK
import Foundation
import Testing
import WebKitGTK

/// Swift Testing's runner is an async main. Left to the runtime, its main queue (the main actor) is drained on
/// worker threads, one after another, and WebKitGTK aborts when a later job touches it from another thread than the
/// one it started on; with the engine linked, the main actor stays on the process's main thread.
@Suite("the main actor under Swift Testing")
@MainActor
struct AsyncMainThreadTests {
    @Test("a main-actor test runs on the main thread, also after each await elsewhere")
    func mainActorStaysOnTheMainThread() async {
        #expect(cwk_is_main_thread() != 0, "the main actor ran on a worker thread")
        for _ in 0..<50 {
            await Task.detached {}.value
            #expect(cwk_is_main_thread() != 0, "the main actor came back on a worker thread")
        }
    }

    @Test("the engine runs a script and releases its web view on the main thread")
    func engineRunsOnTheMainThread() async throws {
        var webView: WKWebView? = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        for round in 0..<5 {
            await Task.detached {}.value
            let sum = try await webView?.evaluateJavaScript("\(round) + 1") as? Int
            #expect(sum == round + 1)
            #expect(cwk_is_main_thread() != 0, "the script's answer arrived on a worker thread")
        }
        webView = nil
    }
}
#endif
