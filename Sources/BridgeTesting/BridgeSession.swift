import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

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
    public internal(set) var webView: WKWebView?
    public internal(set) var timeline: [TimelineEntry] = []
    /// How the first load ended; nil while it runs.
    public internal(set) var loadResult: LoadResult?
    public internal(set) var httpStatusCode: Int?
    /// The main document's Content-Type (its MIME type), when it came over HTTP.
    public internal(set) var responseMIMEType: String?
    /// The error the load failed with, if it failed.
    public internal(set) var loadError: (any Error)?
    /// The first 100 messages the contract refused; `rejectedCount` counts them all.
    public internal(set) var rejections: [BridgeRejection] = []
    public internal(set) var rejectedCount = 0
    /// Refused messages grouped by what was wrong with them (up to 100 groups), with how often each came.
    public internal(set) var rejectionTally: [(rejection: BridgeRejection, count: Int)] = []
    var tallyIndex: [String: Int] = [:]
    /// Valid page → native messages in order of arrival, the first 10,000; `counts` counts them all by kind.
    public internal(set) var messages: [ValidatedMessage] = []
    /// How many valid messages of each kind arrived.
    public internal(set) var counts: [String: Int] = [:]

    /// The first valid message of `kind` that arrived, if one did.
    public func first(_ kind: String) -> ValidatedMessage? { messages.first { $0.kind == kind } }
    /// Dialogs the page opened, in order.
    public internal(set) var dialogs: [DialogKind] = []
    /// Answers native gives to page messages that expect one (reply handlers, prompts); nil answers nothing.
    public var replyProvider: (@MainActor (ValidatedMessage) -> BridgeReply?)?
    public internal(set) var webContentProcessTerminated = false
    /// Messages WebKit dropped because it could not clone them (see `UncloneableMessage`), the first 100.
    public internal(set) var uncloneable: [UncloneableMessage] = []
    /// The page's uncaught errors, unhandled rejections and console messages, in order: the first 100, the first
    /// unhandled error always, and how many console calls were left off (`PageDiagnostics.keep`).
    package internal(set) var pageDiagnostics: [PageDiagnostic] = []
    /// Where the page went when it left the document the session loaded (scheme and host only), if it did.
    public internal(set) var navigatedAwayTo: String?
    /// Documents committed so far (a reload or a navigation commits another), and didFinish callbacks so far.
    var committedDocuments = 0
    var finishedDocuments = 0
    /// Messages that reached native on any of the page's handlers, and that count plus didFinish callbacks when the
    /// current document committed: what a stressed session's page clock compares its own count of them with.
    var messagesSeen = 0
    var seenAtCommit = 0
    /// Native's answer to a message that expects one, given whenever native has it (its completion handler may
    /// come late); nil answers at once from ``replyProvider``.
    var answer: (@MainActor (ValidatedMessage, @escaping @MainActor (BridgeReply?) -> Void) -> Void)?
    /// Whether the next commit is the session's own load of the page again, not the page navigating away.
    var loadingAgain = false
    /// When the session loads its page through the check's loopback proxy: the proxy's origin and the page's own
    /// address. The timeline names the page's host, and the frame rule judges a frame of the proxy's origin as a
    /// frame of the page's own.
    var proxied: (proxyOrigin: String, page: URL)?
    /// Valid page → native messages with the channel and document each came on (the first 10,000), and all of
    /// them counted by document and kind: the judge's record of what arrived.
    var arrivals: [SessionRecord.Message] = []
    var documentCounts: [Int: [String: Int]] = [:]
    /// Acknowledgements that answered no request native sent.
    var strayAcknowledgements = 0
    /// The first 10,000 acknowledgements the page sent, with how each related to the requests issued.
    public internal(set) var acknowledgements: [Acknowledgement] = []
    public var correlator = RequestCorrelator()
    /// The contract's correlation rules applied to this session's messages (Turbo's visit identifier).
    var valueCorrelator = ValueCorrelator()

    /// Every script message exactly as WebKit delivered it, before validation.
    public var onScriptMessage: ((WKScriptMessage) -> Void)?
    /// Every event, after the session has recorded it.
    public var onEvent: ((BridgeEvent) -> Void)?

    let controller: WKUserContentController
    /// Restarted when the load starts, so the timeline reads from the load.
    var clock = SessionClock()
    /// The time a stressed session's web process has been paused: its waits' deadlines move later by it.
    var pausedTime: PausedTime?
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    /// The check's own evaluations under way. The Linux engine also reports an exception of one to the page as
    /// a hidden "Script error."; that error is the evaluation's result, not the page's.
    var ownScriptsRunning = 0
    /// The hidden "Script error."s reported, in order, that the engine's console may still give the text of:
    /// true for one the session kept, false for one it dropped (see `BridgeSession+EngineConsole.swift`).
    var hiddenErrorsAwaitingText: [Bool] = []
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
        userScripts: [UserScriptSpec], websiteDataStore: WKWebsiteDataStore? = nil, console: Bool = false,
        watchesReceivers: Bool = false
    ) {
        self.contract = contract
        self.mode = mode
        self.announcingKind = announcingKind
        controller = WKUserContentController()
        super.init()
        for name in contract.postedHandlerNames { addHandler(named: name) }
        if !contract.handlerNames.contains(CloneDiagnostics.handlerName) {
            controller.add(WeakDiagnosticsHandler(self), contentWorld: .page, name: CloneDiagnostics.handlerName)
            for name in contract.postedHandlerNames {
                controller.addUserScript(CloneDiagnostics.userScript(handler: name))
            }
            controller.addUserScript(PageDiagnostics.userScript(console: console))
            let receivers = watchesReceivers ? ReceiverWatch.names(contract) : []
            if !receivers.isEmpty {
                controller.addUserScript(
                    WKUserScript(
                        source: ReceiverWatch.source(receivers), injectionTime: .atDocumentStart,
                        forMainFrameOnly: true))
            }
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
        if diagnosed { EngineConsole.listen(webView, self) }
    }

    /// Registers the session's handler for a name the contract gives, in the page world (a reply handler where the
    /// contract's messages on it expect a reply).
    func addHandler(named name: String) {
        if contract.repliesOn(handler: name) {
            controller.addScriptMessageHandler(WeakReplyHandler(self), contentWorld: .page, name: name)
        } else {
            controller.add(WeakScriptMessageHandler(self), contentWorld: .page, name: name)
        }
    }

    /// Loads `html` as the page; the load's outcome arrives as an event.
    public func loadHTMLString(_ html: String, baseURL: URL? = nil) {
        clock = SessionClock()
        record(.loadStarted)
        _ = webView?.loadHTMLString(html, baseURL: baseURL)
    }

    /// Loads a real page over the network.
    public func load(_ request: URLRequest) {
        load(request, through: nil)
    }

    /// Loads a real page, through the check's loopback proxy when given (its origin, and the page's own address).
    func load(_ request: URLRequest, through proxy: (proxyOrigin: String, page: URL)?) {
        proxied = proxy
        clock = SessionClock()
        let through = proxied == nil ? "" : ", through the check's loopback proxy"
        record(.loadStarted, (proxied?.page ?? request.url)?.host.map { "host \($0)\(through)" } ?? "")
        _ = webView?.load(request)
    }

    /// Loads the page again with `load` (a stressed reload): its commit is a new document, not a navigation away.
    func loadAgain(_ load: () -> Void) {
        loadingAgain = true
        load()
    }

    /// Removes the handler, drops the delegate and releases the view; the session stays readable.
    public func tearDown() {
        for name in contract.postedHandlerNames {
            controller.removeScriptMessageHandler(forName: name, contentWorld: .page)
        }
        controller.removeScriptMessageHandler(forName: CloneDiagnostics.handlerName, contentWorld: .page)
        controller.removeAllUserScripts()
        webView?.navigationDelegate = nil
        if let webView { EngineEnvironment.release(webView, sessionTimedOut: waitTimedOut) }
        webView = nil
        onScriptMessage = nil
        onEvent = nil
        replyProvider = nil
        answer = nil
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
            let timer = PausedTime.at(deadline, counting: pausedTime) { [weak self] in
                // Whoever removes the waiter resumes it, so it is resumed exactly once.
                guard let waiter = self?.waiters.removeValue(forKey: id) else { return }
                let held = waiter.condition()
                if !held && !pausing { self?.waitTimedOut = true }
                waiter.continuation.resume(returning: held)
            }
            waiters[id] = Waiter(condition: condition, continuation: continuation, timer: timer)
        }
    }

    /// Re-checks the waiters after something outside the event stream changed (a script completion).
    func notify() { wakeWaiters() }

    func wakeWaiters() {
        for (id, waiter) in waiters where waiter.condition() {
            waiters.removeValue(forKey: id)
            waiter.timer.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    private func releaseWaiters() {
        let pending = waiters.values
        waiters.removeAll()
        for waiter in pending {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: waiter.condition())
        }
    }

}

private struct Waiter {
    let condition: @MainActor () -> Bool
    let continuation: CheckedContinuation<Bool, Never>
    /// The wait's deadline: cancelled when something else ends the wait, so it holds nothing until it would fire.
    let timer: any DispatchSourceTimer
}

extension BridgeSession {
    /// How the first load ended, as the verdict reads it: a value, since a failed load is data, not a thrown error.
    package enum LoadResult: Sendable, Equatable {
        case finished
        case failed(BridgeFailure)
    }
}
