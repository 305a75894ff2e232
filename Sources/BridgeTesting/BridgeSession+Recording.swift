import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

extension BridgeSession {
    // MARK: Recording

    func record(_ event: TimelineEntry.Event, _ note: String = "") {
        timeline.append(TimelineEntry(event: event, milliseconds: clock.milliseconds, note: note))
    }

    func emitDialog(_ kind: DialogKind) { emit(.dialog(kind)) }

    func emit(_ event: BridgeEvent) {
        onEvent?(event)
        wakeWaiters()
    }

    /// Validates a posted message and records it; returns the validated message, or nil when it was refused.
    @discardableResult
    func receive(_ message: WKScriptMessage) -> ValidatedMessage? {
        messagesSeen += 1
        onScriptMessage?(message)
        if let violation = contract.frameViolation(
            isMainFrame: message.frameInfo.isMainFrame, origin: frameOrigin(message.frameInfo))
        {
            reject(BridgeRejection(structure: messageStructure(message.body), violations: [violation]))
            return nil
        }
        return accept(
            contract.validate(message.body, direction: .pageToNative, mode: mode, handler: message.name),
            body: message.body, channel: message.name)
    }

    /// Validates and records a page message native read from the page (a pulled queue's element) as if it had
    /// been posted to `handler`; it triggers steps as a posted message does.
    func pulled(_ body: Any, handler: String) {
        messagesSeen += 1
        accept(
            contract.validate(body, direction: .pageToNative, mode: mode, handler: handler), body: body,
            channel: handler)
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
        guard let validated = accept(validation, body: object, channel: "prompt") else { return nil }
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

    @discardableResult
    private func accept(_ validation: Validation, body: Any?, channel: String) -> ValidatedMessage? {
        switch validation {
        case .invalid(let violations):
            reject(BridgeRejection(structure: messageStructure(body), violations: violations))
            return nil
        case .valid(let validated):
            let count = counts.incremented(validated.kind)
            let document = max(1, committedDocuments)
            documentCounts[document, default: [:]][validated.kind, default: 0] += 1
            if messages.count < 10_000 {
                messages.append(validated)
                arrivals.append(
                    SessionRecord.Message(
                        kind: validated.kind, structure: validated.description, channel: channel, document: document))
            }
            if contract.message(validated.kind, direction: .pageToNative)?.acknowledges != nil,
                let id = validated.requestID
            {
                let correlation = correlator.settle(rawID: id)
                if correlation != .matched { strayAcknowledgements += 1 }
                // Kept and timed like other messages: a page that floods acknowledgements is counted, not stored.
                if acknowledgements.count < 10_000 {
                    acknowledgements.append(
                        Acknowledgement(
                            kind: validated.kind, requestID: RequestID(rawValue: id), correlation: correlation))
                }
                if count <= 3 { record(.acknowledged, "\(validated.kind): \(correlation)") }
                emit(.acknowledgement(validated, correlation))
            } else if let (correlation, value, rule) = valueCorrelator.settle(validated, in: contract),
                rule.settles || correlation != .matched
            {
                // A message whose field must repeat an earlier message's: judged as an acknowledgement is.
                if correlation != .matched { strayAcknowledgements += 1 }
                if acknowledgements.count < 10_000 {
                    acknowledgements.append(
                        Acknowledgement(
                            kind: validated.kind, requestID: RequestID(rawValue: value), correlation: correlation,
                            field: rule.field))
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
            // What it carries may be what a later message must repeat.
            valueCorrelator.opened(validated.jsonValue, kind: validated.kind, in: contract)
            return validated
        }
    }

    /// Replies to a reply handler's message with `send`: native's answer, or an error naming why there is none.
    /// The answer comes from ``replyProvider`` at once, or from ``answer`` whenever native gives it.
    func reply(to message: WKScriptMessage, _ send: @escaping @MainActor (Any?, String?) -> Void) {
        guard let validated = receive(message) else {
            return send(nil, "the message breaks the bridge contract (see the native log for its structure)")
        }
        let answered: @MainActor (BridgeReply?) -> Void = { answer in
            switch answer {
            case .value(let value)?: send(value.foundationValue, nil)
            case .error(let text)?: send(nil, text)
            case nil: send(nil, "native has no reply for \(validated.kind)")
            }
        }
        if let answer { answer(validated, answered) } else { answered(replyProvider?(validated)) }
    }

    /// WebKit dropped a message of the page's because it could not clone it; native code never got it.
    func dropped(_ message: UncloneableMessage) {
        guard uncloneable.count < 100 else { return }
        uncloneable.append(message)
        // Like duplicate readies: the first few on the timeline, the list keeps the rest.
        if uncloneable.count <= 3 { record(.messageDropped, "\(message.description) cannot be cloned") }
        emit(.dropped(message))
    }

    /// The page reported an error or a console message of its own: on the timeline, in order.
    func reported(_ diagnostic: PageDiagnostic) {
        let ownHidden = diagnostic.isHidden && ownScriptsRunning > 0
        let note = ownHidden ? nil : PageDiagnostics.keep(diagnostic, in: &pageDiagnostics)
        if diagnostic.isHidden { awaitText(kept: note != nil && pageDiagnostics.last == diagnostic) }
        guard let note else { return }
        // The count of errors left off is one entry, updated in place: the timeline says the last count.
        if diagnostic.kind.isUnhandled || diagnostic.kind == .errorsLeftOff,
            note.hasPrefix(PageDiagnostic.Kind.errorsLeftOff.rawValue + ":"),
            let index = timeline.lastIndex(where: {
                $0.event == .pageReported && $0.note.hasPrefix(PageDiagnostic.Kind.errorsLeftOff.rawValue + ":")
            })
        {
            timeline[index] = TimelineEntry(event: .pageReported, milliseconds: clock.milliseconds, note: note)
            return
        }
        record(.pageReported, note)
    }

    func failLoad(_ error: any Error) {
        guard loadResult == nil else { return }
        loadError = error
        finishLoad(.failed(BridgeFailure(.pageLoadDidNotFinish, LoadError.describe(error))))
        emit(.loadFailed(error))
    }

    func finishLoad(_ result: LoadResult) {
        guard loadResult == nil else { return }
        loadResult = result
        switch result {
        case .finished:
            record(.didFinish)
            emit(.didFinish)
        case .failed(let failure):
            record(.loadFailed, failure.detail)
        }
    }
}

/// Answers a reply handler's messages through the session, without the controller retaining it.
@MainActor
final class WeakReplyHandler: NSObject, WKScriptMessageHandlerWithReply {
    weak var session: BridgeSession?

    init(_ session: BridgeSession) { self.session = session }

    nonisolated func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        MainActor.assumeIsolated {
            guard let session else { return replyHandler(nil, "the bridge session has ended") }
            session.reply(to: message) { value, error in
                nonisolated(unsafe) let value = value
                replyHandler(value, error)
            }
        }
    }
}

/// Keeps the controller's strong reference from retaining the session (the controller lives in the view).
@MainActor
final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandler {
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
    mutating func incremented(_ key: Key) -> Int {
        func addOne(_ count: inout Int) -> Int {
            count += 1
            return count
        }
        return addOne(&self[key, default: 0])
    }
}
