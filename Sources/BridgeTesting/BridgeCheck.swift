import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// What one check runs against and how long it waits for each event.
public struct CheckConfiguration: Sendable {
    /// The page under test.
    public enum Page: Sendable {
        /// An HTML document loaded with `loadHTMLString(_:baseURL:)` (no network).
        case html(String, baseURL: URL?)
        /// A deployed page fetched over the network.
        case url(URL)
    }

    public var page: Page
    public var contract: BridgeContract
    /// The text sent as the native → page message's `value`; the page must show exactly this text.
    public var value: String
    /// Seconds to wait for each event: the load, the ready, the acceptance.
    public var timeout: TimeInterval
    public var mode: ValidationMode

    public init(
        page: Page, contract: BridgeContract = .default, value: String = "ok", timeout: TimeInterval = 10,
        mode: ValidationMode = .strict
    ) {
        self.page = page
        self.contract = contract
        self.value = value
        self.timeout = timeout
        self.mode = mode
    }
}

/// The verdict on one direction of the bridge.
public struct DirectionVerdict: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case pass, fail
        case notRun = "not run"
    }

    public let status: Status
    public let failure: BridgeFailure?
    /// Structure of what passed, or why it did not run.
    public let note: String

    static func pass(_ note: String) -> Self { Self(status: .pass, failure: nil, note: note) }
    static func fail(_ failure: BridgeFailure) -> Self { Self(status: .fail, failure: failure, note: "") }
    static func notRun(_ note: String) -> Self { Self(status: .notRun, failure: nil, note: note) }
}

/// One session's timeline and verdicts.
public struct SessionReport: Sendable, Equatable, Codable {
    public let load: DirectionVerdict
    public let pageToNative: DirectionVerdict
    public let nativeToPage: DirectionVerdict
    public let timeline: [TimelineEntry]
    /// Page → native messages seen besides the first valid ready (duplicates, rejections), as structure.
    public let extraMessages: [String]

    /// The failures in the order a reader should fix them: the load, then each direction.
    public var failures: [BridgeFailure] {
        [load, pageToNative, nativeToPage].compactMap(\.failure)
    }

    public var passed: Bool { failures.isEmpty }
}

/// Runs both directions of the bridge on the real engine and names what broke.
@MainActor
public enum BridgeCheck {
    /// The observation point the fixture sets when it accepts a message (not part of the production protocol).
    public static let observationPoint = "document.body.dataset.received"

    /// Loads the page in a fresh session, waits for the ready and the load, sends the value, and checks the page shows it.
    public static func run(_ configuration: CheckConfiguration) async -> SessionReport {
        await run(configuration, in: BridgeSession(contract: configuration.contract, mode: configuration.mode))
    }

    /// Runs the check in a session the caller made, so a test can watch its events (and inject faults); tears it down.
    ///
    /// The session validates with its own contract and mode; the configuration's contract builds the native message.
    public static func run(_ configuration: CheckConfiguration, in session: BridgeSession) async -> SessionReport {
        defer { session.tearDown() }
        let timeout = configuration.timeout
        switch configuration.page {
        case .html(let html, let baseURL):
            session.loadHTMLString(html, baseURL: baseURL)
        case .url(let url):
            session.load(URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout))
        }

        // Native sends only after didFinish: a page still parsing may not have defined its receiver yet.
        // A dead web process sends nothing more: stop waiting as soon as it is reported.
        _ = await session.wait(timeout: timeout) { session.loadResult != nil || session.webContentProcessTerminated }
        let load = loadVerdict(session, configuration)
        let loaded = load.status == .pass

        // The directions are independent: native sends right after didFinish, while a late ready may still come.
        let nativeToPage: DirectionVerdict
        if loaded {
            nativeToPage = await send(configuration, in: session)
        } else {
            nativeToPage = .notRun("the page did not load")
        }

        let pageToNative: DirectionVerdict
        if loaded || session.ready != nil {
            _ = await session.wait(timeout: timeout) { session.ready != nil || session.webContentProcessTerminated }
            pageToNative = readyVerdict(session, timeout: timeout)
        } else {
            pageToNative = .notRun("the page did not load")
        }

