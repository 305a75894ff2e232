#if os(Linux)
import CWebKitGTK
import Foundation
import FoundationNetworking
internal import WebKitGTKHost

/// A web view backed by WebKitGTK, with the API of Apple's WKWebView that bridge tests use.
@MainActor
open class WKWebView: NSObject {
    /// A copy of the configuration the view was created with (it shares the user content controller).
    open var configuration: WKWebViewConfiguration { configurationCopy.copyConfiguration() }
    /// Receives load events; held weakly, so keep your own reference.
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    /// Shows the page's alert, confirm and prompt dialogs; without one they never block the page.
    open weak var uiDelegate: (any WKUIDelegate)?
    /// The frame given at creation (the view is never shown on screen).
    open var frame: CGRect

    private let configurationCopy: WKWebViewConfiguration
    private let controller: WKUserContentController
    /// The engine's view; nil when the environment could not be prepared.
    private(set) var view: ViewRef?
    private let environmentError: EngineEnvironmentError?
    /// Whether the view runs in the shared web process (the default data store) rather than its own.
    private let sharesProcess: Bool
    /// The views sharing this view's process, when it is the shared one.
    private var generation: SharedWebProcess.Generation?
    private var signalIDs: [gulong] = []
    private var route: Unmanaged<ViewRoute>?

    private var pendingNavigation: WKNavigation?
    /// Whether a document was ever committed in this view.
    private var hasCommittedDocument = false
    private var activeNavigation: WKNavigation?
    private var activeNavigationFailed = false
    /// Where the one retry of a request WebKitGTK cancelled on its own stands (see `loadFailed`).
    private var retry = Retry.none

    private enum Retry {
        case none
        /// `load(_:)` sent this request; it may be sent once more while its navigation is provisional.
        case armed(WKNavigation, URLRequest)
        /// The engine cancelled it: it goes again once the engine has ended the cancelled load.
        case due(WKNavigation, URLRequest)
        /// Sent again: its load's start is not announced twice, so the delegate sees one navigation, as on Apple's.
        case sent(WKNavigation)
    }
    private var timeoutItem: DispatchWorkItem?
    static var liveCount = 0
    /// Lets tests see what a view does when the environment cannot be prepared.
    static var preparationFailureForTesting: EngineEnvironmentError?
    /// Views alive now, so the engine's processes can be stopped together (see `EngineProcesses`).
    static var live = WeakSet<WKWebView>()

    /// Creates a view; if WebKitGTK cannot start, every load fails with the environment error instead of crashing.
    public init(frame: CGRect, configuration: WKWebViewConfiguration) {
        self.frame = frame
        configurationCopy = configuration.copyConfiguration()
        controller = configuration.userContentController
        do throws(EngineEnvironmentError) {
            if let failure = Self.preparationFailureForTesting { throw failure }
            try EngineEnvironment.prepare()
            environmentError = nil
        } catch {
            environmentError = error
            view = nil
            sharesProcess = true
            super.init()
            Self.liveCount += 1
            return
        }
        let store = configurationCopy.websiteDataStore
        sharesProcess = store === WKWebsiteDataStore.default()
        let (view, generation) = SharedWebProcess.shared.makeView(
            manager: controller.manager, context: sharesProcess ? nil : store.context)
        self.generation = generation
        self.view = view
        super.init()
        applyPreferences(configurationCopy.preferences)
        Self.liveCount += 1
        Self.live.insert(self)
        controller.webViews.insert(self)
        connectSignals(view)
    }

