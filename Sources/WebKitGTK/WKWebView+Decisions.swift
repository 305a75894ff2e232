#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking
internal import WebKitGTKHost

// What the engine asks a WKWebView's delegates: script dialogs (WKUIDelegate) and navigation policies
// (WKNavigationDelegate), each answered once.

extension WKWebView {
    /// Answers a JavaScript dialog through the UI delegate, or at once as WKWebView does without one.
    func runDialog(_ dialog: OpaquePointer) {
        let message = webkit_script_dialog_get_message(dialog).map { String(cString: $0) } ?? ""
        let frame = WKFrameInfo.mainFrame(of: self)
        let pending = PendingDialog(dialog)
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_ALERT:
            guard let uiDelegate else { return pending.close() }
            uiDelegate.webView(self, runJavaScriptAlertPanelWithMessage: message, initiatedByFrame: frame) {
                pending.close()
            }
        case WEBKIT_SCRIPT_DIALOG_CONFIRM:
            guard let uiDelegate else { return pending.confirm(false) }
            uiDelegate.webView(self, runJavaScriptConfirmPanelWithMessage: message, initiatedByFrame: frame) {
                pending.confirm($0)
            }
        case WEBKIT_SCRIPT_DIALOG_PROMPT:
            guard let uiDelegate else { return pending.answer(nil) }
            let defaultText = webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) }
            uiDelegate.webView(
                self, runJavaScriptTextInputPanelWithPrompt: message, defaultText: defaultText, initiatedByFrame: frame
            ) { pending.answer($0) }
        default:
            // before-unload: leave the page, as iOS does (it has no before-unload panel).
            pending.confirm(true)
        }
    }

    func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType)
        -> Bool
    {
        if type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION
            || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION
        {
            return decideNavigationAction(decision, newWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        }
        guard type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE, let delegate = navigationDelegate else { return false }
        let responseDecision = cwk_response_decision(decision)
        guard let engineResponse = webkit_response_policy_decision_get_response(responseDecision) else { return false }
        let response = Self.urlResponse(engineResponse)
        let navigationResponse = WKNavigationResponse(
            isForMainFrame: webkit_response_policy_decision_is_main_frame_main_resource(responseDecision) != 0,
            response: response,
            canShowMIMEType: webkit_response_policy_decision_is_mime_type_supported(responseDecision) != 0)
        let pending = PolicyDecision(decision)
        delegate.webView(self, decidePolicyFor: navigationResponse) { policy in pending.decide(policy) }
        return true
    }

    func decideNavigationAction(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, newWindow: Bool)
        -> Bool
    {
        guard let delegate = navigationDelegate,
            let action = webkit_navigation_policy_decision_get_navigation_action(cwk_navigation_decision(decision)),
            let engineRequest = webkit_navigation_action_get_request(action),
            let uri = webkit_uri_request_get_uri(engineRequest), let url = URL(string: String(cString: uri))
        else { return false }
        var request = URLRequest(url: url)
        request.httpMethod = webkit_uri_request_get_http_method(engineRequest).map { String(cString: $0) } ?? "GET"
        let type: WKNavigationType =
            switch webkit_navigation_action_get_navigation_type(action) {
            case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: .linkActivated
            case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: .formSubmitted
            case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: .backForward
            case WEBKIT_NAVIGATION_TYPE_RELOAD: .reload
            case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: .formResubmitted
            default: .other
            }
        let source = WKFrameInfo.mainFrame(of: self)
        let target =
            newWindow
            ? nil
            : WKFrameInfo(
                isMainFrame: true, request: request, securityOrigin: WKSecurityOrigin(url: url), webView: self)
        let navigationAction = WKNavigationAction(
            request: request, navigationType: type, sourceFrame: source, targetFrame: target)
        let pending = PolicyDecision(decision)
        delegate.webView(self, decidePolicyFor: navigationAction) { policy in
            pending.decide(WKNavigationResponsePolicy(rawValue: policy.rawValue) ?? .cancel)
        }
        return true
    }

    static func urlResponse(_ response: UnsafeMutablePointer<WebKitURIResponse>) -> URLResponse {
        let url =
            webkit_uri_response_get_uri(response).flatMap { URL(string: String(cString: $0)) } ?? URL(
                string: "about:blank")!
        let status = Int(webkit_uri_response_get_status_code(response))
        if url.scheme == "http" || url.scheme == "https" || status > 0 {
            var headers: [String: String] = [:]
            withUnsafeMutablePointer(to: &headers) { pointer in
                cwk_response_headers(
                    response,
                    { name, value, data in
                        guard let name, let value, let data else { return }
                        let headers = data.assumingMemoryBound(to: [String: String].self)
                        let key = String(cString: name)
                        headers.pointee[key] =
                            headers.pointee[key].map { "\($0), \(String(cString: value))" } ?? String(cString: value)
                    }, pointer)
            }
            if let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            {
                return response
            }
        }
        let mime = webkit_uri_response_get_mime_type(response).map { String(cString: $0) }
        return URLResponse(
            url: url, mimeType: mime,
            expectedContentLength: expectedContentLength(webkit_uri_response_get_content_length(response)),
            textEncodingName: nil)
    }

    /// The engine's content length as Apple's `expectedContentLength`: -1 (`NSURLResponseUnknownLength`) when
    /// it does not fit an `Int`, as the `UInt64.max` WebKitGTK gives a page that reloads itself (issue 25).
    static func expectedContentLength(_ engineLength: some BinaryInteger) -> Int {
        Int(exactly: engineLength) ?? -1
    }
}

