import BridgeContract
import Foundation
import LoopbackServer

/// Applies one session's ``Perturbation`` as the play runs, and says in words what it changed.
///
/// Every change is recorded on the session's timeline (`perturbed`) when it happens, so a failure's timeline shows
/// where native waited, where the web process was paused, and when the page loaded again. A pause is always
/// released: at its end, or when the session ends first.
@MainActor
final class SessionPerturber {
    let perturbation: Perturbation
    unowned let session: BridgeSession
    private var nextAction = 0
    /// The pauses not yet released, and the processes each holds.
    private var heldPauses: [Int: [Int32]] = [:]
    private var nextPause = 0
    private(set) var applied: [String] = []
    private var ended = false
    /// The stressed reload: whether it is due, the committed document it starts, and how many documents had
    /// finished loading when it began.
    var reloadDue = false
    private(set) var reloadDocument: Int?
    private var finishedAtReload = 0
    /// Whether the reloaded document finished and its didFinish steps were queued.
    var secondDocumentStarted = false
    /// When the reload fell due, and when native issued it (nil: not yet).
    private var reloadDueAt: DispatchTime?
    private var reloadIssuedAt: DispatchTime?
    /// The first message the play expects: the first document must say it before it is replaced.
    private let firstExpected: String?
    /// The time the web process has been paused so far, which the session's deadlines do not count.
    let pausedTime: PausedTime
    /// One virtual timeline for the page's timers and native's holds (the page's clock is installed by
    /// ``Perturbation/userScripts``).
    let clock: PageClockDriver

    /// The app's user scripts (the bridge's script), which a life-cycle fault may run again.
    let appScripts: [UserScriptSpec]
    /// The life-cycle fault's state: whether the page's first message came, and the document a killed web process
    /// took with it.
    var sawFirstMessage = false
    var killedDocument: Int?
    var deliveredTwice = false
    var navigatedDuringCall = false
    /// The faults the timed reload stays off with: those that load the page again themselves (one second document a
    /// session), and a handler gone mid-session (a document replaced while it is gone could not have answered).
    static let reloading: Set<LifecycleFault.Kind?> = [.processKilled, .evaluateInNavigation, .handlerReAdded]

