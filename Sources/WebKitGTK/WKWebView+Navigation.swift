#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking
internal import WebKitGTKHost

// One navigation's life in a WKWebView: started, committed, finished or failed, timed out, and sent once more when
// the engine cancels a request nobody cancelled.

extension WKWebView {
    /// Sends the same request again for the same navigation, without restarting its timeout.
    func resend(_ navigation: WKNavigation, _ request: URLRequest, resends: Int) {
        guard let view, let url = request.url else { return }
        pendingNavigation = navigation
        retry = .sent(navigation, request, resends: resends)
        send(request, url: url, in: view)
        MainContextDriver.shared.scheduleService()
    }

    func send(_ request: URLRequest, url: URL, in view: ViewRef) {
        let engineRequest = webkit_uri_request_new(url.absoluteString)!
        defer { g_object_unref(UnsafeMutableRawPointer(engineRequest)) }
        if let headers = webkit_uri_request_get_http_headers(engineRequest) {
            for (name, value) in request.allHTTPHeaderFields ?? [String: String]() {
                soup_message_headers_replace(headers, name, value)
            }
        }
        webkit_web_view_load_request(view, engineRequest)
    }

    /// Starts a navigation, which the engine's next load start takes on; a view whose engine could not start
    /// fails it.
    func begin() -> WKNavigation {
        let navigation = WKNavigation()
        pendingNavigation = navigation
        retry = .none
        if let environmentError {
            // Apple's init cannot throw, so the environment failure surfaces as a failed load.
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.navigationDelegate?.webView(
                        self, didFailProvisionalNavigation: navigation, withError: environmentError)
                }
            }
        }
        return navigation
    }

    func armTimeout(_ interval: TimeInterval, navigation: WKNavigation) {
        timeoutItem?.cancel()
        guard interval > 0, interval.isFinite else { return }
        let item = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated { self?.loadTimedOut(navigation) }
        }
        timeoutItem = item
        DispatchQueue.main.asyncAfter(deadline: .now() + interval, execute: item)
    }

    func loadTimedOut(_ navigation: WKNavigation) {
        guard activeNavigation === navigation || pendingNavigation === navigation, let view else { return }
        timeoutItem = nil
        let failing = url?.absoluteString
        activeNavigation = navigation
        pendingNavigation = nil
        activeNavigationFailed = true
        webkit_web_view_stop_loading(view)
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorTimedOut,
            userInfo: [
                NSLocalizedDescriptionKey: "The request timed out.", "NSErrorFailingURLStringKey": failing as Any,
            ])
        navigationDelegate?.webView(self, didFailProvisionalNavigation: navigation, withError: error)
    }

    func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_STARTED:
            activeNavigation = pendingNavigation ?? WKNavigation()
            pendingNavigation = nil
            activeNavigationFailed = false
            if case .sent(let resent, let request, let resends) = retry, resent === activeNavigation {
                retry = .armed(resent, request, resends: resends)
                return
            }
            navigationDelegate?.webView(self, didStartProvisionalNavigation: activeNavigation)
        case WEBKIT_LOAD_COMMITTED:
            hasCommittedDocument = true
            timeoutItem?.cancel()
            navigationDelegate?.webView(self, didCommit: activeNavigation)
        case WEBKIT_LOAD_FINISHED:
            if case .due(let navigation, let request, let resends) = retry {
                activeNavigation = nil
                activeNavigationFailed = false
                return resend(navigation, request, resends: resends - 1)
            }
            timeoutItem?.cancel()
            let navigation = activeNavigation
            let failed = activeNavigationFailed
            activeNavigation = nil
            activeNavigationFailed = false
            if !failed { navigationDelegate?.webView(self, didFinish: navigation) }
        default:
            break
        }
    }

    func loadFailed(_ event: WebKitLoadEvent, uri: String?, error: GError) {
        guard !activeNavigationFailed else { return }
        if event == WEBKIT_LOAD_STARTED, error.domain == cwk_io_error_quark(),
            UInt32(error.code) == G_IO_ERROR_CANCELLED.rawValue, pendingNavigation == nil,
            case .armed(let navigation, let request, let resends) = retry, resends > 0,
            navigation === activeNavigation, request.url?.absoluteString == uri
        {
            // WebKitGTK 2.50 can cancel a main-frame request nobody cancelled (seen when a TLS handshake fails
            // after an earlier load's DNS failure in the same network process). Apple's engine reports the real
            // failure, so the request is sent again, as the same navigation, once the engine has ended this one.
            activeNavigationFailed = true
            retry = .due(navigation, request, resends: resends)
            return
        }
        timeoutItem?.cancel()
        activeNavigationFailed = true
        let message = error.message.map { String(cString: $0) } ?? ""
        let nsError = LoadErrorMapping.nsError(
            domain: error.domain, code: error.code, message: message, failingURL: uri)
        if event == WEBKIT_LOAD_COMMITTED {
            navigationDelegate?.webView(self, didFail: activeNavigation, withError: nsError)
        } else {
            navigationDelegate?.webView(self, didFailProvisionalNavigation: activeNavigation, withError: nsError)
        }
    }

    func processTerminated() {
        timeoutItem?.cancel()
        navigationDelegate?.webViewWebContentProcessDidTerminate(self)
    }
}
#endif
