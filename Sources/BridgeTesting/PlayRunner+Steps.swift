import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// Native's side of each step: build the message, send it, and see the page take it.
extension PlayRunner {
    // MARK: Native → page

    func perform(_ pending: Pending) async {
        // A step triggered in a document that a stressed reload replaced, or a killed web process took, has nowhere
        // to go.
        if let reload = perturber?.reloadDocument, (pending.document >= reload) != (currentDocument >= reload) {
            return
        }
        if perturber?.lost(pending.document) == true { return }
        clock.beginStep()
        let step = play.steps[pending.index]
        if step.call != nil || step.evaluate != nil || step.evaluateFile != nil {
            await performNative(step, pending)
            return
        }
        guard let name = step.send, let spec = contract.message(name, direction: .nativeToPage) else {
            // A reply step: its answer already went; what is left is to see the page accept it.
            if case .observed(let expression, let equals)? = step.accepted {
                // The reply went before this step could look, so any value the page shows is its answer.
                let failure = await observe(expression, equals: equals, before: nil).map {
                    BridgeFailure($0.category, "the reply to \(step.after): \($0.detail)")
                }
                outcomes.append(
                    SessionRecord.StepOutcome(
                        index: pending.index, sent: nil, name: "reply to \(step.after)", failure: failure,
                        note: "the page shows the reply to \(step.after)"))
            }
            return
        }
        var value = step.value ?? .object([:])
        if let echo = step.echo, let trigger = pending.trigger {
            value = contract.echoing(echo, of: trigger, into: value)
        }
        if let pairs = step.echoInto, let trigger = pending.trigger {
            value = contract.echoing(pairs, of: trigger, into: value, sending: spec)
        }
        // A request the page must acknowledge gets a fresh id; an answer carries its trigger's.
        let isRequest = contract.messages.contains { $0.acknowledges == spec.kind }
        let requestID = isRequest ? session.correlator.begin().rawValue : pending.trigger?.requestID
        let body = contract.outgoing(spec, value: value, requestID: requestID)
        let call: ReceiverCall
        var dispatched: String?
        do {
            guard case .valid = contract.validate(body, as: spec) else {
                throw ContractError(
                    code: .violatesContract, violations: contract.validate(body, as: spec).violations)
            }
            // The library's writer: proven to give JavaScript the same value as JSONSerialization, ten times faster.
            call = try ReceiverCall(function: contract.functionPath(of: spec), argument: body, encoder: .jsonWriter)
            // A step's own dispatch, else the contract's for a message that calls no function of its own.
            if let dispatch = step.dispatch ?? spec.dispatch {
                dispatched = try ReceiverCall.script(dispatching: dispatch.event, on: dispatch.target, data: body)
            }
        } catch {
            outcomes.append(
                SessionRecord.StepOutcome(
                    index: pending.index, sent: name, name: name,
                    failure: BridgeFailure(.pageDidNotAccept, "the native message could not be built: \(error)"),
                    note: ""))
            return
        }
        let fixtureStyle = isFixtureStyle(step)
        if let perturber {
            await perturber.holdNative(name, after: pending.trigger?.kind ?? CheckPlay.didFinish)
            clock.beginStep()
        }
        perturber?.navigateBeforeCall(name) { served.load(into: session, first: false, within: clock) }
        session.record(fixtureStyle ? .syncSent : .sent, fixtureStyle ? call.structure : "\(name): \(call.description)")
        // What it carries may be what the page's later messages must repeat.
        session.valueCorrelator.sent(body, as: spec, in: contract)
        let failure: BridgeFailure?
        if case .observed(let expression, .string(let text))? = step.accepted,
            expression == CheckPlay.fixtureObservationPoint
        {
            failure = await session.deliver(
                script: dispatched ?? call.script, showing: (text, expression), clock: clock)
        } else {
            failure = await run(dispatched ?? call.script, accepted: step.accepted ?? .returns)
        }
        if perturber?.replacedDuringCall(pending.document) == true { return }
        if failure == nil { await perturber?.delivered(name, script: dispatched ?? call.script, until: clock.deadline) }
        await perturber?.holdCompletion()
        let function = (step.dispatch ?? spec.dispatch)?.function ?? contract.functionPath(of: spec)
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
            case .returns: "\(name) accepted (\(function) returned)"
            case .settles: "\(name) accepted (its promise fulfilled)"
            }
        outcomes.append(
            SessionRecord.StepOutcome(index: pending.index, sent: name, name: name, failure: prefixed, note: note))
    }

    /// Runs native's script and sees the page accept it as `accepted` says.
    func run(_ script: String, accepted: Acceptance) async -> BridgeFailure? {
        switch accepted {
        case .observed(let expression, let equals):
            // What the page showed before native acted: only a change from it is the page's answer.
            let before: JSONValue?
            if case .success(let value)? = await read(expression) { before = value } else { before = nil }
            if let refused = await session.deliver(script: script, showing: nil, clock: clock) { return refused }
            return await observe(expression, equals: equals, before: before)
        case .returns:
            return await session.deliver(script: script, showing: nil, clock: clock)
        case .settles:
            return await settle(script)
        }
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
    func observe(_ expression: String, equals expected: JSONValue, before: JSONValue?) async
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
                _ = await waitForPage(until: next, pausing: true) { false }
                if session.webView == nil || DispatchTime.now() >= clock.deadline { return late }
            }
        }
    }

    /// Waits on the session for the page; meanwhile the page clock knows native is idle, so a stressed session's
    /// virtual time may run on to its next timer.
    func waitForPage(
        until deadline: DispatchTime, pausing: Bool = false, _ condition: @escaping @MainActor () -> Bool
    ) async -> Bool {
        perturber?.clock.waiting(true)
        defer { perturber?.clock.waiting(false) }
        return await session.wait(until: deadline, pausing: pausing, condition)
    }

    /// How soon an observation looks again: about a frame, so the page's timers and promise jobs run between.
    private static let lookAgain = DispatchTimeInterval.milliseconds(5)

    /// What `expression` shows now: nil when the step's deadline passed first; a success of nil when it is
    /// undefined or holds what JSON cannot (a function, a node).
    func read(_ expression: String) async -> Result<JSONValue?, any Error>? {
        switch await session.callAsync("return (\(expression));", until: clock.deadline) {
        case nil: return nil
        case .success(let value): return .success(JSONValue(engineValue: value))
        case .failure(let error) where BridgeSession.isUnsupportedResult(error): return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    /// Runs a call and waits for the promise it returns to fulfil; a rejection is the page refusing.
    func settle(_ script: String) async -> BridgeFailure? {
        switch await session.callAsync("await (\(script)); return null;", until: clock.deadline) {
        case nil:
            return BridgeFailure(.pageDidNotAccept, clock.missed("its promise did not settle"))
        case .failure(let error):
            return BridgeFailure(.pageDidNotAccept, "its promise rejected: \(javaScriptErrorText(error))")
        case .success:
            return nil
        }
    }
}