    isolated deinit {
        Self.liveCount -= 1
        timeoutItem?.cancel()
        controller.webViews.remove(self)
        guard let view else { return }
        for id in signalIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(view), id) }
        route?.release()
        // A process stuck in a script (or past its memory) would stay behind and hang the next view that shares it.
        // A non-persistent store's process ends with its store (its anchor holds it for the store's next view).
        if webkit_web_view_get_is_web_process_responsive(view) == 0 { terminateWebProcess() }
        webkit_web_view_stop_loading(view)
        gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
        g_object_unref(UnsafeMutableRawPointer(view))
        if let generation { SharedWebProcess.shared.released(from: generation) }
        MainContextDriver.shared.scheduleService()
    }

    // MARK: Loading

    /// Loads an HTML string; relative URLs resolve against `baseURL` (nil means about:blank).
    @discardableResult
    open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? {
        let navigation = begin()
        guard let view else { return navigation }
        webkit_web_view_load_html(view, string, baseURL?.absoluteString)
        MainContextDriver.shared.scheduleService()
        return navigation
    }

    /// Loads a request (URL and header fields; the engine's 4.1 API cannot send a method or body).
    @discardableResult
    open func load(_ request: URLRequest) -> WKNavigation? {
        let navigation = begin()
        guard let view, let url = request.url else { return navigation }
        if let refusal = LoadErrorMapping.restrictedPortError(url) {
            // WebKitGTK 2.50 silently commits about:blank for a blocked port; Apple fails the navigation.
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.navigationDelegate?.webView(self, didFailProvisionalNavigation: navigation, withError: refusal)
                }
            }
            return navigation
        }
        send(request, url: url, in: view)
        retry = .armed(navigation, request)
        armTimeout(request.timeoutInterval, navigation: navigation)
        MainContextDriver.shared.scheduleService()
        return navigation
    }

    /// Sends the same request again for the same navigation, without restarting its timeout.
    private func resend(_ navigation: WKNavigation, _ request: URLRequest) {
        guard let view, let url = request.url else { return }
        pendingNavigation = navigation
        retry = .sent(navigation)
        send(request, url: url, in: view)
        MainContextDriver.shared.scheduleService()
    }

    private func send(_ request: URLRequest, url: URL, in view: ViewRef) {
        let engineRequest = webkit_uri_request_new(url.absoluteString)!
        defer { g_object_unref(UnsafeMutableRawPointer(engineRequest)) }
        if let headers = webkit_uri_request_get_http_headers(engineRequest) {
            for (name, value) in request.allHTTPHeaderFields ?? [String: String]() {
                soup_message_headers_replace(headers, name, value)
            }
        }
        webkit_web_view_load_request(view, engineRequest)
    }

    /// Loads a file URL; `readAccessURL` must be a file URL too (Apple raises an exception otherwise).
    ///
    /// WebKitGTK lets a file page read any local file its subresources name: the read-access limit is not enforced.
    @discardableResult
    open func loadFileURL(_ url: URL, allowingReadAccessTo readAccessURL: URL) -> WKNavigation? {
        precondition(url.isFileURL, "\(url) is not a file URL")
        precondition(readAccessURL.isFileURL, "\(readAccessURL) is not a file URL")
        let navigation = begin()
        guard let view else { return navigation }
        webkit_web_view_load_uri(view, url.absoluteString)
        MainContextDriver.shared.scheduleService()
        return navigation
    }

    /// Reloads the current page.
    @discardableResult
    open func reload() -> WKNavigation? {
        let navigation = begin()
        guard let view else { return navigation }
        webkit_web_view_reload(view)
        MainContextDriver.shared.scheduleService()
        return navigation
    }

    /// Whether the page can be inspected (WebKitGTK's developer extras).
    open var isInspectable: Bool {
        get {
            view.flatMap { webkit_web_view_get_settings($0) }.map {
                webkit_settings_get_enable_developer_extras($0) != 0
            } ?? false
        }
        set {
            guard let view, let settings = webkit_web_view_get_settings(view) else { return }
            webkit_settings_set_enable_developer_extras(settings, newValue ? 1 : 0)
        }
    }

    /// Applies the configuration's preferences to the view's engine settings, which are its own (a related view
    /// gets new ones, not its anchor's). Only what differs is set: replacing the settings object sent the whole
    /// preference set to the web process for every view (measured: about 1.5 % of a warm session).
    private func applyPreferences(_ preferences: WKPreferences) {
        guard let view, let settings = webkit_web_view_get_settings(view) else { return }
        let open: gboolean = preferences.javaScriptCanOpenWindowsAutomatically ? 1 : 0
        if webkit_settings_get_javascript_can_open_windows_automatically(settings) != open {
            webkit_settings_set_javascript_can_open_windows_automatically(settings, open)
        }
    }

    /// Ends the view's web process (WebKitGTK's `terminate_web_process`): now, or when the last live view that
    /// shares it is released; no view created afterwards shares it.
    package func terminateWebProcess() {
        // Without a committed document no page code ran, so there is nothing to stop (and a shared process to keep).
        guard let view, hasCommittedDocument || !sharesProcess else { return }
        if let generation {
            SharedWebProcess.shared.terminate(view, in: generation)
        } else {
            SharedWebProcess.shared.terminate(storeView: view)
        }
        MainContextDriver.shared.scheduleService()
    }

    /// Whether the view's web process answers; WebKit decides it from its own responsiveness checks.
    package var isWebProcessResponsive: Bool {
        view.map { webkit_web_view_get_is_web_process_responsive($0) != 0 } ?? true
    }

    /// Stops the current load.
    open func stopLoading() {
        retry = .none  // a cancel the caller asked for is reported, never retried
        if let view { webkit_web_view_stop_loading(view) }
        MainContextDriver.shared.scheduleService()
    }

    /// The URL of the current page.
    open var url: URL? {
        guard let view, let uri = webkit_web_view_get_uri(view) else { return nil }
        return URL(string: String(cString: uri))
    }

    /// The title of the current page.
    open var title: String? {
        guard let view, let title = webkit_web_view_get_title(view) else { return nil }
        return String(cString: title)
    }

    /// Whether a load is in progress.
    open var isLoading: Bool { view.map { webkit_web_view_is_loading($0) != 0 } ?? false }

    /// The main frame as messages and dialogs report it: one snapshot per page URI, since every script message
    /// from the main frame carries one (two objects a message otherwise).
    var mainFrameInfo: WKFrameInfo? {
        guard let page = page() else { return nil }
        if let frame = page.mainFrame { return frame }
        let frame = WKFrameInfo(
            isMainFrame: true, request: page.request, securityOrigin: WKSecurityOrigin(page.origin), webView: self)
        page.mainFrame = frame
        return frame
    }

    /// The page as of its URI now, its request and origin rebuilt only when the URI changes; a class, so reading
    /// it per message retains one object instead of copying a request.
    private final class Page {
        let uri: String
        let request: URLRequest
        let origin: WKSecurityOrigin.Parts
        var mainFrame: WKFrameInfo?

        init(uri: String, request: URLRequest, origin: WKSecurityOrigin.Parts) {
            self.uri = uri
            self.request = request
            self.origin = origin
        }
    }

    private var cachedPage: Page?

    private func page() -> Page? {
        guard let view, let uri = webkit_web_view_get_uri(view) else { return nil }
        if let cached = cachedPage, cached.uri.withCString({ strcmp($0, uri) == 0 }) { return cached }
        let text = String(cString: uri)
        guard let url = URL(string: text) else { return nil }
        let page = Page(uri: text, request: URLRequest(url: url), origin: WKSecurityOrigin.Parts(url: url))
        cachedPage = page
        return page
    }

    private func begin() -> WKNavigation {
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

    private func armTimeout(_ interval: TimeInterval, navigation: WKNavigation) {
        timeoutItem?.cancel()
        guard interval > 0, interval.isFinite else { return }
        let item = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated { self?.loadTimedOut(navigation) }
        }
        timeoutItem = item
        DispatchQueue.main.asyncAfter(deadline: .now() + interval, execute: item)
    }

    private func loadTimedOut(_ navigation: WKNavigation) {
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

    // MARK: Engine signals

    private func connectSignals(_ view: ViewRef) {
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

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_STARTED:
            activeNavigation = pendingNavigation ?? WKNavigation()
            pendingNavigation = nil
            activeNavigationFailed = false
            if case .sent(let resent) = retry, resent === activeNavigation {
                retry = .none
                return
            }
            navigationDelegate?.webView(self, didStartProvisionalNavigation: activeNavigation)
        case WEBKIT_LOAD_COMMITTED:
            hasCommittedDocument = true
            timeoutItem?.cancel()
            navigationDelegate?.webView(self, didCommit: activeNavigation)
        case WEBKIT_LOAD_FINISHED:
            if case .due(let navigation, let request) = retry {
                activeNavigation = nil
                activeNavigationFailed = false
                return resend(navigation, request)
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

    private func loadFailed(_ event: WebKitLoadEvent, uri: String?, error: GError) {
        guard !activeNavigationFailed else { return }
        if event == WEBKIT_LOAD_STARTED, error.domain == cwk_io_error_quark(),
            UInt32(error.code) == G_IO_ERROR_CANCELLED.rawValue, pendingNavigation == nil,
            case .armed(let navigation, let request) = retry, navigation === activeNavigation,
            request.url?.absoluteString == uri
        {
            // WebKitGTK 2.50 can cancel a main-frame request nobody cancelled (seen when a TLS handshake fails
            // after an earlier load's DNS failure in the same network process). Apple's engine reports the real
            // failure, so the request is sent once more, as the same navigation, once the engine has ended this one.
            activeNavigationFailed = true
            retry = .due(navigation, request)
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

    private func processTerminated() {
        timeoutItem?.cancel()
        navigationDelegate?.webViewWebContentProcessDidTerminate(self)
    }

    /// Answers a JavaScript dialog through the UI delegate, or at once as WKWebView does without one.
    private func runDialog(_ dialog: OpaquePointer) {
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

    private func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType)
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

    private func decideNavigationAction(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, newWindow: Bool)
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
            url: url, mimeType: mime, expectedContentLength: Int(webkit_uri_response_get_content_length(response)),
            textEncodingName: nil)
    }

    // MARK: JavaScript

    /// Evaluates a script in the page world of the main frame; the completion runs on the main thread.
    open func evaluateJavaScript(
        _ javaScriptString: String, completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {
        run(.evaluate(javaScriptString), world: .page) { result in
            switch result {
            case .success(let value): completionHandler?(value.value, nil)
            case .failure(let error): completionHandler?(nil, error)
            }
        }
    }

    /// Evaluates a script in the page world of the main frame.
    ///
    /// Returns `Any`, as Apple's import does. A script whose result is `undefined` (or nil) throws
    /// `WKError.javaScriptResultTypeIsUnsupported` here, where Apple's async import traps: use the
    /// completion-handler form, or `evaluateJavaScript(_:in:contentWorld:)`, when a script may return nothing.
    open func evaluateJavaScript(_ javaScriptString: String) async throws -> Any {
        let result = try await withCheckedThrowingContinuation { continuation in
            run(.evaluate(javaScriptString), world: .page) { continuation.resume(with: $0) }
        }
        guard let value = result.value else {
            throw WKError(
                .javaScriptResultTypeIsUnsupported,
                userInfo: [NSLocalizedDescriptionKey: Self.undefinedResultDescription])
        }
        return value
    }

    /// Why the async form refuses an `undefined` result.
    static let undefinedResultDescription =
        "JavaScript execution returned undefined, which the async evaluateJavaScript(_:) cannot return (Apple's import traps on it); return a value, or use the completion-handler form"

    /// Evaluates a script in a content world of the main frame (other frames are not supported by this engine binding).
    open func evaluateJavaScript(_ javaScript: String, in frame: WKFrameInfo? = nil, contentWorld: WKContentWorld)
        async throws -> Any?
    {
        try await withCheckedThrowingContinuation { continuation in
            run(.evaluate(javaScript), world: contentWorld) { continuation.resume(with: $0) }
        }.value
    }

    /// Runs a function body with the arguments as named parameters; a returned Promise is awaited.
    open func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo? = nil,
        contentWorld: WKContentWorld
    ) async throws -> Any? {
        let names = arguments.keys.sorted()
        var values: [String] = []
        for name in names {
            guard let literal = try? JavaScriptLiteral.render(arguments[name]!) else {
                throw WKError(
                    .javaScriptExceptionOccurred,
                    userInfo: [
                        ErrorKey.exceptionMessage: JavaScriptLiteral.unsupportedArgumentMessage,
                        NSLocalizedDescriptionKey:
                            "A JavaScript exception occurred: \(JavaScriptLiteral.unsupportedArgumentMessage)",
                    ])
            }
            values.append(literal)
        }
        // Kept on the body's first line so reported line numbers match the caller's body.
        let wrapped =
            "return await (async function(\(names.joined(separator: ","))) {\(functionBody)\n}).call(this\(values.map { ", " + $0 }.joined()));"
        return try await withCheckedThrowingContinuation { continuation in
            run(.callAsync(wrapped), world: contentWorld) { continuation.resume(with: $0) }
        }.value
    }

    enum Script {
        case evaluate(String)
        case callAsync(String)
    }

    private func run(
        _ script: Script, world: WKContentWorld,
        completion: @escaping @MainActor (Result<ResultValue, any Error>) -> Void
    ) {
        guard let view else {
            let error: any Error = environmentError ?? WKError(.webViewInvalidated)
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(.failure(error)) } }
            return
        }
        let box = Unmanaged.passRetained(ScriptCompletion(completion)).toOpaque()
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let completion = Unmanaged<ScriptCompletion>.fromOpaque(data).takeRetainedValue()
            MainActor.assumeIsolated { completion.finish(source: source, result: result) }
        }
        switch script {
        case .evaluate(let source):
            webkit_web_view_evaluate_javascript(view, source, -1, world.name, nil, nil, callback, box)
        case .callAsync(let body):
            webkit_web_view_call_async_javascript_function(view, body, -1, nil, world.name, nil, nil, callback, box)
        }
        MainContextDriver.shared.scheduleService()
    }
}