/// A script dialog answered once, from the UI delegate's completion handler or at once without a delegate.
@MainActor
final class PendingDialog: Sendable {
    private nonisolated(unsafe) var dialog: OpaquePointer?
    /// While the signal runs, an answer is just set: the engine answers the page when the handler returns
    /// (closing the dialog there makes WebKitGTK unref a dialog it already cleared). Afterwards, `close` answers.
    static var emitting = 0

    init(_ dialog: OpaquePointer) {
        self.dialog = webkit_script_dialog_ref(dialog)
    }

    isolated deinit {
        // A completion handler that was never called must not leave the page blocked.
        if let dialog {
            if Self.emitting == 0 { webkit_script_dialog_close(dialog) }
            webkit_script_dialog_unref(dialog)
        }
    }

    func close() { finish { _ in } }

    func confirm(_ confirmed: Bool) { finish { webkit_script_dialog_confirm_set_confirmed($0, confirmed ? 1 : 0) } }

    func answer(_ text: String?) {
        finish { dialog in
            // Not setting the text answers null, as a cancelled prompt does.
            if let text { webkit_script_dialog_prompt_set_text(dialog, text) }
        }
    }

    private func finish(_ set: (OpaquePointer) -> Void) {
        precondition(dialog != nil, "Completion handler passed to a WKUIDelegate method was called more than once")
        guard let dialog else { return }
        self.dialog = nil
        set(dialog)
        if Self.emitting == 0 { webkit_script_dialog_close(dialog) }
        webkit_script_dialog_unref(dialog)
        MainContextDriver.shared.scheduleService()
    }
}

/// A response policy decision answered once, from the delegate's handler.
@MainActor
final class PolicyDecision: Sendable {
    private nonisolated(unsafe) var decision: UnsafeMutablePointer<WebKitPolicyDecision>?

    init(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>) {
        self.decision = decision
        g_object_ref(UnsafeMutableRawPointer(decision))
    }

    isolated deinit {
        // A handler that was never called lets the load go on, rather than hanging it.
        if let decision { webkit_policy_decision_use(decision); g_object_unref(UnsafeMutableRawPointer(decision)) }
    }

    func decide(_ policy: WKNavigationResponsePolicy) {
        guard let decision else { return }
        self.decision = nil
        switch policy {
        case .allow: webkit_policy_decision_use(decision)
        case .cancel: webkit_policy_decision_ignore(decision)
        case .download: webkit_policy_decision_download(decision)
        }
        g_object_unref(UnsafeMutableRawPointer(decision))
        MainContextDriver.shared.scheduleService()
    }
}
#endif
