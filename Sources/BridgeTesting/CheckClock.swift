import Foundation

/// The check's one clock: each step of a session may take `timeout` from its start, the whole check at most `bound`.
///
/// Every wait of a session reads its deadline here (the load and the engine's request timer, the page's messages,
/// each receiver call, each in-page observation), so one timeout has one meaning and a missed deadline one text.
/// Time the session's web process spends paused by the session's own perturbation (``PausedTime``) is not counted:
/// the page could not run then, so a deadline moves later by every such pause.
struct CheckClock: Sendable {
    /// How long each step may take.
    let timeout: TimeInterval
    private let paused: PausedTime?
    private let checkEnd: DispatchTime
    private let pausedAtCheckStart: UInt64
    private var stepEnd: DispatchTime
    private var pausedAtStepStart: UInt64

    init(timeout: TimeInterval, bound: TimeInterval? = nil, paused: PausedTime? = nil) {
        self.timeout = timeout
        self.paused = paused
        let now = DispatchTime.now()
        checkEnd = bound.map { now + $0 } ?? .distantFuture
        stepEnd = now + timeout
        pausedAtCheckStart = paused?.nanoseconds ?? 0
        pausedAtStepStart = pausedAtCheckStart
    }

    /// Starts the next step: it ends `timeout` from now, or when the whole check must end.
    mutating func beginStep() {
        stepEnd = .now() + timeout
        pausedAtStepStart = paused?.nanoseconds ?? 0
    }

    /// When the current step's waits end: `timeout` after the step's start, or the check's end, each moved later by
    /// the time the web process was paused since. A wait that reads it once gets its later pauses from
    /// ``PausedTime/at(_:counting:_:)``.
    var deadline: DispatchTime {
        let pausedNow = paused?.nanoseconds ?? 0
        let step = Self.later(stepEnd, by: pausedNow - pausedAtStepStart)
        let check = Self.later(checkEnd, by: pausedNow - pausedAtCheckStart)
        return min(step, check)
    }

    /// Seconds left in the current step, never negative.
    var remaining: TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return end > now ? TimeInterval(end - now) / 1_000_000_000 : 0
    }

    /// The engine's own timer for a request of this step (it cannot see pauses): what is left, plus every pause the
    /// session's perturbation may still take.
    var requestTimeout: TimeInterval { remaining + (paused?.budget ?? 0) }

    /// The one text for a step the page did not complete in time: what did not happen, and the limit.
    func missed(_ what: String) -> String { Self.missed(what, within: timeout) }

    /// The one "did not happen within N s" text: what did not happen (or all that did), then the limit.
    static func missed(_ what: String, within timeout: TimeInterval) -> String {
        "\(what) within \(BridgeCheck.seconds(timeout))"
    }

    private static func later(_ time: DispatchTime, by nanoseconds: UInt64) -> DispatchTime {
        time == .distantFuture || nanoseconds == 0
            ? time : DispatchTime(uptimeNanoseconds: time.uptimeNanoseconds + nanoseconds)
    }
}

/// The time one session's web process has spent paused (SIGSTOP) by the session's own perturbation: the union of
/// its pauses, which may overlap, a pause under way included. The session's deadlines do not count it.
final class PausedTime: @unchecked Sendable {
    /// Seconds of pauses the perturbation may take in all: the engine's own timers get them on top.
    let budget: TimeInterval
    private let lock = NSLock()
    private var completed: UInt64 = 0
    private var held = 0
    private var heldSince: UInt64 = 0

    init(budget: TimeInterval) { self.budget = budget }

    /// A pause began.
    func began() {
        lock.lock()
        defer { lock.unlock() }
        if held == 0 { heldSince = DispatchTime.now().uptimeNanoseconds }
        held += 1
    }

    /// A pause ended (its process resumed).
    func ended() {
        lock.lock()
        defer { lock.unlock() }
        guard held > 0 else { return }
        held -= 1
        if held == 0 { completed += DispatchTime.now().uptimeNanoseconds - heldSince }
    }

    /// Nanoseconds paused so far.
    var nanoseconds: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return completed + (held > 0 ? DispatchTime.now().uptimeNanoseconds - heldSince : 0)
    }

    /// Runs `body` on the main queue at `deadline`, moved later by every pause counted by `paused` from now on,
    /// unless the returned timer is cancelled first. Cancelling releases the timer and `body` at once: a block
    /// queued with `asyncAfter` stays queued, with all it holds, until its deadline, which a passing session's
    /// waits never reach (measured: about 2 KB a session, kept for the whole timeout).
    static func at(
        _ deadline: DispatchTime, counting paused: PausedTime?, _ body: @escaping @MainActor () -> Void
    ) -> any DispatchSourceTimer {
        let mark = paused?.nanoseconds ?? 0
        let timer = DispatchSource.makeTimerSource(queue: .main)
        // The handler holds the timer until it fires or is cancelled: either ends the source and lets both go.
        timer.setEventHandler {
            let extra = (paused?.nanoseconds ?? 0) - mark
            if extra > 0 {
                let later = DispatchTime(uptimeNanoseconds: deadline.uptimeNanoseconds + extra)
                if later > .now() {
                    timer.schedule(deadline: later)
                    return
                }
            }
            timer.cancel()
            MainActor.assumeIsolated { body() }
        }
        timer.schedule(deadline: deadline)
        timer.resume()
        return timer
    }
}
