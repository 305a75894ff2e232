import BridgeContract
import Foundation

extension SessionJudge {
    /// Whether page → native has failed for good: what decides it only accumulates (a strict refusal, a second copy
    /// of an expected message in one document, the page reporting its own error, an acknowledgement of no request).
    static func pageToNativeDecided(_ record: SessionRecord) -> Bool {
        !problems(record).isEmpty || record.strictness == .strict && record.rejectedCount > 0
    }

    /// What fails page → native whatever else arrives: the page's own error reports (and its uncaught errors, when
    /// the play says they fail), stray acknowledgements, and (strict) duplicates.
    static func problems(_ record: SessionRecord) -> [String] {
        let contract = record.contract
        var problems: [String] = []
        let pageErrors = record.messages.filter {
            contract.message($0.kind, direction: .pageToNative)?.pageError == true
        }
        for error in pageErrors.prefix(3) {
            problems.append("the page reported an error through \(error.structure)")
        }
        if record.play.failOnUncaughtError == true {
            for thrown in record.diagnostics.filter(\.kind.isUnhandled).prefix(3) {
                problems.append("the page had an \(thrown.kind.rawValue): \(thrown)")
            }
        }
        for ack in record.acknowledgements.filter({ $0.correlation != .matched }).prefix(3) {
            problems.append(strayAcknowledgement(ack, contract))
        }
        for name in record.expected where record.strictness == .strict && record.mostCopies(name) > 1 {
            let rule =
                record.severalDocuments
                ? "it arrived \(record.mostCopies(name)) times in one document and must arrive once per document"
                : "it arrived \(record.mostCopies(name)) times and must arrive once per page load"
            problems.append("duplicate '\(name)': \(rule) (a second listener or a repeated init?)")
        }
        return problems
    }

    /// The one wording of an acknowledgement that settles nothing (late, duplicate or unknown): of a request id, or
    /// of a field a correlation rule says must repeat an earlier message's.
    static func strayAcknowledgement(_ ack: Acknowledgement, _ contract: BridgeContract) -> String {
        let field = ack.field ?? contract.requestID?.field ?? "id"
        return "\(ack.kind) answers no request native sent (\(ack.correlation.rawValue) id): its \(field) must be "
            + "the id of the request it acknowledges"
    }

    static func pageToNative(_ record: SessionRecord, loaded: Bool) -> DirectionVerdict {
        let consequences = self.consequences(record)
        let missing = record.expected.filter { name in
            !record.arrived(name) && !consequences.contains { $0.kind == name }
        }
        var problems = self.problems(record)
        let strictRejections = record.strictness == .strict && !record.rejections.isEmpty
        let followed = consequences.isEmpty ? "" : "; " + consequenceText(consequences)
        if missing.isEmpty {
            if problems.isEmpty && !strictRejections {
                if !consequences.isEmpty { return .notRun(consequenceText(consequences)) }
                let seen = record.expected.compactMap { name in record.messages.first { $0.kind == name }?.structure }
                return .pass(seen.isEmpty ? "no page message expected" : seen.joined(separator: " | "))
            }
            if !record.rejections.isEmpty {
                let names = record.expected.map { "'\($0)'" }.joined(separator: ", ")
                problems.append("besides \(names), messages the contract refuses arrived: " + refused(record))
            }
            return .fail(BridgeFailure(.nativeDidNotReceive, problems.joined(separator: "; ") + followed))
        }
        // What did arrive is listed with the extras; the load's failure is the one to fix first.
        if !loaded { return .notRun("the page did not load") }
        let names = missing.map { "'\($0)'" }.joined(separator: ", ")
        if record.ending == .decided, !problems.isEmpty, !strictRejections {
            // What arrived decided the verdict and ended the wait: the missing messages were not waited out.
            return .fail(
                BridgeFailure(
                    .nativeDidNotReceive,
                    problems.joined(separator: "; ") + "; \(names) had not arrived when "
                        + (problems.count > 1 ? "these" : "that") + " decided the verdict" + followed))
        }
        let again =
            record.reloadDocument != nil && missing.allSatisfy { record.arrivedBeforeReload($0) }
        let what =
            names
            + (again ? " in the document loaded again (it came in the first; it must come once per document)" : "")
        let seen: String
        if record.processTerminated && record.rejections.isEmpty {
            seen = BridgeSession.terminatedDetail + " before it arrived"
        } else if record.rejections.isEmpty, !record.uncloneable.isEmpty {
            seen = BridgeCheck.uncloneableDetail(record.uncloneable)
        } else if record.rejections.isEmpty {
            seen = nothingValid(record) + navigationNote(record) + thrownFirst(record)
        } else {
            // A strict refusal ends the wait at once: what is missing had not come yet, and may never have.
            let when = record.ending == .decided ? " had arrived when a refused message decided the verdict" : ""
            seen =
                when + "; what arrived instead: " + refused(record)
                + (record.uncloneable.isEmpty ? "" : "; and " + BridgeCheck.uncloneableDetail(record.uncloneable))
        }
        // Problems that did not end the wait (it ran to its deadline) come first: they fail whatever arrives.
        let first = problems.isEmpty ? "" : problems.joined(separator: "; ") + "; "
        let separated = seen.hasPrefix(" ") || seen.hasPrefix(";") ? seen : "; " + seen
        return .fail(BridgeFailure(.nativeDidNotReceive, first + "no valid \(what)\(separated)" + followed))
    }

    /// The first three refusals, and how many more came.
    private static func refused(_ record: SessionRecord) -> String {
        let more = record.rejectedCount > 3 ? " and \(record.rejectedCount - 3) more" : ""
        return record.rejections.prefix(3).map(\.description).joined(separator: " | ") + more
    }

    /// What arrived while the expected message did not, named by the channel each came on.
    private static func nothingValid(_ record: SessionRecord) -> String {
        guard !record.messages.isEmpty else {
            let handlers = record.contract.handlerNames.map { "'\($0)'" }.joined(separator: ", ")
            return CheckClock.missed("nothing arrived on \(handlers)", within: record.timeout)
        }
        var channels: [String] = []
        for message in record.messages where !channels.contains(message.channel) { channels.append(message.channel) }
        let came = channels.map { channel in
            let kinds = Set(record.messages.filter { $0.channel == channel }.map(\.kind)).sorted()
            return "\(kinds.joined(separator: ", ")) (on '\(channel)')"
        }
        return CheckClock.missed("only \(came.joined(separator: "; ")) arrived", within: record.timeout)
    }

    /// "; the page reported an uncaught error first: …" when the page's own error may be why it did not post.
    private static func thrownFirst(_ record: SessionRecord) -> String {
        let thrown = record.diagnostics.first { $0.kind == .uncaughtError || $0.kind == .unhandledRejection }
        return thrown.map { "; the page reported an \($0.kind.rawValue) first: \($0)" } ?? ""
    }
}
