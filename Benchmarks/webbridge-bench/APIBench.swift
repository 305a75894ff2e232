import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The floor for any native code written against Apple's API: a plain `WKScriptMessageHandler` that reads the
/// id from `message.body`. It pays what every app pays (the engine's message, the body converted to Foundation
/// values, a `WKScriptMessage`) and nothing of WebBridge's (no contract, no validation, no timeline).
@MainActor
enum APIBench {
    /// The page posts one `ready` per id in a burst; the handler counts each by the id it reads.
    static func pageToNative(ids: [String], timeout: Double) async throws -> BurstFigure {
        let handler = CountingHandler(ids: ids)
        let controller = WKUserContentController()
        controller.add(handler, name: "bridge")
        defer { controller.removeScriptMessageHandler(forName: "bridge") }
        let (webView, loaded) = try await benchPage(controller: controller, timeout: timeout)
        defer { withExtendedLifetime(loaded) { webView.navigationDelegate = nil } }
        let handed = Occurrence()
        webView.evaluateJavaScript(try BenchPage.idsScript(ids)) { _, _ in handed.signal() }
        guard await handed.wait(timeout: timeout) else {
            throw BenchFailure("Apple API: handing the page its ids did not complete within \(timeout) s")
        }
        handler.clock = CPUStopwatch()
        webView.evaluateJavaScript(BenchPage.burstScript) { _, _ in }
        guard await handler.done.wait(timeout: timeout), let (seconds, cpu) = handler.reading else {
            throw BenchFailure(
                "Apple API: \(ids.count) ready messages did not arrive within \(timeout) s (\(handler.tally.received) did)"
            )
        }
        return BurstFigure(
            count: ids.count, seconds: seconds, mainThreadSeconds: cpu, tally: handler.tally, rejected: 0)
    }

    /// Pipelined calls through Apple's API with the raw loop's own script text: `evaluateJavaScript` and its
    /// completion (the result converted as Apple's API converts it), and nothing of WebBridge's (no contract
    /// check, no encoder, no request id issued). Set against the raw loop, it shows what the API alone costs
    /// native → page; set against WebBridge's, what the check and the encoder cost.
    static func pipelined(count: Int, timeout: Double) async throws -> PipelineFigure {
        let (webView, loaded) = try await benchPage(controller: WKUserContentController(), timeout: timeout)
        defer { withExtendedLifetime(loaded) { webView.navigationDelegate = nil } }
        return try await PipelineState.run("Apple API", count: count, timeout: timeout, on: webView) {
            RawBench.receiverCall($0)
        }
    }

    /// A view on the bench page (in the throughput store, as the other sides' views), loaded: didFinish came.
    /// The watcher is returned because the view holds its navigation delegate weakly.
    private static func benchPage(controller: WKUserContentController, timeout: Double) async throws
        -> (WKWebView, LoadWatcher)
    {
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        if let store = WebBridgeBench.store { configuration.websiteDataStore = store }
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let loaded = LoadWatcher()
        webView.navigationDelegate = loaded
        webView.loadHTMLString(BenchPage.html, baseURL: nil)
        guard await loaded.finished.wait(timeout: timeout) else {
            webView.navigationDelegate = nil
            throw BenchFailure("Apple API: webView(_:didFinish:) of the bench page did not come within \(timeout) s")
        }
        return (webView, loaded)
    }

    @MainActor
    private final class CountingHandler: NSObject, WKScriptMessageHandler {
        var tally: BenchPage.Tally
        var clock = CPUStopwatch()
        var reading: (seconds: Double, mainThreadSeconds: Double)?
        let done = Occurrence()
        private let expected: Int

        init(ids: [String]) {
            tally = BenchPage.Tally(ids: ids)
            expected = ids.count
        }

        nonisolated func userContentController(
            _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
        ) {
            MainActor.assumeIsolated {
                let id = (message.body as? [String: Any])?["id"] as? String
                tally.record(id: id, rawID: nil)
                if tally.received == expected {
                    reading = clock.reading
                    done.signal()
                }
            }
        }
    }

    @MainActor
    private final class LoadWatcher: NSObject, WKNavigationDelegate {
        let finished = Occurrence()

        nonisolated func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
            MainActor.assumeIsolated { finished.signal() }
        }
    }
}
