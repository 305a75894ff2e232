import BridgeContract
import Foundation
import LoopbackServer

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// Plays native's side of one session (triggers, sends, replies), records what happened, and hands the record to
/// the judge.
///
/// Steps run one at a time, in the order their triggers happened; each wait is for an event, bounded by the one
/// clock's step deadline, and ends as soon as nothing more is expected or the judge can decide the verdict. Every
/// stress hook (reloads, served pages, starvation, delays) is the perturber's.
@MainActor
final class PlayRunner {
    let configuration: CheckConfiguration
    let play: CheckPlay
    let session: BridgeSession
    var contract: BridgeContract { configuration.contract }

    /// A step to run, with the page message that triggered it, and in which document.
    struct Pending {
        let index: Int
        let trigger: ValidatedMessage?
        var document = 1
    }

    var queue: [Pending] = []
    /// Whether the load passed, once it is over: judged once, not at every event the wait sees.
    var loaded: Bool?
    /// Native's steps that ran, with their outcomes.
    var outcomes: [SessionRecord.StepOutcome] = []
    var clock: CheckClock
    /// The session's perturbation at work (a stressed or replayed session).
    let perturber: SessionPerturber?
    /// The page as this session loads it, and the loopback server that serves it when one does.
    var served: ServedPage
    /// How the last wait ended.
    var ending: SessionRecord.Ending = .settled

    init(configuration: CheckConfiguration, play: CheckPlay, session: BridgeSession) {
        self.configuration = configuration
        self.play = play
        self.session = session
        perturber = configuration.perturbation.map {
            SessionPerturber(
                $0, session: session, appScripts: play.userScripts, firstExpected: play.expectedMessages.first)
        }
        served = ServedPage(page: configuration.page)
        clock = CheckClock(timeout: configuration.timeout, bound: configuration.bound, paused: perturber?.pausedTime)
    }

    func run() async -> SessionReport {
        defer {
            endPerturbation()
            session.tearDown()
        }
        wire()
        clock.beginStep()
        do {
            try served.serve(configuration, within: clock, timeline: perturber?.clock.responses)
        } catch {
            let failure = BridgeFailure(.pageLoadDidNotFinish, "\(error)")
            return SessionReport(
                load: .fail(failure), pageToNative: .notRun("the page did not load"),
                nativeToPage: .notRun("the page did not load"), timeline: session.timeline, extraMessages: [])
        }
        served.load(into: session, first: true, within: clock)
        perturber?.loadStarted()
        await playUntilDecided()
        endPerturbation()
        // WebKit tells nothing of a redirect it answers by ending the web process: the server says what it was.
        let redirect = await RedirectProbe.endingTheLoad(of: session, configuration.page, within: clock)
        return SessionJudge.report(record(redirect: redirect))
    }

    /// Runs the steps as their triggers come, until nothing more is expected, the verdict is decided, or a step's
    /// deadline passes with nothing new.
    private func playUntilDecided() async {
        var drained = false
        while true {
            if loaded == nil, session.loadResult != nil {
                // Native sends on didFinish only to a page that loaded: an HTTP 404 also "finishes".
                loaded = SessionJudge.load(loadRecord()).passed
                if loaded == true {
                    queueDidFinishSteps(document: currentDocument)
                    perturber?.scheduleReload()
                }
            }
            if let perturber, perturber.secondDocumentFinished {
                perturber.secondDocumentStarted = true
                queueDidFinishSteps(document: currentDocument)
            }
            if !queue.isEmpty {
                await perform(queue.removeFirst())
                continue
            }
            if reloadReady {
                perturber?.reload { served.load(into: session, first: false, within: clock) }
                continue
            }
            if let finished {
                // A pass is known only once what the page already posted has arrived: an evaluation's answer comes
                // on the same ordered channel as the page's messages, after every message posted before it. So a
                // second copy posted with the last expected message is judged, not left behind the verdict.
                if finished == .settled, loaded == true, !drained {
                    drained = true
                    _ = await session.evaluate("0", until: clock.deadline)
                    continue
                }
                ending = finished
                return
            }
            // Anything new (a message, the load, a dead process) wakes the wait; nothing new within a step ends it.
            let progressed = await waitForPage(until: clock.deadline) { [unowned self] in
                !queue.isEmpty || finished != nil || (loaded == nil && session.loadResult != nil)
                    || session.webContentProcessTerminated || reloadReady
                    || perturber?.secondDocumentFinished == true
            }
            if !progressed {
                ending = .deadline
                return
            }
            if session.webContentProcessTerminated && queue.isEmpty {
                ending = .processEnded
                return
            }
            clock.beginStep()
        }
    }

    private func queueDidFinishSteps(document: Int) {
        for (index, step) in play.steps.enumerated() where step.after == CheckPlay.didFinish {
            queue.append(Pending(index: index, trigger: nil, document: document))
        }
    }

    /// Whether the reload is due and the first document said its first expected message.
    private var reloadReady: Bool { perturber?.reloadReady ?? false }

