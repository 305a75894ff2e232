import BridgeContract
import Foundation

/// Turns a recorded session into its verdicts: the load, page → native, native → page.
///
/// It reads only the record (no engine, no clock), so what a verdict says is what the record shows. Each failing
/// session has one root category: when native's message was refused, threw or never completed, the page messages
/// the play says follow it are its consequences ("'done' not sent: the page did not accept 'sync' first"), listed
/// under that failure, not a second failure of their own.
enum SessionJudge {
    static func report(_ record: SessionRecord) -> SessionReport {
        let load = self.load(record)
        let loaded = load.passed
        let pageToNative = pageToNative(record, loaded: loaded)
        let nativeToPage = nativeToPage(record, loaded: loaded)
        // The check's own server's refusals (a module's typo) go with the first direction that failed.
        let refusals = record.servedRefusals
        return SessionReport(
            load: load, pageToNative: pageToNative.noting(refusals),
            nativeToPage: pageToNative.failure == nil ? nativeToPage.noting(refusals) : nativeToPage,
            timeline: record.timeline,
            extraMessages: extras(record), rejections: Array(record.rejections.prefix(SessionReport.keptRejections)),
            perturbation: record.perturbation, perturbed: record.perturbed)
    }

    // MARK: Cause and effect

    /// The expected page messages the play says follow native's step `index`: those that acknowledge what it sent,
    /// the triggers of the steps the play lists after it, and (for a step after a page message) the messages
    /// `expect` lists after that message. A page that did not take the step's message cannot be expected to send them.
    static func followers(ofStep index: Int, in play: CheckPlay, _ contract: BridgeContract) -> [String] {
        guard play.steps.indices.contains(index) else { return [] }
        let step = play.steps[index]
        let expected = play.expectedMessages
        var follow = Set(play.steps[(index + 1)...].map(\.after))
        if let sent = step.send {
            follow.formUnion(expected.filter { contract.message($0, direction: .pageToNative)?.acknowledges == sent })
        }
        if let place = expected.firstIndex(of: step.after) { follow.formUnion(expected[(place + 1)...]) }
        follow.remove(step.after)
        return expected.filter(follow.contains)
    }

    /// Each expected message that did not arrive because native's message before it failed, with that message.
    static func consequences(_ record: SessionRecord) -> [(kind: String, cause: String)] {
        var found: [(kind: String, cause: String)] = []
        for outcome in record.steps where outcome.failure != nil {
            for kind in followers(ofStep: outcome.index, in: record.play, record.contract)
            where !record.arrived(kind) && !found.contains(where: { $0.kind == kind }) {
                found.append((kind, outcome.sent ?? outcome.name))
            }
        }
        return found
    }

    /// "'a', 'b' not sent: the page did not accept 'sync' first", one clause per failed native message.
    static func consequenceText(_ consequences: [(kind: String, cause: String)]) -> String {
        var causes: [String] = []
        for consequence in consequences where !causes.contains(consequence.cause) { causes.append(consequence.cause) }
        return causes.map { cause in
            let kinds = consequences.filter { $0.cause == cause }.map { "'\($0.kind)'" }.joined(separator: ", ")
            return "\(kinds) not sent: the page did not accept '\(cause)' first"
        }.joined(separator: "; ")
    }

    // MARK: Native → page

    static func nativeToPage(_ record: SessionRecord, loaded: Bool) -> DirectionVerdict {
        if let failure = record.steps.lazy.compactMap(\.failure).first {
            // A document that replaced the loaded one (a reload, a redirect) has no receiver, or took the message
            // away with it: the page's error alone ("TypeError: undefined is not a function") does not say so.
            return .fail(BridgeFailure(failure.category, failure.detail + navigationNote(record)))
        }
        if !record.steps.isEmpty { return .pass(record.steps.map(\.note).joined(separator: " | ")) }
        if !loaded { return .notRun("the page did not load") }
        let play = record.play
        guard play.steps.contains(where: \.acts) else {
            return .notRun("the play sends nothing to the page")
        }
        // A trigger can come after its step stopped waiting (a page that blocks the engine for seconds): then it is
        // on the record, and "did not arrive" would contradict it.
        let waiting = Set(play.steps.compactMap { $0.acts ? $0.after : nil }).sorted()
        let came = waiting.filter { trigger in
            trigger == CheckPlay.didFinish ? record.load.outcome == .finished : record.count(trigger) > 0
        }
        let missing = waiting.filter { !came.contains($0) }
        return .notRun(
            "nothing was sent: "
                + (missing.isEmpty
                    ? "\(came.joined(separator: ", ")) came only after the check stopped waiting for it"
                    : "\(missing.joined(separator: ", ")) did not arrive"))
    }

    /// " (the page navigated away to PLACE)" once a document replaced the loaded one, else "".
    static func navigationNote(_ record: SessionRecord) -> String {
        record.navigatedAwayTo.map { " (the page navigated away to \($0.isEmpty ? "another document" : $0))" } ?? ""
    }

    // MARK: Extras

    /// Structure of what arrived besides the expected messages: refusals, duplicates, dialogs.
    static func extras(_ record: SessionRecord) -> [String] {
        // Grouped: a page that posts the same wrong message 50,000 times is one line with its count.
        // The count first, so a line cut for length keeps it.
        var extra = record.rejectionTally.map { tally in
            (tally.count > 1 ? "rejected × \(tally.count): " : "rejected ") + tally.rejection.description
        }
        let tallied = record.rejectionTally.reduce(0) { $0 + $1.count }
        if record.rejectedCount > tallied {
            extra.append("rejected × \(record.rejectedCount - tallied) more, of other structures")
        }
        for name in record.expected where record.mostCopies(name) > 1 {
            extra.append("duplicate \(name) × \(record.extraCopies(name))")
        }
        for kind in [DialogKind.alert, .confirm, .prompt] {
            let count = record.dialogs.filter { $0 == kind }.count
            if count > 0 {
                extra.append("dialog \(kind.rawValue) × \(count) (answered as WKWebView does without a UI delegate)")
            }
        }
        return extra
    }
}
