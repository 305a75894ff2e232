import BridgeContract
import Foundation
import LoopbackServer

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// Plays native's side of one session: triggers, sends, replies; then judges each direction.
///
/// Steps run one at a time, in the order their triggers happened; each wait is for an event, bounded by the one
/// clock's step deadline, and ends as soon as nothing more is expected or the verdict it waits for is decided.
@MainActor
final class PlayRunner {
    let configuration: CheckConfiguration
    let play: CheckPlay
    let session: BridgeSession
    private var contract: BridgeContract { configuration.contract }

    /// A step to run, with the page message that triggered it, when, and in which document (1, or 2 after a
    /// stressed session's reload).
    struct Pending {
        let step: PlayStep
        let trigger: ValidatedMessage?
        var triggeredAt = DispatchTime.now()
        var document = 1
    }

    var queue: [Pending] = []
    /// Whether the load passed, once it is over: judged once, not at every event the wait sees.
    var loaded: Bool?
    /// The page messages that must arrive, from the play.
    let expected: [String]
    /// The page → native kinds by which the page reports its own error.
    private let pageErrorKinds: [String]
    /// Whether an acknowledgement of no request native sent has arrived.
    private var strayAcknowledgement = false
    private var outcomes: [(name: String, failure: BridgeFailure?, note: String)] = []
    var clock: CheckClock
    /// The session's perturbation at work (a stressed or replayed session), and the loopback server it serves from.
    let perturber: SessionPerturber?
    var server: LoopbackServer?
    var perturbationEnded = false
    /// The page as loaded (through the server when it serves it), loaded again by a stressed reload.
    var loadedPage: CheckConfiguration.Page
    /// Whether the stressed reload is due, and from which committed document on messages belong to the second.
    var reloadDue = false
    var reloadCommit: Int?
    var finishedAtReload = 0
    var secondDocumentStarted = false
    /// Valid page messages by document and kind: an expected message must come once in each document.
    var documentCounts: [Int: [String: Int]] = [:]

    init(configuration: CheckConfiguration, play: CheckPlay, session: BridgeSession) {
        self.configuration = configuration
        self.play = play
        self.session = session
        perturber = configuration.perturbation.map { SessionPerturber($0, session: session) }
        loadedPage = configuration.page
        expected = play.expectedMessages
        pageErrorKinds = configuration.contract.messages.filter { $0.direction == .pageToNative && $0.pageError }
            .map(\.kind)
        clock = CheckClock(timeout: configuration.timeout, bound: configuration.bound)
    }

    func run() async -> SessionReport {
        defer {
            endPerturbation()
            session.tearDown()
        }
        wire()
        clock.beginStep()
        do {
            loadedPage = try servedPage()
        } catch {
            let failure = BridgeFailure(.pageLoadDidNotFinish, "\(error)")
            return SessionReport(
                load: .fail(failure), pageToNative: .notRun("the page did not load"),
                nativeToPage: .notRun("the page did not load"), timeline: session.timeline, extraMessages: [])
        }
        issueLoad(first: true)
        perturber?.loadStarted()
        while true {
            if loaded == nil, session.loadResult != nil {
                // Native sends on didFinish only to a page that loaded: an HTTP 404 also "finishes".
                loaded = BridgeCheck.loadVerdict(session, configuration).status == .pass
                if loaded == true {
                    queueDidFinishSteps(document: 1)
                    scheduleReload()
                }
            }
            if secondDocumentFinished {
                secondDocumentStarted = true
                queueDidFinishSteps(document: 2)
            }
            if !queue.isEmpty {
                await perform(queue.removeFirst())
                continue
            }
            if reloadReady {
                reload()
                continue
            }
            if finished { break }
            // Anything new (a message, the load, a dead process) wakes the wait; nothing new within a step ends it.
            let progressed = await session.wait(until: clock.deadline) { [unowned self] in
                !queue.isEmpty || finished || (loaded == nil && session.loadResult != nil)
                    || session.webContentProcessTerminated || reloadReady
                    || secondDocumentFinished
            }
            if !progressed || session.webContentProcessTerminated && queue.isEmpty { break }
            clock.beginStep()
        }
        endPerturbation()
        // WebKit tells nothing of a redirect it answers by ending the web process: the server says what it was.
        let redirect = await RedirectProbe.endingTheLoad(of: session, configuration.page, within: clock)
        return report(redirect: redirect)
    }