    /// How the play ends now, if it has nothing left to do: every step ran and the load is over, and every expected
    /// message came (settled), or the verdict is decided whatever comes later (decided): page → native failed for
    /// good, the first document was reloaded away without one, or every message still missing follows a native
    /// message the page did not take.
    private var finished: SessionRecord.Ending? {
        guard let loaded, queue.isEmpty else { return nil }
        if !loaded { return .settled }
        if pageToNativeFailed || firstDocumentMissedForGood { return .decided }
        if perturber?.reloadPending == true { return nil }
        let missing = play.expectedMessages.filter { !arrived($0) }
        if missing.isEmpty { return .settled }
        guard outcomes.contains(where: { $0.failure != nil }) else { return nil }
        let consequences = Set(SessionJudge.consequences(record(redirect: nil, timeline: false)).map(\.kind))
        return missing.allSatisfy(consequences.contains) ? .decided : nil
    }

    /// Whether page → native has failed for good: what decides it only accumulates (a strict rejection, a second
    /// copy of an expected message in one document, the page reporting its own error, a stray acknowledgement).
    /// Asked at every event the wait sees: counts only, no walk over the messages kept.
    private var pageToNativeFailed: Bool {
        if configuration.strictness == .strict {
            if session.rejectedCount > 0 { return true }
            if play.expectedMessages.contains(where: { mostCopies($0) > 1 }) { return true }
        }
        if session.strayAcknowledgements > 0 { return true }
        if play.failOnUncaughtError == true, session.pageDiagnostics.contains(where: \.kind.isUnhandled) { return true }
        return contract.messages.contains {
            $0.direction == .pageToNative && $0.pageError && session.counts[$0.kind, default: 0] > 0
        }
    }

    /// Whether the reloaded-away first document went without an expected message: it can no longer send it.
    private var firstDocumentMissedForGood: Bool {
        guard let perturber, perturber.reloaded, let reload = perturber.reloadDocument else { return false }
        return play.expectedMessages.contains { kind in
            !session.documentCounts.contains { $0.key < reload && $0.value[kind, default: 0] > 0 }
        }
    }

    /// Whether `kind` arrived in every document the check loaded.
    private func arrived(_ kind: String) -> Bool {
        let reload = perturber?.reloadDocument
        let before = session.documentCounts.contains { $0.key < (reload ?? .max) && $0.value[kind, default: 0] > 0 }
        guard let reload else { return before }
        return before && session.documentCounts.contains { $0.key >= reload && $0.value[kind, default: 0] > 0 }
    }

    /// The most copies of `kind` one document sent.
    func mostCopies(_ kind: String) -> Int {
        session.documentCounts.values.map { $0[kind, default: 0] }.max() ?? 0
    }

    /// The document a page message now arriving belongs to.
    var currentDocument: Int { max(1, session.committedDocuments) }

    /// Queues the steps a page message triggers, and answers the ones that expect a reply.
    private func wire() {
        let previous = session.onEvent
        session.onEvent = { [unowned self] event in
            previous?(event)
            switch event {
            case .didFinish:
                perturber?.didFinish()
            case .message(let message), .acknowledgement(let message, _):
                // An expected message counts once a document: another copy is a failure (strict) or listed
                // (lenient), never a trigger, so a page that repeats it cannot make native repeat itself.
                let document = currentDocument
                let count = session.documentCounts[document]?[message.kind] ?? 0
                if count > 1, play.expectedMessages.contains(message.kind) {
                    if count == 2 { session.record(.messageRejected, "duplicate \(message.description)") }
                    return
                }
                for (index, step) in play.steps.enumerated() where step.after == message.kind && step.acts {
                    queue.append(Pending(index: index, trigger: message, document: document))
                }
            default: break
            }
        }
        let steps = play.steps
        session.replyProvider = { [unowned self] message in
            guard
                let index = steps.firstIndex(where: {
                    $0.after == message.kind && ($0.reply != nil || $0.replyError != nil)
                })
            else { return nil }
            let step = steps[index]
            session.record(.replied, "\(message.kind)")
            if step.send == nil, step.accepted != nil {
                queue.append(Pending(index: index, trigger: message, document: currentDocument))
            }
            return step.reply.map(BridgeReply.value) ?? .error(step.replyError ?? "")
        }
        perturber?.holdReplies(of: session)
    }

    func endPerturbation() {
        let log = served.stop()
        perturber?.end(served: log)
    }

    // MARK: The record

    /// The load as far as the session saw it.
    private func loadRecord() -> SessionRecord {
        var record = SessionRecord(contract: contract, play: play)
        record.timeout = configuration.timeout
        if case .url(let url) = configuration.page { record.url = url }
        record.load = SessionRecord.Load(session)
        record.processTerminated = session.webContentProcessTerminated
        return record
    }

    /// What happened in the session, for the judge.
    func record(redirect: RedirectProbe.Redirect?, timeline: Bool = true) -> SessionRecord {
        var record = loadRecord()
        record.strictness = configuration.strictness
        record.load.redirect = redirect
        record.messages = session.arrivals
        record.documentCounts = session.documentCounts
        record.reloadDocument = perturber?.reloadDocument
        record.rejections = session.rejections
        record.rejectedCount = session.rejectedCount
        record.rejectionTally = session.rejectionTally.map {
            SessionRecord.Tally(rejection: $0.rejection, count: $0.count)
        }
        record.uncloneable = session.uncloneable
        record.acknowledgements = session.acknowledgements
        record.diagnostics = session.pageDiagnostics
        record.dialogs = session.dialogs
        record.navigatedAwayTo = session.navigatedAwayTo
        record.steps = outcomes
        record.ending = ending
        if timeline { record.timeline = session.timeline }
        record.perturbation = perturber?.perturbation
        record.perturbed = perturber?.applied
        record.servedRefusals = served.refusals
        return record
    }
}
