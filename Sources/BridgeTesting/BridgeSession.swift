import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// What a session saw, in the order it happened; the hook for XCTest expectations and the CLI.
package enum BridgeEvent {
    case didFinish
    case loadFailed(any Error)
    case httpResponse(statusCode: Int)
    /// A valid page → native message that acknowledges nothing, each time one arrives.
    case message(ValidatedMessage)
    case rejected(BridgeRejection)
    /// WebKit could not clone a message the page posted and dropped it; the handler never saw it.
    case dropped(UncloneableMessage)
    case acknowledgement(ValidatedMessage, Correlation)
    /// The page opened an `alert`, `confirm` or `prompt` dialog (answered at once, as WKWebView does).
    case dialog(DialogKind)
    case webContentProcessTerminated
}

/// A JavaScript dialog the page opened.
package enum DialogKind: String, Sendable {
    case alert, confirm, prompt
}

/// Native's answer to a page → native message that expects one (a reply handler's reply, a prompt's text).
package enum BridgeReply: Sendable {
    /// The reply value, as JSON types.
    case value(JSONValue)
    /// The reply handler's error: the page's promise rejects with this message.
    case error(String)
}

/// A page → native acknowledgement and how it matched the requests: only `matched` settles the current one.
package struct Acknowledgement: Sendable, Equatable {
    public let kind: String
    public let requestID: RequestID
    public let correlation: Correlation
}

/// A page → native message the contract refused: its structure and every violation, never its values.
public struct BridgeRejection: Sendable, Equatable, Codable, CustomStringConvertible {
    public let structure: String
    public let violations: [ContractViolation]

    public var description: String {
        "\(structure): " + violations.map(\.description).joined(separator: "; ")
    }
}