    private func queueDidFinishSteps(document: Int) {
        queue += play.steps.filter { $0.after == CheckPlay.didFinish }.map {
            Pending(step: $0, trigger: nil, document: document)
        }
    }

    /// Whether the play has nothing left to do: the load is over, every step ran, and every expected message came
    /// or the page → native verdict is already a failure that no later message can undo.
    private var finished: Bool {
        guard let loaded, queue.isEmpty else { return false }
        if !loaded || pageToNativeFailed || firstDocumentMissedForGood { return true }
        return !reloadPending && expected.allSatisfy(arrived)
    }

    /// Whether page → native has failed for good: what decides it only accumulates (a strict rejection, a second
    /// copy of an expected message, the page reporting its own error, an acknowledgement of no request).
    private var pageToNativeFailed: Bool {
        if configuration.strictness == .strict {
            if session.rejectedCount > 0 { return true }
            if expected.contains(where: { mostCopies($0) > 1 }) { return true }
        }
        // Asked at every event the wait sees: counts and a flag, no walk over the messages kept.
        return strayAcknowledgement || pageErrorKinds.contains { session.counts[$0, default: 0] > 0 }
    }

    /// Page messages the contract marks as the page reporting its own error.
    private var pageErrors: [ValidatedMessage] {
        session.messages.filter { contract.message($0.kind, direction: .pageToNative)?.pageError == true }
    }

    /// Queues the steps a page message triggers, and answers the ones that expect a reply.
    private func wire() {
        let previous = session.onEvent
        session.onEvent = { [unowned self] event in
            previous?(event)
            switch event {
            case .didFinish:
                perturber?.didFinish()
            case .message(let message), .acknowledgement(let message, _):
                if case .acknowledgement(_, let correlation) = event, correlation != .matched {
                    strayAcknowledgement = true
                }
                // An expected message counts once: another copy is a failure (strict) or listed (lenient), never a
                // trigger, so a page that repeats it cannot make native repeat itself. Other triggers run each time.
                let document = currentDocument
                documentCounts[document, default: [:]][message.kind, default: 0] += 1
                let count = documentCounts[document]?[message.kind] ?? 0
                if count > 1, expected.contains(message.kind) {
                    if count == 2 { session.record(.messageRejected, "duplicate \(message.description)") }
                    return
                }
                for step in play.steps where step.after == message.kind && step.send != nil {
                    queue.append(Pending(step: step, trigger: message, document: document))
                }
            default: break
            }
        }
        if let perturber { session.replyDelay = { perturber.replyDelay($0.kind) } }
        let steps = play.steps
        session.replyProvider = { [unowned self] message in
            guard
                let step = steps.first(where: { $0.after == message.kind && ($0.reply != nil || $0.replyError != nil) })
            else { return nil }
            session.record(.replied, "\(message.kind)")
            if step.send == nil, step.accepted != nil {
                queue.append(Pending(step: step, trigger: message, document: currentDocument))
            }
            return step.reply.map(BridgeReply.value) ?? .error(step.replyError ?? "")
        }
    }

    // MARK: Native → page

