import Foundation
import LoopbackServer

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The check's side of a stressed session's page clock (``PageClock``): one virtual timeline for the page's
/// timers and native's holds, so their order is the perturbation's, not the machine's.
///
/// Native's holds (its actions, late replies and completions, the stressed reload) are due on virtual time, after
/// the page's timers due before them, and as long after their trigger on the machine's clock as on the page's. The page's timers run only while native waits for
/// the page, once native has seen every anchor the page has (its load event, each message it posted): none runs
/// between a page event and native's answer to it. While only the page's timers wait, virtual time moves at the
/// machine's pace, so a page's own time-outs keep their meaning against its network.
///
/// The responses the session's loopback server holds are on the timeline too (``responses``): a response due at
/// virtual time T (the timeline's time when it was ready, plus its hold) is released under the page's timers'
/// rule, once native waits and has seen every anchor the page counted (asked of the page just before), after
/// everything due before T, and no sooner than its hold on the machine's clock, so the network keeps its time.
@MainActor
final class PageClockDriver {
    private unowned let session: BridgeSession
    /// Virtual milliseconds since the session started.
    private(set) var now: Double = 0
    /// The page's next timer (virtual time) and the anchors it has counted in its document.
    private var pageNext: Double?
    private var pageAnchors = 0
    /// The page clock's latest report (its document and number), and the documents it reported from before.
    private var latestReport: (document: Double, number: Int)?
    private var replacedDocuments: Set<Double> = []
    /// When the page last told of a new anchor count (a new document restarts it): the grace for an anchor native
    /// never sees runs from then.
    private var anchorToldAt = DispatchTime.now()
    private struct Item {
        let due: Double
        /// When it is due on the machine's clock: as long after it was scheduled as it is on the page's.
        let realDue: DispatchTime
        let order: Int
        /// The held response it releases (nil: one of native's holds).
        var response: Int?
        let fire: @MainActor () -> Void
        /// Whether the item runs when the session ends first (a held action resumes; a late reply is dropped).
        let atEnd: Bool
    }
    private var items: [Item] = []
    private var order = 0
    /// Since when native has been waiting for the page (nil while it works).
    private var waitingSince: DispatchTime?
    /// How many more real milliseconds the page's timers stay where they are (nil or 0: they may run): a document
    /// native is replacing runs none, so how long the engine takes to replace it does not decide what it still does.
    var pageHeld: (@MainActor () -> Double?)?
    private var ended = false
    private var wake: CheckedContinuation<Bool, Never>?
    private var generation = 0
    /// The page's timer the timeline waits for at the machine's pace, and since when.
    private var pacing: (due: Double, since: DispatchTime)?

    /// How long the page's timers wait for a page event that native never sees (a message the engine dropped).
    static let anchorGrace: Double = 1_000

