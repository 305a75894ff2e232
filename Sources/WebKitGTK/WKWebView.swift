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
    let environmentError: EngineEnvironmentError?
    /// Whether the view runs in the shared web process (the default data store) rather than its own.
    private let sharesProcess: Bool
    /// The views sharing this view's process, when it is the shared one.
    private var generation: SharedWebProcess.Generation?
    /// The engine signals connected to `view` and the route they take back to this view (WKWebView+EngineSignals).
    var signalIDs: [gulong] = []
    var route: Unmanaged<ViewRoute>?

    // One navigation's state, driven from WKWebView+Navigation.swift (so internal, not private).
    var pendingNavigation: WKNavigation?
    /// Whether a document was ever committed in this view.
    var hasCommittedDocument = false
    var activeNavigation: WKNavigation?
    var activeNavigationFailed = false
    /// Where the retry of a request WebKitGTK cancelled on its own stands (see `loadFailed`).
    var retry = Retry.none
    /// How many times one request is sent again after the engine cancelled it on its own: it has cancelled a resent
    /// request too (in 2 of 7 runs of a test loading 10 times, each after a DNS failure).
    static let resendsAfterASpontaneousCancel = 3

    enum Retry {
        case none
        /// This request was sent; while its navigation is provisional it may be sent `resends` more times.
        case armed(WKNavigation, URLRequest, resends: Int)
        /// The engine cancelled it: it goes again once the engine has ended the cancelled load.
        case due(WKNavigation, URLRequest, resends: Int)
        /// Sent again: its load's start is not announced twice, so the delegate sees one navigation, as on Apple's.
        case sent(WKNavigation, URLRequest, resends: Int)
    }
    /// Called with the text, script URL and line of each uncaught error the engine logged to its console, as the web
    /// process extension sends them (``WebProcessExtension``); never without it. Not Apple API.
    package var engineUncaughtError: (@MainActor (_ text: String, _ url: String, _ line: Int) -> Void)?
    var timeoutItem: DispatchWorkItem?
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
            try WebKitGTKEnvironment.prepare()
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

    /// The web processes that run this view's pages, as far as this process saw them start (not Apple API: the
    /// stress run pauses them); empty when unknown, as for views whose process started before
    /// ``recordWebProcessStarts()``.
    package var webProcessIdentifiers: [pid_t] {
        guard let view else { return [] }
        return SharedWebProcess.shared.processes(of: view, in: generation)
    }

    /// From now on, records the web process each new process-sharing group of views starts, for
    /// ``webProcessIdentifiers``.
    package static func recordWebProcessStarts() { SharedWebProcess.shared.recordsStarts = true }

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
        retry = .armed(navigation, request, resends: Self.resendsAfterASpontaneousCancel)
        armTimeout(request.timeoutInterval, navigation: navigation)
        MainContextDriver.shared.scheduleService()
        return navigation
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
        // Kept on the body's first line so reported line numbers match the caller's body. Called directly, not
        // through `Function.prototype.call`, which the page may have replaced: Apple's call passes no page code.
        let wrapped =
            "return await (async function(\(names.joined(separator: ","))) {\(functionBody)\n})(\(values.joined(separator: ", ")));"
        return try await withCheckedThrowingContinuation { continuation in
            run(.callAsync(wrapped), world: contentWorld) { continuation.resume(with: $0) }
        }.value
    }
}
#endif