    private func perform(_ pending: Pending) async {
        // A step triggered in a document that a stressed reload replaced has nowhere to go.
        if pending.document != currentDocument { return }
        clock.beginStep()
        let step = pending.step
        guard let name = step.send, let spec = contract.message(name, direction: .nativeToPage) else {
            // A reply step: its answer already went; what is left is to see the page accept it.
            if case .observed(let expression, let equals)? = step.accepted {
                // The reply went before this step could look, so any value the page shows is its answer.
                let failure = await observe(expression, equals: equals, before: nil).map {
                    BridgeFailure($0.category, "the reply to \(step.after): \($0.detail)")
                }
                outcomes.append(("reply to \(step.after)", failure, "the page shows the reply to \(step.after)"))
            }
            return
        }
        var value = step.value ?? .object([:])
        if let echo = step.echo, case .object(var fields) = value, let trigger = pending.trigger {
            for name in echo { fields[name] = trigger.jsonValue(of: name) }
            value = .object(fields)
        }
        // A request the page must acknowledge gets a fresh id; an answer carries its trigger's.
        let isRequest = contract.messages.contains { $0.acknowledges == spec.kind }
        let requestID = isRequest ? session.correlator.begin().rawValue : pending.trigger?.requestID
        let body = contract.outgoing(spec, value: value, requestID: requestID)
        let call: ReceiverCall
        do {
            guard case .valid = contract.validate(body, as: spec) else {
                throw ReceiverCallError(
                    code: .violatesContract, violations: contract.validate(body, as: spec).violations)
            }
            // The library's writer: proven to give JavaScript the same value as JSONSerialization, ten times faster.
            call = try ReceiverCall(function: contract.functionPath(of: spec), argument: body, encoder: .jsonWriter)
        } catch {
            outcomes.append(
                (name, BridgeFailure(.pageDidNotAccept, "the native message could not be built: \(error)"), ""))
            return
        }
        let fixtureStyle = isFixtureStyle(step)
        if let perturber {
            await perturber.holdNative(name, after: (pending.triggeredAt, pending.trigger?.kind ?? CheckPlay.didFinish))
            clock.beginStep()
        }
        session.record(fixtureStyle ? .syncSent : .sent, fixtureStyle ? call.structure : "\(name): \(call.description)")
        let failure: BridgeFailure?
        switch step.accepted ?? .returns {
        case .observed(let expression, .string(let text)) where expression == CheckPlay.fixtureObservationPoint:
            failure = await session.deliver(script: call.script, showing: (text, expression), clock: clock)
        case .observed(let expression, let equals):
            // What the page showed before native acted: only a change from it is the page's answer.
            let before: JSONValue?
            if case .success(let value)? = await read(expression) { before = value } else { before = nil }
            if let refused = await session.deliver(script: call.script, showing: nil, clock: clock) {
                failure = refused
            } else {
                failure = await observe(expression, equals: equals, before: before)
            }
        case .returns:
            failure = await session.deliver(script: call.script, showing: nil, clock: clock)
        case .settles:
            failure = await settle(call.script)
        }
        await perturber?.holdCompletion()
        let function = contract.functionPath(of: spec)
        let prefixed = failure.map {
            fixtureStyle ? $0 : BridgeFailure($0.category, "\(name) (\(function)): \($0.detail)")
        }
        if let prefixed {
            session.record(.notAccepted, prefixed.detail)
        } else {
            session.record(.accepted, fixtureStyle ? "" : name)
        }
        let note: String =
            switch step.accepted ?? .returns {
            case .observed(let expression, _) where fixtureStyle: "\(expression) shows the sent text"
            case .observed(let expression, _): "\(name) accepted (\(expression) shows it)"
            case .returns: "\(name) accepted (\(contract.functionPath(of: spec)) returned)"
            case .settles: "\(name) accepted (its promise fulfilled)"
            }
        outcomes.append((name, prefixed, note))
    }

    /// Whether a step is the fixture's exchange, reported in the words the fixture check always used.
    private func isFixtureStyle(_ step: PlayStep) -> Bool {
        if case .observed(CheckPlay.fixtureObservationPoint, .string)? = step.accepted {
            return step.after == CheckPlay.didFinish
        }
        return false
    }

    /// Waits until `expression` shows the page's answer, compared with what the play expects.
    ///
    /// The page may still be handling native's message when the call returns (a reply handler's promise, a
    /// `fromNative` continuation), so the check looks again after the page's own tasks. A value other than `before`
    /// (what it showed before native acted), `undefined` and `null` is its answer: the expected one passes, any
    /// other fails at once instead of at the deadline. Each look reads the expression once and takes the value the
    /// engine hands over: no function of the page's (`JSON.stringify`, `setTimeout`) takes part in the verdict.
    private func observe(_ expression: String, equals expected: JSONValue, before: JSONValue?) async
        -> BridgeFailure?
    {
        let late = BridgeFailure(
            .pageDidNotAccept, clock.missed("\(expression) did not show the expected \(expected.structure) value"))
        while true {
            switch await read(expression) {
            case nil:
                return late
            case .failure(let error):
                return BridgeFailure(.pageDidNotAccept, "reading \(expression) failed: \(javaScriptErrorText(error))")
            case .success(let found?) where found == expected:
                return nil
            case .success(let found?) where found != before && found != .null:
                let shown =
                    found.structure == expected.structure
                    ? "shows another \(found.structure) than the expected one"
                    : "is \(found.structure), not the expected \(expected.structure) value"
                return BridgeFailure(.pageDidNotAccept, "\(expression) \(shown)")
            case .success:
                // Not answered yet: look again once the page has run its next tasks, or stop at the deadline.
                let next = min(clock.deadline, .now() + Self.lookAgain)
                _ = await session.wait(until: next, pausing: true) { false }
                if session.webView == nil || DispatchTime.now() >= clock.deadline { return late }
            }
        }
    }

