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
    /// The text sent as the native → page message's `value` by the fixture-style play.
    public var value: String
    /// Seconds each step may take: the load, each page message, each acceptance.
    public var timeout: TimeInterval
    /// Seconds the whole check may take, whatever each step takes; nil bounds only the steps.
    public var bound: TimeInterval?
    /// Whether unknown, invalid or repeated page messages fail the check (strict, the default) or are listed with
    /// the session's extras, so that only a missing expected message fails (lenient).
    public var strictness: ValidationMode
    /// Whether fields the contract does not declare are violations (strict, the default) or ignored.
    public var fields: ValidationMode
    /// How native is played; nil takes the contract's `check` section, or the fixture style (ready, then sync).
    package var play: CheckPlay?
    /// Whether every console level of the page reaches the timeline; otherwise `console.error`/`console.warn` only.
    public var console = false
    /// Runs each page under seeded timing perturbations (`--stress N`) and adds a stress verdict; nil: no stress.
    package var stress: StressOptions?
    /// The one perturbation a session runs under (`--replay TOKEN`, or set by a stress run); nil: none.
    package var perturbation: Perturbation?
    /// Whether the timeline notes when each receiver became a function in the page (``ReceiverWatch``), as a
    /// repeated check does to explain a flaky page.
    package var watchesReceivers = false
    /// A folder the check serves on its own loopback HTTP server for each session (`--serve DIR`): an HTML page
    /// whose base URL lies in it loads with the server's address as its base, so ES modules and fetch work.
    public var servedFolder: URL?

    /// The step timeout when none is given, read by the CLI, the assertions and the seed test: ample for a cold
    /// simulator, a fraction of it on Linux.
    public static let defaultTimeout: TimeInterval = 10

    public init(
        page: Page, contract: BridgeContract = .default, value: String = "ok",
        timeout: TimeInterval = defaultTimeout, bound: TimeInterval? = nil,
        strictness: ValidationMode = .strict, fields: ValidationMode = .strict
    ) {
        self.init(
            page: page, contract: contract, value: value, timeout: timeout, bound: bound, strictness: strictness,
            fields: fields, play: nil)
    }

    /// A configuration with a play of its own, rather than the contract's (the tool's own checks and tests).
    package init(
        page: Page, contract: BridgeContract = .default, value: String = "ok",
        timeout: TimeInterval = defaultTimeout, bound: TimeInterval? = nil,
        strictness: ValidationMode = .strict, fields: ValidationMode = .strict, play: CheckPlay?
    ) {
        self.page = page
        self.contract = contract
        self.value = value
        self.timeout = timeout
        self.bound = bound
        self.strictness = strictness
        self.fields = fields
        self.play = play
    }
}

/// The verdict on one direction of the bridge (or on the load).
public enum DirectionVerdict: Sendable, Equatable {
    /// It held; the note is the structure of what passed.
    case pass(String)
    /// It broke, in this category, with this detail.
    case fail(BridgeFailure)
    /// It could not run; the note says why (an earlier step failed).
    case notRun(String)

    public var passed: Bool { if case .pass = self { true } else { false } }

    public var failure: BridgeFailure? { if case .fail(let failure) = self { failure } else { nil } }

    /// Structure of what passed, or why it did not run; empty for a failure.
    public var note: String {
        switch self {
        case .pass(let note), .notRun(let note): note
        case .fail: ""
        }
    }

    /// The status in words, as the text and HTML reports show it: `pass`, `fail`, `not run`.
    package var statusText: String {
        switch self {
        case .pass: "pass"
        case .fail: "fail"
        case .notRun: "not run"
        }
    }

    /// The status as the JSON report and the HTML report's classes name it: `pass`, `fail`, `not-run`.
    package var statusIdentifier: String { if case .notRun = self { "not-run" } else { statusText } }
}