/// One bridge session on a fresh web view, set up in the only order that cannot lose the page's first message.
///
/// A new `WKUserContentController` gets the handler before the configuration and the web view exist, so a
/// message posted while the page parses always finds it. Controllers are never reused across sessions, and
/// ``tearDown()`` removes the handler, drops the delegate and releases the view.
@MainActor
package final class BridgeSession: NSObject {
    public let contract: BridgeContract
    public let mode: ValidationMode
    /// The kind whose first arrival the timeline marks as `ready received`: the judge's first expected message.
    public let announcingKind: String?
    public private(set) var webView: WKWebView?
    public private(set) var timeline: [TimelineEntry] = []
    public private(set) var loadResult: Result<Void, BridgeFailure>?
    public private(set) var httpStatusCode: Int?
    /// The main document's Content-Type (its MIME type), when it came over HTTP.
    public private(set) var responseMIMEType: String?
    /// The error the load failed with, if it failed.
    public private(set) var loadError: (any Error)?
    /// The first 100 messages the contract refused; `rejectedCount` counts them all.
    public private(set) var rejections: [BridgeRejection] = []
    public private(set) var rejectedCount = 0
    /// Refused messages grouped by what was wrong with them (up to 100 groups), with how often each came.
    public private(set) var rejectionTally: [(rejection: BridgeRejection, count: Int)] = []
    private var tallyIndex: [String: Int] = [:]
    /// Valid page → native messages in order of arrival, the first 10,000; `counts` counts them all by kind.
    public private(set) var messages: [ValidatedMessage] = []
    /// How many valid messages of each kind arrived.
    public private(set) var counts: [String: Int] = [:]

    /// The first valid message of `kind` that arrived, if one did.
    public func first(_ kind: String) -> ValidatedMessage? { messages.first { $0.kind == kind } }
    /// Dialogs the page opened, in order.
    public internal(set) var dialogs: [DialogKind] = []
    /// Answers native gives to page messages that expect one (reply handlers, prompts); nil answers nothing.
    public var replyProvider: (@MainActor (ValidatedMessage) -> BridgeReply?)?
    public private(set) var webContentProcessTerminated = false
    /// Messages WebKit dropped because it could not clone them (see `UncloneableMessage`), the first 100.
    public private(set) var uncloneable: [UncloneableMessage] = []
    /// The page's uncaught errors, unhandled rejections and console messages, in order (the first 100).
    public private(set) var pageDiagnostics: [PageDiagnostic] = []
    /// Where the page went when it left the document the session loaded (scheme and host only), if it did.
    public private(set) var navigatedAwayTo: String?
    /// Documents committed so far (a reload or a navigation commits another), and didFinish callbacks so far.
    private(set) var committedDocuments = 0
    private(set) var finishedDocuments = 0
    /// How long native holds its reply to a message before the page gets it (a stressed session); nil: none.
    var replyDelay: (@MainActor (ValidatedMessage) -> TimeInterval)?
    /// Whether the next commit is the check's own reload (a stressed session), not the page navigating away.
    var reloading = false
    /// When the session loads its page through the check's loopback proxy: the proxy's origin and the page's own
    /// address. The timeline names the page's host, and the frame rule judges a frame of the proxy's origin as a
    /// frame of the page's own.
    var proxied: (proxyOrigin: String, page: URL)?
    /// The first 10,000 acknowledgements the page sent, with how each related to the requests issued.
    public private(set) var acknowledgements: [Acknowledgement] = []
    public var correlator = RequestCorrelator()

    /// Every script message exactly as WebKit delivered it, before validation.
    public var onScriptMessage: ((WKScriptMessage) -> Void)?
    /// Every event, after the session has recorded it.
    public var onEvent: ((BridgeEvent) -> Void)?

    private let controller: WKUserContentController
    /// Restarted when the load starts, so the timeline reads from the load.
    private var clock = SessionClock()
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    /// Whether a wait ended by its timeout: the page may be stuck, so teardown ends its web process.
    private var waitTimedOut = false

    /// Sets the bridge up: a new controller, every handler the contract names, the app's scripts, then the view.
    ///
    /// - Parameters:
    ///   - userScripts: the app's native-side scripts, injected before the page's own (as the app does).
    ///   - websiteDataStore: where cookies and storage live; nil shares the default store (and on Linux its process).
    ///   - console: whether every console level is recorded; otherwise `console.error` and `console.warn` only.
    public convenience init(
        contract: BridgeContract = .default, mode: ValidationMode = .strict, announcingKind: String? = nil,
        websiteDataStore: WKWebsiteDataStore? = nil, console: Bool = false
    ) {
        self.init(
            contract: contract, mode: mode, announcingKind: announcingKind, userScripts: [],
            websiteDataStore: websiteDataStore, console: console)
    }

    /// A session with the app's native-side scripts (the contract's check section names them).
    package init(
        contract: BridgeContract = .default, mode: ValidationMode = .strict, announcingKind: String? = nil,
        userScripts: [UserScriptSpec], websiteDataStore: WKWebsiteDataStore? = nil, console: Bool = false
    ) {
        self.contract = contract
        self.mode = mode
        self.announcingKind = announcingKind
        controller = WKUserContentController()
        super.init()
        for name in contract.handlerNames {
            if contract.repliesOn(handler: name) {
                controller.addScriptMessageHandler(WeakReplyHandler(self), contentWorld: .page, name: name)
            } else {
                controller.add(WeakScriptMessageHandler(self), contentWorld: .page, name: name)
            }
        }
        if !contract.handlerNames.contains(CloneDiagnostics.handlerName) {
            controller.add(WeakDiagnosticsHandler(self), contentWorld: .page, name: CloneDiagnostics.handlerName)
            for name in contract.handlerNames { controller.addUserScript(CloneDiagnostics.userScript(handler: name)) }
            controller.addUserScript(PageDiagnostics.userScript(console: console))
        }
        let diagnosed = !contract.handlerNames.contains(CloneDiagnostics.handlerName)
        for (index, script) in userScripts.enumerated() {
            let time: WKUserScriptInjectionTime =
                script.injectionTime == .documentStart ? .atDocumentStart : .atDocumentEnd
            func add(_ source: String) {
                controller.addUserScript(
                    WKUserScript(source: source, injectionTime: time, forMainFrameOnly: script.forMainFrameOnly))
            }
            // Named by its place in the list (the play's userScripts, then each --user-script, in order), so an
            // error it throws says whose it is.
            let name = script.file.map { ($0 as NSString).lastPathComponent } ?? "#\(index + 1) of \(userScripts.count)"
            if diagnosed { add(PageDiagnostics.marker(name)) }
            add(script.source ?? "")
            if diagnosed { add(PageDiagnostics.marker(nil)) }
        }
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        // A suite's lane gives its own store, so concurrent pages share no cookies, storage, cache or process.
        if let websiteDataStore { configuration.websiteDataStore = websiteDataStore }
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = self
        self.webView = webView
        attachDialogs(to: webView)
    }

    /// Loads `html` as the page; the load's outcome arrives as an event.
    public func loadHTMLString(_ html: String, baseURL: URL? = nil) {
        clock = SessionClock()
        record(.loadStarted)
        _ = webView?.loadHTMLString(html, baseURL: baseURL)
    }

    /// Loads a real page over the network.
    public func load(_ request: URLRequest) {
        clock = SessionClock()
        let through = proxied == nil ? "" : ", through the check's loopback proxy"
        record(.loadStarted, (proxied?.page ?? request.url)?.host.map { "host \($0)\(through)" } ?? "")
        _ = webView?.load(request)
    }

    /// Removes the handler, drops the delegate and releases the view; the session stays readable.
    public func tearDown() {
        for name in contract.handlerNames { controller.removeScriptMessageHandler(forName: name, contentWorld: .page) }
        controller.removeScriptMessageHandler(forName: CloneDiagnostics.handlerName, contentWorld: .page)
        controller.removeAllUserScripts()
        webView?.navigationDelegate = nil
        if let webView { EngineEnvironment.release(webView, sessionTimedOut: waitTimedOut) }
        webView = nil
        onScriptMessage = nil
        onEvent = nil
        replyProvider = nil
        releaseWaiters()
    }

    // MARK: Waiting

    /// Waits until `condition` holds, re-checking after every event, for at most `timeout` seconds.
    ///
    /// - Returns: whether the condition held when the wait ended (by an event, the timeout or teardown).
    public func wait(timeout: TimeInterval, until condition: @escaping @MainActor () -> Bool) async -> Bool {
        await wait(until: .now() + timeout, condition)
    }

    /// Waits until `condition` holds, re-checking after every event, until `deadline`: the harness's one timer.
    ///
    /// A deadline passed with the condition unmet marks the session as timed out (its web process is not reused),
    /// unless `pausing`: a pause between two looks of an observation is not a wait that failed.
    func wait(
        until deadline: DispatchTime, pausing: Bool = false, _ condition: @escaping @MainActor () -> Bool
    ) async -> Bool {
        if condition() { return true }
        guard webView != nil else { return false }
        return await withCheckedContinuation { continuation in
            let id = nextWaiter
            nextWaiter += 1
            waiters[id] = Waiter(condition: condition, continuation: continuation)
            DispatchQueue.main.asyncAfter(deadline: deadline) { [weak self] in
                MainActor.assumeIsolated {
                    // Whoever removes the waiter resumes it, so it is resumed exactly once.
                    guard let waiter = self?.waiters.removeValue(forKey: id) else { return }
                    let held = waiter.condition()
                    if !held && !pausing { self?.waitTimedOut = true }
                    waiter.continuation.resume(returning: held)
                }
            }
        }
    }

    /// Re-checks the waiters after something outside the event stream changed (a script completion).
    func notify() { wakeWaiters() }

    private func wakeWaiters() {
        for (id, waiter) in waiters where waiter.condition() {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume(returning: true)
        }
    }

    private func releaseWaiters() {
        let pending = waiters.values
        waiters.removeAll()
        for waiter in pending { waiter.continuation.resume(returning: waiter.condition()) }
    }

    // MARK: Recording

    func record(_ event: TimelineEntry.Event, _ note: String = "") {
        timeline.append(TimelineEntry(event: event, milliseconds: clock.milliseconds, note: note))
    }

    func emitDialog(_ kind: DialogKind) { emit(.dialog(kind)) }

    private func emit(_ event: BridgeEvent) {
        onEvent?(event)
        wakeWaiters()
    }

    /// Validates a posted message and records it; returns the validated message, or nil when it was refused.
    @discardableResult
    fileprivate func receive(_ message: WKScriptMessage) -> ValidatedMessage? {
        onScriptMessage?(message)
        if let violation = contract.frameViolation(
            isMainFrame: message.frameInfo.isMainFrame, origin: frameOrigin(message.frameInfo))
        {
            reject(BridgeRejection(structure: messageStructure(message.body), violations: [violation]))
            return nil
        }
        return accept(
            contract.validate(message.body, direction: .pageToNative, mode: mode, handler: message.name),
            body: message.body)
    }

    /// Answers the page's `prompt(text)`: a contract message on the prompt channel gets native's reply text.
    func prompt(_ text: String) -> String? {
        guard contract.usesPromptChannel else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            reject(
                BridgeRejection(
                    structure: "String (prompt text, not JSON)",
                    violations: [
                        ContractViolation(
                            path: "body", rule: .bodyNotObject, expected: "JSON text of an Object", found: "String")
                    ]))
            return nil
        }
        let validation = contract.validate(
            object, direction: .pageToNative, mode: mode, handler: nil, transport: .prompt)
        guard let validated = accept(validation, body: object) else { return nil }
        switch replyProvider?(validated) {
        case .value(.string(let text))?: return text
        case .value(let other)?: return String(decoding: (try? JSONEncoder().encode(other)) ?? Data(), as: UTF8.self)
        case .error?, nil: return nil
        }
    }

    private func reject(_ rejection: BridgeRejection) {
        rejectedCount += 1
        let key = rejection.description
        if let index = tallyIndex[key] {
            rejectionTally[index].count += 1
        } else if rejectionTally.count < 100 {
            tallyIndex[key] = rejectionTally.count
            rejectionTally.append((rejection, 1))
        }
        // The first hundred are kept and the first three timed; a flood is counted, not stored.
        if rejections.count < 100 { rejections.append(rejection) }
        if rejectedCount <= 3 { record(.messageRejected, rejection.description) }
        emit(.rejected(rejection))
    }

    private func accept(_ validation: Validation, body: Any?) -> ValidatedMessage? {
        switch validation {
        case .invalid(let violations):
            reject(BridgeRejection(structure: messageStructure(body), violations: violations))
            return nil
        case .valid(let validated):
            let count = counts.incremented(validated.kind)
            if messages.count < 10_000 { messages.append(validated) }
            if contract.message(validated.kind, direction: .pageToNative)?.acknowledges != nil,
                let id = validated.requestID
            {
                let correlation = correlator.settle(rawID: id)
                // Kept and timed like other messages: a page that floods acknowledgements is counted, not stored.
                if acknowledgements.count < 10_000 {
                    acknowledgements.append(
                        Acknowledgement(
                            kind: validated.kind, requestID: RequestID(rawValue: id), correlation: correlation))
                }
                if count <= 3 { record(.acknowledged, "\(validated.kind): \(correlation)") }
                emit(.acknowledgement(validated, correlation))
            } else {
                // "ready received" only for a message named ready: another first message (Hotwire's connect) is
                // labelled by its own kind, as every other message is.
                if count == 1, validated.kind == announcingKind, validated.kind == "ready" {
                    record(.readyReceived, validated.description)
                } else if count <= 3 {
                    record(.messageReceived, validated.description)
                }
                emit(.message(validated))
            }
            return validated
        }
    }

    /// Replies to a reply handler's message: native's answer, or an error naming why there is none; with the
    /// seconds native holds it first (a stressed session's late completion handler).
    fileprivate func reply(to message: WKScriptMessage) -> (Any?, String?, TimeInterval) {
        guard let validated = receive(message) else {
            return (nil, "the message breaks the bridge contract (see the native log for its structure)", 0)
        }
        let answer = replyProvider?(validated)
        let delay = answer == nil ? 0 : replyDelay?(validated) ?? 0
        switch answer {
        case .value(let value)?: return (value.foundationValue, nil, delay)
        case .error(let text)?: return (nil, text, delay)
        case nil: return (nil, "native has no reply for \(validated.kind)", delay)
        }
    }

    /// WebKit dropped a message of the page's because it could not clone it; native code never got it.
    func dropped(_ message: UncloneableMessage) {
        guard uncloneable.count < 100 else { return }
        uncloneable.append(message)
        // Like duplicate readies: the first few on the timeline, the list keeps the rest.
        if uncloneable.count <= 3 { record(.messageDropped, "\(message.description) cannot be cloned") }
        emit(.dropped(message))
    }

    /// The check's own evaluations under way. The Linux engine also reports an exception of one to the page as
    /// a hidden "Script error."; that error is the evaluation's result, not the page's.
    var ownScriptsRunning = 0

    /// The page reported an error or a console message of its own: on the timeline, in order.
    func reported(_ diagnostic: PageDiagnostic) {
        guard pageDiagnostics.count < 100, !(diagnostic.isHidden && ownScriptsRunning > 0) else { return }
        pageDiagnostics.append(diagnostic)
        if pageDiagnostics.count <= PageDiagnostics.keptOnTimeline {
            record(.pageReported, diagnostic.timelineNote)
        }
    }

    private func failLoad(_ error: any Error) {
        guard loadResult == nil else { return }
        loadError = error
        finishLoad(.failure(BridgeFailure(.pageLoadDidNotFinish, LoadError.describe(error))))
        emit(.loadFailed(error))
    }

    fileprivate func finishLoad(_ result: Result<Void, BridgeFailure>) {
        guard loadResult == nil else { return }
        loadResult = result
        switch result {
        case .success:
            record(.didFinish)
            emit(.didFinish)
        case .failure(let failure):
            record(.loadFailed, failure.detail)
        }
    }
}

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
            if loadResult == nil { finishLoad(.success(())) } else { wakeWaiters() }
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
        // The first commit is the page the session loaded; any later one replaced it (and its bridge code).
        guard committedDocuments > 1 else { return }
        if reloading {
            // The check loaded the page again itself, and said so: a new document, not the page going elsewhere.
            reloading = false
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

    /// " (the page navigated away to PLACE)" once a document replaced the loaded one, else "".
    var navigationNote: String {
        navigatedAwayTo.map { " (the page navigated away to \($0.isEmpty ? "another document" : $0))" } ?? ""
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

private struct Waiter {
    let condition: @MainActor () -> Bool
    let continuation: CheckedContinuation<Bool, Never>
}

/// Answers a reply handler's messages through the session, without the controller retaining it.
@MainActor
private final class WeakReplyHandler: NSObject, WKScriptMessageHandlerWithReply {
    weak var session: BridgeSession?

    init(_ session: BridgeSession) { self.session = session }

    nonisolated func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        MainActor.assumeIsolated {
            guard let session else { return replyHandler(nil, "the bridge session has ended") }
            let (value, error, delay) = session.reply(to: message)
            guard delay > 0 else { return replyHandler(value, error) }
            nonisolated(unsafe) let held = value
            DispatchQueue.main.asyncAfter(deadline: .now() + delay) { replyHandler(held, error) }
        }
    }
}

/// Keeps the controller's strong reference from retaining the session (the controller lives in the view).
@MainActor
private final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandler {
    weak var session: BridgeSession?

    init(_ session: BridgeSession) { self.session = session }

    nonisolated func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) {
        MainActor.assumeIsolated { _ = session?.receive(message) }
    }
}

extension Dictionary where Value == Int {
    /// Adds one to the count of `key` and returns the new count, with one lookup (the subscript's modify).
    fileprivate mutating func incremented(_ key: Key) -> Int {
        func addOne(_ count: inout Int) -> Int {
            count += 1
            return count
        }
        return addOne(&self[key, default: 0])
    }
}