    init(
        _ perturbation: Perturbation, session: BridgeSession, appScripts: [UserScriptSpec] = [],
        firstExpected: String? = nil
    ) {
        self.appScripts = appScripts
        self.firstExpected = firstExpected
        self.perturbation = perturbation
        self.session = session
        let budget = perturbation.pauses.map(\.milliseconds).reduce(perturbation.pauseAtFinish ?? 0, +)
        pausedTime = PausedTime(budget: budget / 1000)
        session.pausedTime = pausedTime
        clock = PageClockDriver(session: session)
        session.controller.add(PageClockHandler(clock), contentWorld: .page, name: PageClock.handlerName)
        clock.pageHeld = { [unowned self] in
            // From when the reload is due and ready (native issues it between two steps, which may be a while on a
            // busy machine: seen, the page's timer 1 ms after the reload's due time ran before native issued it)
            // until the new document commits, at most the anchors' grace (a reload that never commits leaves the
            // first document running).
            guard let since = reloadIssuedAt ?? (reloadReady ? reloadDueAt : nil), !reloaded else { return nil }
            let waited = Double(DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1e6
            return PageClockDriver.anchorGrace - waited
        }
        clock.start()
        prepareFault()
    }

    /// Records a change in words, on the timeline and in the report.
    func note(_ text: String) {
        applied.append(text)
        session.record(.perturbed, text)
    }

    /// Waits until native's next action is due: its seeded delay after `trigger`, on the page's clock.
    func holdNative(_ action: String, after trigger: String) async {
        let index = nextAction
        nextAction += 1
        let delay = index < perturbation.nativeDelays.count ? perturbation.nativeDelays[index] : 0
        note("\(action) held \(Perturbation.ms(delay)) after \(trigger)")
        await clock.hold(delay)
    }

    /// How many milliseconds native's reply to `kind` is held before the page gets it (the reply handler's
    /// completion, late).
    func replyDelay(_ kind: String) -> Double {
        let index = nextAction
        nextAction += 1
        let delay = index < perturbation.nativeDelays.count ? perturbation.nativeDelays[index] : 0
        note("reply to \(kind) held \(Perturbation.ms(delay))")
        return delay
    }

    /// Holds each of native's replies its seeded delay before the page gets it (a late completion handler).
    func holdReplies(of session: BridgeSession) {
        session.answer = { [unowned self, unowned session] message, send in
            let reply = session.replyProvider?(message)
            let delay = reply == nil ? 0 : replyDelay(message.kind)
            guard delay > 0 else { return send(reply) }
            clock.schedule(after: delay) { send(reply) }
        }
    }

    /// Native learns late that its call completed.
    func holdCompletion() async {
        guard perturbation.completionDelay > 0 else { return }
        await clock.hold(perturbation.completionDelay)
    }

    /// Schedules the seeded pauses of the web process, counted from now (the load's start).
    func loadStarted() {
        if let late = perturbation.timerDelay { note("the page's timers fire \(Perturbation.ms(late)) late") }
        let start = DispatchTime.now()
        for pause in perturbation.pauses {
            DispatchQueue.main.asyncAfter(deadline: start + pause.at / 1000) { [weak self] in
                MainActor.assumeIsolated { self?.pause(pause.milliseconds, "at \(Perturbation.ms(pause.at))") }
            }
        }
    }

    /// didFinish reached native: the web process may be paused right now, before native acts on it.
    func didFinish() {
        if let length = perturbation.pauseAtFinish { pause(length, "at didFinish") }
    }

    private func pause(_ milliseconds: Double, _ when: String) {
        guard !ended, let held = WebProcessStarvation.hold(session.webView) else { return }
        let id = nextPause
        nextPause += 1
        heldPauses[id] = held
        pausedTime.began()
        note("web process paused \(Perturbation.ms(milliseconds)) \(when)")
        DispatchQueue.main.asyncAfter(deadline: .now() + milliseconds / 1000) { [weak self] in
            MainActor.assumeIsolated { self?.resume(id) }
        }
    }

    private func resume(_ id: Int) {
        guard let held = heldPauses.removeValue(forKey: id) else { return }
        WebProcessStarvation.release(held)
        pausedTime.ended()
    }

    /// Ends the session's perturbation: every pause still held is released, the served responses are described.
    func end(served: [LoopbackServer.Served]) {
        ended = true
        clock.end()
        session.controller.removeScriptMessageHandler(forName: PageClock.handlerName, contentWorld: .page)
        for id in heldPauses.keys { resume(id) }
        let held = served.filter { $0.heldMilliseconds > 0 }
        if !held.isEmpty {
            applied.append(
                "responses held: "
                    + held.prefix(8).map { "\($0.path) \(Perturbation.ms($0.heldMilliseconds))" }.joined(
                        separator: ", "))
        }
    }

    /// A perturbed session may pause its web process: the engine must see which one its view starts.
    static func prepare(_ configuration: CheckConfiguration) {
        if configuration.perturbation != nil { WebProcessStarvation.prepare() }
    }

    // MARK: The stressed reload

    /// Schedules the reload the perturbation asks for, counted from didFinish.
    func scheduleReload() {
        // A killed web process brings its own reload: one second document per session.
        guard let after = perturbation.reloadAfter, !Self.reloading.contains(perturbation.fault?.kind) else { return }
        clock.schedule(after: after) { [weak self] in
            self?.reloadDue = true
            self?.reloadDueAt = .now()
            self?.session.notify()
        }
    }

    /// Whether to reload now: it is due, and the first document said the play's first expected message. A document
    /// replaced before it could say ready proves nothing about the page.
    var reloadReady: Bool {
        let said = firstExpected.map { session.documentCounts[1]?[$0, default: 0] ?? 0 > 0 } ?? true
        return reloadDue && reloadDocument == nil && said
    }

    /// Loads the page again between two steps (`load` issues it), so no native call is cut in half: a second
    /// document, whose first message must come again (once) and whose didFinish steps run again.
    func reload(_ load: () -> Void) {
        reloadDocument = session.committedDocuments + 1
        reloadIssuedAt = .now()
        finishedAtReload = session.finishedDocuments
        // A first document that never finished (its web process killed while it loaded): the load's own didFinish,
        // the second document's, queues its didFinish steps once.
        if finishedAtReload == 0 { secondDocumentStarted = true }
        note(
            killedDocument != nil
                ? "native loaded the page again after its web process ended"
                : navigatedDuringCall
                    ? "the page loaded again as native issued its first call"
                    : "the page loaded again \(Perturbation.ms(perturbation.reloadAfter ?? 0)) after didFinish")
        session.loadAgain(load)
    }

    /// Whether the reloaded document has finished loading and its steps are still to queue.
    var secondDocumentFinished: Bool {
        reloadDocument != nil && !secondDocumentStarted && session.finishedDocuments > finishedAtReload
    }

    /// Whether the reload is still to happen or its document still to finish loading.
    var reloadPending: Bool {
        let timed = perturbation.reloadAfter != nil && !Self.reloading.contains(perturbation.fault?.kind)
        return (timed || killedDocument != nil || navigatedDuringCall)
            && (reloadDocument == nil || !secondDocumentStarted)
    }

    /// Whether the reload has replaced the first document.
    var reloaded: Bool { reloadDocument.map { session.committedDocuments >= $0 } ?? false }
}