/// One session's timeline and verdicts.
public struct SessionReport: Sendable, Equatable, Codable {
    public let load: DirectionVerdict
    public let pageToNative: DirectionVerdict
    public let nativeToPage: DirectionVerdict
    package let timeline: [TimelineEntry]
    /// Page → native messages seen besides the first valid ready (duplicates, rejections), as structure.
    public let extraMessages: [String]
    /// The first page messages the contract refused, each violation as a value (path, rule, expected, found).
    public var rejections: [BridgeRejection] = []
    /// The perturbation a stressed (or replayed) session ran under; nil on this machine's own timing.
    package var perturbation: Perturbation?
    /// What the perturbation changed, in words, in the order it happened (native held, pauses, responses held).
    public var perturbed: [String]?

    /// The failures in the order a reader should fix them: the load, then each direction.
    public var failures: [BridgeFailure] {
        [load, pageToNative, nativeToPage].compactMap(\.failure)
    }

    public var passed: Bool { failures.isEmpty }

    /// Valid page → native messages native received in this session, the first ready included.
    public var pageMessagesReceived: Int {
        timeline.filter { $0.event == .readyReceived || $0.event == .messageReceived }.count
    }

    /// Native → page messages the page accepted in this session.
    public var nativeMessagesAccepted: Int { timeline.filter { $0.event == .accepted }.count }

    /// How many refused messages a report keeps as values; the timeline and the extras count the rest.
    static let keptRejections = 10
}

/// A suite's lane: checks run one after another in an in-memory store of its own, emptied before each session.
///
/// Lanes run side by side and share nothing: no cookie, storage or cache, and on Linux not the web process either.
@MainActor
package final class CheckLane {
    private let store = WKWebsiteDataStore.nonPersistent()

    public init() {}

    /// Checks `configuration` in a fresh session that sees nothing an earlier session of the lane left.
    public func run(_ configuration: CheckConfiguration) async -> SessionReport {
        await BridgeCheck.run(configuration, websiteDataStore: store)
    }
}

