import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

// The delegate methods are nonisolated and hop onto the main actor they are called on: that conformance
// compiles against both SDK shapes, the Xcode 16 one whose protocols are @MainActor and the Xcode 15 one
// whose protocols are not (WebKit calls them on the main thread in both).
extension BridgeSession: WKNavigationDelegate {
    nonisolated public func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {
        MainActor.assumeIsolated { committed(webView.url) }
    }

    nonisolated public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        MainActor.assumeIsolated {
            finishedDocuments += 1
            // A later document's didFinish (a reload) is no new load verdict: it only wakes the play's wait.
            if loadResult == nil { finishLoad(.finished) } else { wakeWaiters() }
        }
    }

    nonisolated public func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    {
        MainActor.assumeIsolated { failLoad(error) }
    }

    nonisolated public func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {
        MainActor.assumeIsolated { failLoad(error) }
    }

    nonisolated public func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {
        MainActor.assumeIsolated {
            if navigationResponse.isForMainFrame, let http = navigationResponse.response as? HTTPURLResponse {
                responseMIMEType = http.mimeType
                responded(statusCode: http.statusCode)
            }
            decisionHandler(.allow)
        }
    }

    /// ", served as TYPE, not HTML …" for a main document of another Content-Type (shown as text: its scripts
    /// never run), else "".
    nonisolated static func notHTML(_ mimeType: String?) -> String {
        guard let type = mimeType?.lowercased(), !["text/html", "application/xhtml+xml"].contains(type) else {
            return ""
        }
        return ", served as \(TerminalText.escape(type)), not HTML (its scripts do not run)"
    }

    /// How verdicts name a terminated web process.
    nonisolated static let terminatedDetail = "the web content process terminated"

    nonisolated public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        MainActor.assumeIsolated { processTerminated() }
    }

    private func committed(_ url: URL?) {
        committedDocuments += 1
        seenAtCommit = messagesSeen + finishedDocuments
        // The first commit is the page the session loaded; any later one replaced it (and its bridge code).
        guard committedDocuments > 1 else { return }
        if loadingAgain {
            // The check loaded the page again itself, and said so: a new document, not the page going elsewhere.
            loadingAgain = false
            return wakeWaiters()
        }
        // A URL may carry tokens in its path or query: keep the scheme and host.
        let place: String
        switch url {
        case let url? where url.scheme == "about": place = url.absoluteString
        case let url?: place = url.host.map { "\(url.scheme ?? "")://\($0)" } ?? url.scheme.map { "\($0):" } ?? ""
        case nil: place = ""
        }
        navigatedAwayTo = place
        record(.navigated, place)
        // A wait may be for the document to change (a stressed reload): it has.
        wakeWaiters()
    }

    private func responded(statusCode: Int) {
        httpStatusCode = statusCode
        record(.httpResponse, "HTTP \(statusCode)" + BridgeSession.notHTML(responseMIMEType))
        emit(.httpResponse(statusCode: statusCode))
    }

    private func processTerminated() {
        webContentProcessTerminated = true
        record(.processTerminated)
        emit(.webContentProcessTerminated)
    }
}