/// A script result, boxed so it can cross a continuation (it is only ever used on the main actor).
struct ResultValue: @unchecked Sendable {
    let value: Any?
}

/// Turns the engine's async result into Apple's result or WKError.
@MainActor
final class ScriptCompletion {
    private let completion: @MainActor (Result<ResultValue, any Error>) -> Void
    private let isCallAsync: Bool

    init(_ completion: @escaping @MainActor (Result<ResultValue, any Error>) -> Void, isCallAsync: Bool = false) {
        self.completion = completion
        self.isCallAsync = isCallAsync
    }

    func finish(source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let view = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self)
        // Both finish functions share the same GTask-based result.
        let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
        if let error {
            defer { g_error_free(error) }
            completion(.failure(Self.wkError(error.pointee)))
            return
        }
        guard let value else { completion(.success(ResultValue(value: nil))); return }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        do {
            completion(.success(ResultValue(value: try JSValueConversion.foundationValue(value))))
        } catch {
            completion(
                .failure(
                    WKError(
                        .javaScriptResultTypeIsUnsupported,
                        userInfo: [
                            NSLocalizedDescriptionKey: WKError.describe(.javaScriptResultTypeIsUnsupported)
                        ])))
        }
    }

    static func wkError(_ error: GError) -> WKError {
        let message = error.message.map { String(cString: $0) } ?? ""
        let domain = String(cString: g_quark_to_string(error.domain))
        if error.domain == cwk_javascript_error_quark() {
            switch error.code {
            case Int32(WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT.rawValue):
                return WKError(
                    .javaScriptResultTypeIsUnsupported,
                    userInfo: [
                        NSLocalizedDescriptionKey: WKError.describe(.javaScriptResultTypeIsUnsupported),
                        ErrorKey.engineDomain: domain, ErrorKey.engineCode: Int(error.code),
                        ErrorKey.engineMessage: message,
                    ])
            default:
                return WKError.javaScriptException(engineMessage: message, domain: domain, code: Int(error.code))
            }
        }
        return WKError(
            .unknown,
            userInfo: [
                NSLocalizedDescriptionKey: message, ErrorKey.engineDomain: domain,
                ErrorKey.engineCode: Int(error.code),
                ErrorKey.engineMessage: message,
            ])
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