/// Runs both directions of the bridge on the real engine and names what broke.
@MainActor
package enum BridgeCheck {
    /// Loads the page in a fresh session, plays native's side, and names what broke.
    ///
    /// - Parameters:
    ///   - websiteDataStore: a store of the caller's (a suite's lane), emptied first so the session sees nothing an
    ///     earlier one left (cookies, storage, caches); nil shares the default store.
    ///   - observe: sees the session before the page loads (to watch its events or inject faults).
    public static func run(
        _ configuration: CheckConfiguration, websiteDataStore: WKWebsiteDataStore? = nil,
        observe: (@MainActor (BridgeSession) -> Void)? = nil
    ) async -> SessionReport {
        let play: CheckPlay
        do {
            play = try plan(configuration)
        } catch {
            let failure = BridgeFailure(.nativeDidNotReceive, "the check cannot run: \(error)")
            return SessionReport(
                load: .notRun("the check's play is invalid"), pageToNative: .fail(failure),
                nativeToPage: .notRun("the check's play is invalid"), timeline: [], extraMessages: [])
        }
        if let websiteDataStore {
            await websiteDataStore.removeData(
                ofTypes: WKWebsiteDataStore.allWebsiteDataTypes(), modifiedSince: .distantPast)
        }
        SessionPerturber.prepare(configuration)
        let session = BridgeSession(
            contract: configuration.contract, mode: configuration.fields,
            announcingKind: play.expectedMessages.first,
            userScripts: (configuration.perturbation?.userScripts ?? []) + play.userScripts,
            websiteDataStore: websiteDataStore, console: configuration.console,
            watchesReceivers: configuration.watchesReceivers)
        observe?(session)
        return await PlayRunner(configuration: configuration, play: play, session: session).run()
    }

    /// The play a configuration runs, checked against its contract; errors name the path and the remedy.
    nonisolated public static func plan(_ configuration: CheckConfiguration) throws(ContractError) -> CheckPlay {
        let contract = configuration.contract
        if let play = configuration.play ?? contract.check {
            try play.check(against: contract)
            return play
        }
        return try CheckPlay.fixture(for: contract, value: configuration.value)
    }

    /// What the diagnostics script saw, with what WebKit does about it.
    nonisolated static func uncloneableDetail(_ messages: [UncloneableMessage]) -> String {
        let which = messages.prefix(3).map(\.description).joined(separator: " | ")
        let more = messages.count > 3 ? " and \(messages.count - 3) more" : ""
        return
            "WebKit could not clone what the page posted (\(which)\(more)) and dropped it; the page's postMessage promise never settles. Remedy: post only strings, numbers, booleans, null, arrays and plain objects"
    }

    /// A duration as people write it: `10 s`, `2.5 s`.
    nonisolated public static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension BridgeSession {
    /// Calls the page's receiver with `call`, then checks `expression` (the fixture's observation point unless
    /// given) shows `expected` exactly.
    ///
    /// The comparison reads the text back percent-encoded, so NUL, U+2028 and lone surrogates survive the trip
    /// and a mismatch is reported without the value.
    public func deliver(
        _ call: ReceiverCall, expecting expected: String?, at expression: String? = nil,
        timeout: TimeInterval
    ) async -> BridgeFailure? {
        await deliver(
            script: call.script, showing: expected.map { ($0, expression ?? CheckPlay.fixtureObservationPoint) },
            clock: CheckClock(timeout: timeout))
    }

    /// Runs a receiver call given as script text; for tests that show what a hand-built script breaks.
    public func deliver(
        script: String, expecting expected: String?, at expression: String? = nil,
        timeout: TimeInterval
    ) async -> BridgeFailure? {
        await deliver(
            script: script, showing: expected.map { ($0, expression ?? CheckPlay.fixtureObservationPoint) },
            clock: CheckClock(timeout: timeout))
    }

    /// Runs a receiver call within the current step of `clock`; with `shown`, the page must then show that text
    /// at that expression.
    func deliver(script: String, showing shown: (text: String, expression: String)?, clock: CheckClock) async
        -> BridgeFailure?
    {
        // The engine's own error for a dead process names a result type, not the crash: say what happened.
        let failure = await deliverOnLiveProcess(script: script, showing: shown, clock: clock)
        guard let failure else { return nil }
        guard webContentProcessTerminated else { return failure }
        return BridgeFailure(.pageDidNotAccept, "\(BridgeSession.terminatedDetail) (engine: \(failure.detail))")
    }

    private func deliverOnLiveProcess(
        script: String, showing shown: (text: String, expression: String)?, clock: CheckClock
    ) async -> BridgeFailure? {
        var returnedUnsupported = false
        switch await evaluate(script, until: clock.deadline) {
        case .timedOut:
            return BridgeFailure(.pageDidNotAccept, clock.missed("the receiver call did not complete"))
        case .error(let error) where Self.isUnsupportedResult(error):
            // The receiver ran without throwing but returned what cannot come back (an async receiver's Promise):
            // whether it accepted shows at the observation point.
            returnedUnsupported = true
        case .error(let error):
            return BridgeFailure(.pageDidNotAccept, javaScriptErrorText(error))
        case .value:
            break
        }
        guard let (expected, expression) = shown else { return nil }
        // Compared in the page with `===` against the sent text (a string literal from the contract's encoder):
        // only the language's own operators take part, never a function the page could replace.
        let readBack = """
            (function (v, sent) { return v === undefined ? null : { type: typeof v, same: v === sent, length: typeof v === "string" ? v.length : 0 }; })(\(expression), \(ReceiverCall.stringLiteral(expected)))
            """
        switch await evaluate(readBack, until: clock.deadline) {
        case .timedOut:
            return BridgeFailure(
                .pageDidNotAccept, clock.missed("reading \(expression) did not complete"))
        case .error(let error):
            return BridgeFailure(
                .pageDidNotAccept, "reading \(expression) failed: \(javaScriptErrorText(error))")
        case .value(let value):
            guard let found = value as? [String: Any], let type = found["type"] as? String else {
                let promise =
                    returnedUnsupported
                    ? " (the receiver returned a value that cannot cross the bridge, such as a Promise; if it rejected, evaluateJavaScript cannot show why)"
                    : ""
                return BridgeFailure(.pageDidNotAccept, "\(expression) was not set\(promise)")
            }
            if found["same"] as? Bool == true { return nil }
            let shown = type == "string" ? "String of \((found["length"] as? NSNumber)?.intValue ?? 0)" : "a \(type)"
            return BridgeFailure(
                .pageDidNotAccept,
                "\(expression) differs from the sent text (sent String of \(expected.utf16.count) UTF-16 units, found \(shown))"
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