    /// How soon an observation looks again: about a frame, so the page's timers and promise jobs run between.
    private static let lookAgain = DispatchTimeInterval.milliseconds(5)

    /// What `expression` shows now: nil when the step's deadline passed first; a success of nil when it is
    /// undefined or holds what JSON cannot (a function, a node).
    private func read(_ expression: String) async -> Result<JSONValue?, any Error>? {
        switch await session.callAsync("return (\(expression));", until: clock.deadline) {
        case nil: return nil
        case .success(let value): return .success(JSONValue(engineValue: value))
        case .failure(let error) where BridgeSession.isUnsupportedResult(error): return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    /// Runs a call and waits for the promise it returns to fulfil; a rejection is the page refusing.
    private func settle(_ script: String) async -> BridgeFailure? {
        switch await session.callAsync("await (\(script)); return null;", until: clock.deadline) {
        case nil:
            return BridgeFailure(.pageDidNotAccept, clock.missed("its promise did not settle"))
        case .failure(let error):
            return BridgeFailure(.pageDidNotAccept, "its promise rejected: \(javaScriptErrorText(error))")
        case .success:
            return nil
        }
    }

    // MARK: Verdicts

    private func report(redirect: RedirectProbe.Redirect?) -> SessionReport {
        let load = BridgeCheck.loadVerdict(session, configuration, redirect: redirect)
        let loaded = load.status == .pass
        let pageToNative = pageVerdict(loaded: loaded)
        let nativeToPage: DirectionVerdict
        if let failed = outcomes.first(where: { $0.failure != nil }), let failure = failed.failure {
            // A document that replaced the loaded one (a reload, a redirect) has no receiver, or took the message
            // away with it: the page's error alone ("TypeError: undefined is not a function") does not say so.
            nativeToPage = .fail(BridgeFailure(failure.category, failure.detail + session.navigationNote))
        } else if !outcomes.isEmpty {
            nativeToPage = .pass(outcomes.map(\.note).joined(separator: " | "))
        } else if !loaded {
            nativeToPage = .notRun("the page did not load")
        } else if play.steps.contains(where: { $0.send != nil }) {
            // A trigger can come after its step stopped waiting (a page that blocks the engine for seconds): then it
            // is on the timeline, and "did not arrive" would contradict it.
            let waiting = Set(play.steps.compactMap { $0.send == nil ? nil : $0.after }).sorted()
            let came = waiting.filter { trigger in
                if trigger == CheckPlay.didFinish, case .success? = session.loadResult { return true }
                return session.messages.contains { $0.kind == trigger }
            }
            let missing = waiting.filter { !came.contains($0) }
            nativeToPage = .notRun(
                "nothing was sent: "
                    + (missing.isEmpty
                        ? "\(came.joined(separator: ", ")) came only after the check stopped waiting for it"
                        : "\(missing.joined(separator: ", ")) did not arrive"))
        } else {
            nativeToPage = .notRun("the play sends nothing to the page")
        }
        // The check's own server's refusals (a module's typo) go with the first direction that failed.
        let refusals = ServedRefusals.note(server)
        return SessionReport(
            load: load, pageToNative: pageToNative.noting(refusals),
            nativeToPage: pageToNative.failure == nil ? nativeToPage.noting(refusals) : nativeToPage,
            timeline: session.timeline,
            extraMessages: extras(), rejections: Array(session.rejections.prefix(SessionReport.keptRejections)),
            perturbation: perturber?.perturbation, perturbed: perturber?.applied)
    }

    /// Structure of what arrived besides the expected messages: refusals, duplicates, dialogs.
    private func extras() -> [String] {
        // Grouped: a page that posts the same wrong message 50,000 times is one line with its count.
        // The count first, so a line cut for length keeps it.
        var extra = session.rejectionTally.map { tally in
            (tally.count > 1 ? "rejected × \(tally.count): " : "rejected ") + tally.rejection.description
        }
        let tallied = session.rejectionTally.reduce(0) { $0 + $1.count }
        if session.rejectedCount > tallied {
            extra.append("rejected × \(session.rejectedCount - tallied) more, of other structures")
        }
        for name in expected where mostCopies(name) > 1 {
            let beyond = documentCounts.values.reduce(0) { $0 + max(0, $1[name, default: 0] - 1) }
            extra.append("duplicate \(name) × \(beyond)")
        }
        for kind in [DialogKind.alert, .confirm, .prompt] {
            let count = session.dialogs.filter { $0 == kind }.count
            if count > 0 {
                extra.append("dialog \(kind.rawValue) × \(count) (answered as WKWebView does without a UI delegate)")
            }
        }
        return extra
    }

    private func pageVerdict(loaded: Bool) -> DirectionVerdict {
        // An acknowledgement of a native message the page refused is not also missing: that side already failed.
        let refused = Set(outcomes.filter { $0.failure != nil }.map(\.name))
        let missing = expected.filter { name in
            !arrived(name)
                && !(contract.message(name, direction: .pageToNative)?.acknowledges.map(refused.contains) ?? false)
        }
        let duplicates = expected.filter { mostCopies($0) > 1 }
        // The page reporting its own error, or answering a request native never sent, fails in either mode.
        let pageErrors = self.pageErrors
        let strayAcks = session.acknowledgements.filter { $0.correlation != .matched }
        var problems: [String] = []
        for error in pageErrors.prefix(3) {
            problems.append("the page reported an error through \(error.description)")
        }
        for ack in strayAcks.prefix(3) {
            problems.append(
                "\(ack.kind) answers no request native sent (\(ack.correlation.rawValue) id): its \(contract.requestID?.field ?? "id") must be the id of the request it acknowledges"
            )
        }
        for name in duplicates where configuration.strictness == .strict {
            problems.append(
                "duplicate '\(name)': it arrived \(mostCopies(name)) times and must arrive once per page load (a second listener or a repeated init?)"
            )
        }
        if missing.isEmpty {
            let strictRejections = configuration.strictness == .strict && !session.rejections.isEmpty
            if problems.isEmpty && !strictRejections {
                let seen = expected.compactMap { name in session.messages.first { $0.kind == name }?.description }
                return .pass(seen.isEmpty ? "no page message expected" : seen.joined(separator: " | "))
            }
            if !session.rejections.isEmpty {
                let more = session.rejectedCount > 3 ? " and \(session.rejectedCount - 3) more" : ""
                let names = expected.map { "'\($0)'" }.joined(separator: ", ")
                problems.append(
                    "besides \(names), messages the contract refuses arrived: "
                        + session.rejections.prefix(3).map(\.description).joined(separator: " | ") + more)
            }
            return .fail(BridgeFailure(.nativeDidNotReceive, problems.joined(separator: "; ")))
        }
        if loaded, !problems.isEmpty, session.rejections.isEmpty {
            // The problem decided the verdict and ended the wait: the missing messages were not waited out.
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            return .fail(
                BridgeFailure(
                    .nativeDidNotReceive,
                    problems.joined(separator: "; ") + "; \(names) had not arrived when that decided the verdict"))
        }
        if !loaded {
            // What did arrive is listed with the extras; the load's failure is the one to fix first.
            return .notRun("the page did not load")
        }
        let again = reloadCommit != nil && missing.allSatisfy { documentCounts[1]?[$0, default: 0] ?? 0 > 0 }
        let names =
            missing.map { "'\($0)'" }.joined(separator: ", ")
            + (again ? " in the document loaded again (it came in the first; it must come once per document)" : "")
        let seen: String
        if session.webContentProcessTerminated && session.rejections.isEmpty {
            seen = BridgeSession.terminatedDetail + " before it arrived"
        } else if session.rejections.isEmpty, !session.uncloneable.isEmpty {
            seen = BridgeCheck.uncloneableDetail(session.uncloneable)
        } else if session.rejections.isEmpty {
            let away = session.navigationNote
            let handlers = contract.handlerNames.map { "'\($0)'" }.joined(separator: ", ")
            let others =
                session.messages.isEmpty
                ? "" : "; only \(Set(session.messages.map(\.kind)).sorted().joined(separator: ", ")) came"
            // The page's own first error is often why: it stopped the script that would have posted.
            let thrown = session.pageDiagnostics.first { $0.kind == .uncaughtError || $0.kind == .unhandledRejection }
            seen =
                clock.missed("nothing arrived on \(handlers)") + others
                + away + (thrown.map { "; the page reported an \($0.kind.rawValue) first: \($0)" } ?? "")
        } else {
            let more = session.rejectedCount > 3 ? " and \(session.rejectedCount - 3) more" : ""
            seen =
                "what arrived instead: " + session.rejections.prefix(3).map(\.description).joined(separator: " | ")
                + more
                + (session.uncloneable.isEmpty ? "" : "; and " + BridgeCheck.uncloneableDetail(session.uncloneable))
        }
        return .fail(BridgeFailure(.nativeDidNotReceive, "no valid \(names); \(seen)"))
    }
}