        var extra = session.rejections.map { "rejected \($0.description)" }
        if session.duplicateReadyCount > 0 { extra.append("duplicate ready × \(session.duplicateReadyCount)") }
        return SessionReport(
            load: load, pageToNative: pageToNative, nativeToPage: nativeToPage, timeline: session.timeline,
            extraMessages: extra)
    }

    /// The load's verdict; for a real page, a fetch that failed or answered >= 400 is kept apart from a broken page.
    ///
    /// Only the main document's status and the transport error count as "not deployed": once the deployment
    /// answered below 400, a load that never finishes (a subresource that never arrives) is the page's own
    /// failure, reported as "page load did not finish" like any fixture that never finishes.
    private static func loadVerdict(_ session: BridgeSession, _ configuration: CheckConfiguration) -> DirectionVerdict {
        let within = seconds(configuration.timeout)
        guard case .url(let url) = configuration.page else {
            switch session.loadResult {
            case .success: return .pass("didFinish")
            case .failure(let failure): return .fail(failure)
            case nil where session.webContentProcessTerminated:
                return .fail(BridgeFailure(.pageLoadDidNotFinish, BridgeSession.terminatedDetail + " during the load"))
            case nil:
                return .fail(
                    BridgeFailure(.pageLoadDidNotFinish, "webView(_:didFinish:) did not come within \(within)"))
            }
        }
        let host = LoadError.host(of: url)
        if let status = session.httpStatusCode, status >= 400 {
            return .fail(BridgeFailure(.pageUnreachable, "HTTP \(status) from \(host)"))
        }
        switch session.loadResult {
        case .success:
            if let status = session.httpStatusCode { return .pass("HTTP \(status) from \(host)") }
            guard ["http", "https"].contains(url.scheme?.lowercased()) else { return .pass("didFinish") }
            // WebKitGTK finishes a load to a port it refuses (1, 25, 6000…) without a response or an error.
            return .fail(
                BridgeFailure(
                    .pageUnreachable,
                    "no HTTP response from \(host): the engine finished the load without fetching it (WebKit refuses some ports, e.g. 1, 25, 6000)"
                ))
        case .failure(let failure):
            if let error = session.loadError, LoadError.isUnreachable(error) {
                return .fail(BridgeFailure(.pageUnreachable, "\(LoadError.describe(error)) for \(host)"))
            }
            // No response at all: the deployment was not fetched, whatever the network error says.
            if let error = session.loadError, session.httpStatusCode == nil,
                LoadError.isUnreachableBeforeAResponse(error)
            {
                return .fail(
                    BridgeFailure(
                        .pageUnreachable, "\(LoadError.describe(error)) for \(host), before any HTTP response"))
            }
            return .fail(BridgeFailure(failure.category, "\(failure.detail) for \(host)"))
        case nil where session.webContentProcessTerminated:
            return .fail(BridgeFailure(.pageLoadDidNotFinish, BridgeSession.terminatedDetail + " during the load"))
        case nil:
            guard let status = session.httpStatusCode else {
                return .fail(
                    BridgeFailure(
                        .pageUnreachable, "\(LoadError.Cause.timeout.rawValue) from \(host) (waited \(within))"))
            }
            return .fail(
                BridgeFailure(
                    .pageLoadDidNotFinish,
                    "\(host) answered HTTP \(status), but webView(_:didFinish:) did not come within \(within) (a subresource may never have arrived)"
                ))
        }
    }

    private static func readyVerdict(_ session: BridgeSession, timeout: TimeInterval) -> DirectionVerdict {
        if let ready = session.ready {
            return .pass(ready.description)
        }
        let seen: String
        if session.webContentProcessTerminated && session.rejections.isEmpty {
            seen = BridgeSession.terminatedDetail + " before it arrived"
        } else if session.rejections.isEmpty, !session.uncloneable.isEmpty {
            seen = uncloneableDetail(session.uncloneable)
        } else if session.rejections.isEmpty {
            let away = session.navigatedAwayTo.map { place in
                " (the page navigated away to \(place.isEmpty ? "another document" : place))"
            }
            seen = "nothing arrived on '\(session.contract.handler)' within \(seconds(timeout))" + (away ?? "")
        } else {
            seen =
                "what arrived instead: " + session.rejections.map(\.description).joined(separator: " | ")
                + (session.uncloneable.isEmpty ? "" : "; and " + uncloneableDetail(session.uncloneable))
        }
        return .fail(BridgeFailure(.nativeDidNotReceive, "no valid '\(session.readyKind)'; \(seen)"))
    }

    /// What the diagnostics script saw, with what WebKit does about it.
    static func uncloneableDetail(_ messages: [UncloneableMessage]) -> String {
        let which = messages.prefix(3).map(\.description).joined(separator: " | ")
        let more = messages.count > 3 ? " and \(messages.count - 3) more" : ""
        return
            "WebKit could not clone what the page posted (\(which)\(more)) and dropped it; the page's postMessage promise never settles. Remedy: post only strings, numbers, booleans, null, arrays and plain objects"
    }

    private static func send(_ configuration: CheckConfiguration, in session: BridgeSession) async -> DirectionVerdict {
        let call: ReceiverCall
        do {
            call = try ReceiverCall(
                contract: configuration.contract, message: ["kind": "sync", "value": configuration.value])
        } catch {
            return .fail(BridgeFailure(.pageDidNotAccept, "the native message could not be built: \(error)"))
        }
        session.record(.syncSent, messageStructure(["kind": "sync", "value": configuration.value]))
        if let failure = await session.deliver(call, expecting: configuration.value, timeout: configuration.timeout) {
            session.record(.notAccepted, failure.detail)
            return .fail(failure)
        }
        session.record(.accepted)
        return .pass("\(observationPoint) shows the sent text")
    }

    /// A duration as people write it: `10 s`, `2.5 s`.
    nonisolated public static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension BridgeSession {
    /// Calls the page's receiver with `call`, then checks the observation point shows `expected` exactly.
    ///
    /// The comparison reads the text back percent-encoded, so NUL, U+2028 and lone surrogates survive the trip
    /// and a mismatch is reported without the value.
    public func deliver(_ call: ReceiverCall, expecting expected: String?, timeout: TimeInterval) async
        -> BridgeFailure?
    {
        await deliver(script: call.script, expecting: expected, timeout: timeout)
    }

    /// Runs a receiver call given as script text; for tests that show what a hand-built script breaks.
    public func deliver(script: String, expecting expected: String?, timeout: TimeInterval) async -> BridgeFailure? {
        // The engine's own error for a dead process names a result type, not the crash: say what happened.
        let failure = await deliverOnLiveProcess(script: script, expecting: expected, timeout: timeout)
        guard let failure else { return nil }
        guard webContentProcessTerminated else { return failure }
        return BridgeFailure(.pageDidNotAccept, "\(BridgeSession.terminatedDetail) (engine: \(failure.detail))")
    }

    private func deliverOnLiveProcess(
        script: String, expecting expected: String?, timeout: TimeInterval
    ) async -> BridgeFailure? {
        var returnedUnsupported = false
        switch await evaluate(script, timeout: timeout) {
        case .timedOut:
            return BridgeFailure(
                .pageDidNotAccept, "the receiver call did not complete within \(BridgeCheck.seconds(timeout))")
        case .error(let error) where Self.isUnsupportedResult(error):
            // The receiver ran without throwing but returned what cannot come back (an async receiver's Promise):
            // whether it accepted shows at the observation point.
            returnedUnsupported = true
        case .error(let error):
            return BridgeFailure(.pageDidNotAccept, javaScriptErrorText(error))
        case .value:
            break
        }
        guard let expected else { return nil }
        let readBack =
            "(function(v){return v === undefined ? null : encodeURIComponent(v)})(\(BridgeCheck.observationPoint))"
        switch await evaluate(readBack, timeout: timeout) {
        case .timedOut:
            return BridgeFailure(
                .pageDidNotAccept,
                "reading \(BridgeCheck.observationPoint) did not complete within \(BridgeCheck.seconds(timeout))")
        case .error(let error):
            return BridgeFailure(
                .pageDidNotAccept, "reading \(BridgeCheck.observationPoint) failed: \(javaScriptErrorText(error))")
        case .value(let value):
            guard let encoded = value as? String else {
                let promise =
                    returnedUnsupported
                    ? " (the receiver returned a value that cannot cross the bridge, such as a Promise; if it rejected, evaluateJavaScript cannot show why)"
                    : ""
                return BridgeFailure(.pageDidNotAccept, "\(BridgeCheck.observationPoint) was not set\(promise)")
            }
            if encoded == URIComponent.encode(expected) { return nil }
            let found = encoded.removingPercentEncoding ?? encoded
            return BridgeFailure(
                .pageDidNotAccept,
                "\(BridgeCheck.observationPoint) differs from the sent text (sent String of \(expected.utf16.count) UTF-16 units, found String of \(found.utf16.count))"
            )
        }
    }
}

extension BridgeSession {
    /// Whether an evaluation failed only because its result cannot be returned to native code.
    static func isUnsupportedResult(_ error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == WKErrorDomain && error.code == WKError.Code.javaScriptResultTypeIsUnsupported.rawValue
    }
}

/// JavaScript's `encodeURIComponent`, so a string can be compared with the page's copy of it exactly.
enum URIComponent {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