    /// The handoff with the loopback server's connections: the responses it holds wait for the timeline.
    private(set) lazy var responses = ResponseTimeline { [weak self] in
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.takeResponses() } }
    }

    init(session: BridgeSession) {
        self.session = session
    }

    /// Runs the timeline until ``end()``.
    func start() {
        Task { @MainActor [self] in await drive() }
    }

    /// Ends the timeline: a held action resumes, nothing else of native's runs, the page's timers stop.
    func end() {
        ended = true
        let pending = items
        items = []
        for item in pending where item.atEnd { item.fire() }
        responses.end()
        poke()
    }

    /// The page told the time to its next timer (`{next, anchors, report, document}` from its clock).
    func told(_ body: Any) {
        guard let fields = body as? [String: Any], let next = (fields["next"] as? NSNumber)?.doubleValue,
            let anchors = (fields["anchors"] as? NSNumber)?.intValue,
            let number = (fields["report"] as? NSNumber)?.intValue,
            let document = (fields["document"] as? NSNumber)?.doubleValue
        else { return }
        // Only the page's latest word counts: a timer set after an advance ran is told in a note that can arrive
        // before the advance's answer, which must not then say there is none (seen: a retry timer set by native's
        // message never ran, 1 session in 200). A document replaced is not heard again.
        guard !replacedDocuments.contains(document) else { return }
        if let latest = latestReport, latest.document != document {
            replacedDocuments.insert(latest.document)
        } else if let latest = latestReport, number <= latest.number {
            return
        }
        latestReport = (document, number)
        pageNext = next >= 0 ? now + next : nil
        if anchors != pageAnchors { anchorToldAt = .now() }
        pageAnchors = anchors
        poke()
    }

    /// Native waits for the page (`true`) or works (`false`).
    func waiting(_ yes: Bool) {
        if yes {
            if waitingSince == nil { waitingSince = .now() }
            poke()
        } else {
            waitingSince = nil
        }
    }

    /// Runs `fire` `milliseconds` of virtual time from now, after the page's timers due before it.
    func schedule(after milliseconds: Double, atEnd: Bool = false, _ fire: @escaping @MainActor () -> Void) {
        items.append(
            Item(
                due: now + milliseconds, realDue: .now() + milliseconds / 1_000, order: order, fire: fire,
                atEnd: atEnd))
        order += 1
        poke()
    }

    /// Holds native `milliseconds` of virtual time (it waits for the page meanwhile).
    func hold(_ milliseconds: Double) async {
        guard !ended else { return }
        waiting(true)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            schedule(after: milliseconds, atEnd: true) { [self] in
                // Native works from the moment its hold ends, not from when its task next runs: the timeline's
                // next turn must not find it still waiting and run the page's timers before native's action
                // (seen on a busy machine: a timer due 7.9 ms after sync ran before it).
                waiting(false)
                continuation.resume()
            }
        }
    }

    /// Schedules the responses the server asked to hold since the last time.
    private func takeResponses() {
        guard !ended else { return }
        for hold in responses.take() {
            items.append(
                Item(
                    due: hold.due, realDue: hold.realDue, order: order, response: hold.id,
                    fire: { [responses] in responses.release(hold.id) }, atEnd: true))
            order += 1
        }
        poke()
    }

    // MARK: The timeline

    private enum Step {
        case native(Int)
        /// A held response (an item's index), due before anything else that may happen now.
        case response(Int)
        case page(Double)
        /// Nothing can happen before a wake, or before this many real milliseconds have passed.
        case idle(Double?)
    }

    private func drive() async {
        while !ended {
            switch nextStep() {
            case .native(let index):
                // At the machine's pace too, so native slow still gives the page's network its time; a wake
                // meanwhile may bring something due before it.
                let order = items[index].order
                if await waitForWake(orMilliseconds: millisecondsLeft(until: items[index].realDue)) { continue }
                guard let still = items.firstIndex(where: { $0.order == order }) else { continue }
                switch nextStep() {
                case .native(let next) where next != still: continue
                // A held response due before it (its hold on the machine's clock ended later) goes first.
                case .response: continue
                default: break
                }
                let item = items.remove(at: still)
                await advance(to: item.due)
                if !ended { item.fire() }
            case .response(let index):
                // On the machine's clock first, as native's holds; then native must have seen every anchor the page
                // counted by now (its answer comes after every message it posted before it).
                let order = items[index].order
                if await waitForWake(orMilliseconds: millisecondsLeft(until: items[index].realDue)) { continue }
                await countAnchors()
                guard let still = items.firstIndex(where: { $0.order == order }) else { continue }
                guard case .response(let next) = nextStep(), next == still else { continue }
                let item = items.remove(at: still)
                await advance(to: item.due)
                if !ended { item.fire() }
            case .page(let due):
                // At the machine's pace: a page's own time-out must not pass before its network answers. A wake
                // meanwhile (a message, a note) does not start the wait for the same timer again.
                if pacing?.due != due { pacing = (due, .now()) }
                let waited = Double(DispatchTime.now().uptimeNanoseconds - pacing!.since.uptimeNanoseconds) / 1e6
                if await waitForWake(orMilliseconds: due - now - waited) { continue }
                if case .page(let still) = nextStep(), still == due { await advance(to: due) }
            case .idle(let milliseconds):
                _ = await waitForWake(orMilliseconds: milliseconds)
            }
        }
    }

    private func nextStep() -> Step {
        let first = { (responses: Bool) in
            self.items.indices.filter { (self.items[$0].response != nil) == responses }.min {
                (self.items[$0].due, self.items[$0].order) < (self.items[$1].due, self.items[$1].order)
            }
        }
        let native = first(false)
        let response = first(true)
        guard pageNext != nil || response != nil else { return native.map(Step.native) ?? .idle(nil) }
        let eligibility = pageEligible()
        // A held response waits for native at most the anchors' grace past its due time, as the page's timers do.
        let overdue = response.map { Self.milliseconds(since: items[$0].realDue) >= Self.anchorGrace } ?? false
        if eligibility == 0 || overdue {
            // The page's timers first on a tie: native acts, and a response arrives, after what is due at its time.
            var best: (step: Step, due: Double, order: Int)?
            if eligibility == 0, let due = pageNext { best = (.page(due), due, -1) }
            for (index, step) in [(native, Step.native), (response, Step.response)] {
                guard let index, best.map({ (items[index].due, items[index].order) < ($0.due, $0.order) }) ?? true
                else { continue }
                best = (step(index), items[index].due, items[index].order)
            }
            if let best { return best.step }
        }
        if let native { return .native(native) }
        let graceLeft = response.map { Self.anchorGrace - Self.milliseconds(since: items[$0].realDue) }
        switch (eligibility, graceLeft) {
        case (let waits?, let left?): return .idle(min(waits, left))
        case (let waits, let left): return .idle(waits ?? left)
        }
    }

    /// Real milliseconds since `time` (negative before it).
    private static func milliseconds(since time: DispatchTime) -> Double {
        (Double(DispatchTime.now().uptimeNanoseconds) - Double(time.uptimeNanoseconds)) / 1e6
    }

    /// Asks the page how many anchors it counted (without moving its time): the answer comes after every message it
    /// posted before it.
    private func countAnchors() async {
        guard let webView = session.webView, let result = try? await webView.evaluateJavaScript(PageClock.advance(0))
        else { return }
        told(result)
    }

    /// 0 when the page's timers may run now; otherwise how long until they may (nil: not before a wake).
    private func pageEligible() -> Double? {
        guard let since = waitingSince else { return nil }
        if let held = pageHeld?(), held > 0 { return held }
        let seen = session.messagesSeen + session.finishedDocuments - session.seenAtCommit
        if seen >= pageAnchors { return 0 }
        // From the later of the two: a load that took longer than the grace must not spend it before the load
        // event's anchor was even told (seen on a busy machine: the timers ran before native saw didFinish).
        let from = max(since.uptimeNanoseconds, anchorToldAt.uptimeNanoseconds)
        let waited = Double(DispatchTime.now().uptimeNanoseconds - from) / 1e6
        return max(0, Self.anchorGrace - waited)
    }

    /// Moves the page's time to `due`, running its timers due by then.
    private func advance(to due: Double) async {
        // A timer due now runs without moving time; with nothing due by then, only a later time needs the page.
        guard due > now || (pageNext.map { $0 <= due } ?? false), let webView = session.webView else { return }
        let result = try? await webView.evaluateJavaScript(PageClock.advance(max(0, due - now)))
        // After the page's answer: a note of its next timer sent before the advance is read against the old time.
        now = max(now, due)
        responses.moved(to: now)
        if let result {
            told(result)
        } else {
            // No clock in the page (it left, or its process ended): its timers are no longer the timeline's.
            pageNext = nil
        }
    }

    /// Milliseconds of the machine's clock until `due` (0 or less once it has passed).
    private func millisecondsLeft(until due: DispatchTime) -> Double {
        (Double(due.uptimeNanoseconds) - Double(DispatchTime.now().uptimeNanoseconds)) / 1e6
    }

    /// Waits for a wake (true) or `milliseconds` (false); nil: only a wake.
    private func waitForWake(orMilliseconds milliseconds: Double?) async -> Bool {
        if let milliseconds, milliseconds <= 0 { return false }
        generation += 1
        let mine = generation
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            wake = continuation
            guard let milliseconds else { return }
            DispatchQueue.main.asyncAfter(deadline: .now() + milliseconds / 1_000) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self, self.generation == mine, let wake = self.wake else { return }
                    self.wake = nil
                    wake.resume(returning: false)
                }
            }
        }
    }

    private func poke() {
        guard let wake else { return }
        self.wake = nil
        wake.resume(returning: true)
    }
}

/// Passes the page clock's messages to its driver.
@MainActor
final class PageClockHandler: NSObject, WKScriptMessageHandler {
    weak var driver: PageClockDriver?

    init(_ driver: PageClockDriver) { self.driver = driver }

    // Nonisolated for both SDK shapes, like the session's delegate methods.
    nonisolated func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) {
        MainActor.assumeIsolated { driver?.told(message.body) }
    }
}
