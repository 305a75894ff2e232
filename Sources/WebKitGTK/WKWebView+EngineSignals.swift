#if os(Linux)
import CWebKitGTK
import Foundation

// The engine's signals on a WKWebView, routed to the view on the main actor: loads, process ends, script dialogs,
// policy decisions, the web process extension's messages.

extension WKWebView {
    func connectSignals(_ view: ViewRef) {
        let route = Unmanaged.passRetained(ViewRoute(self))
        self.route = route
        let data = route.toOpaque()
        signalIDs.append(
            cwk_connect_load_changed(
                view,
                { _, event, data in
                    MainActor.assumeIsolated { ViewRoute.webView(data)?.loadChanged(event) }
                }, data, nil))
        signalIDs.append(
            cwk_connect_load_failed(
                view,
                { _, event, uri, error, data in
                    MainActor.assumeIsolated {
                        guard let webView = ViewRoute.webView(data), let error else { return 0 }
                        webView.loadFailed(event, uri: uri.map { String(cString: $0) }, error: error.pointee)
                        return 1  // handled: no stock error page
                    }
                }, data, nil))
        signalIDs.append(
            cwk_connect_terminated(
                view,
                { _, _, data in
                    MainActor.assumeIsolated { ViewRoute.webView(data)?.processTerminated() }
                }, data, nil))
        signalIDs.append(
            cwk_connect_script_dialog(
                view,
                { _, dialog, data in
                    MainActor.assumeIsolated {
                        guard let webView = ViewRoute.webView(data), let dialog else { return 0 }
                        PendingDialog.emitting += 1
                        webView.runDialog(dialog)
                        PendingDialog.emitting -= 1
                        return 1  // handled: never the stock dialog, which would wait for a user
                    }
                }, data, nil))
        signalIDs.append(cwk_connect_authenticate_without_credentials(view))
        signalIDs.append(
            cwk_connect_user_message(
                view,
                { _, message, data in
                    MainActor.assumeIsolated {
                        guard let webView = ViewRoute.webView(data), let message,
                            let error = WebProcessExtension.uncaughtError(message)
                        else { return 0 }
                        webView.engineUncaughtError?(error.text, error.url, error.line)
                        return 1
                    }
                }, data, nil))
        signalIDs.append(
            cwk_connect_decide_policy(
                view,
                { _, decision, type, data in
                    MainActor.assumeIsolated {
                        guard let webView = ViewRoute.webView(data), let decision else { return 0 }
                        return webView.decidePolicy(decision, type: type) ? 1 : 0
                    }
                }, data, nil))
    }
}

/// The signals' user data: a weak way back to the view, so GObject never retains Swift objects.
final class ViewRoute: @unchecked Sendable {
    weak var webView: WKWebView?
    init(_ webView: WKWebView) { self.webView = webView }
    static func webView(_ data: UnsafeMutableRawPointer?) -> WKWebView? {
        data.map { Unmanaged<ViewRoute>.fromOpaque($0).takeUnretainedValue().webView } ?? nil
    }
}
#endif
