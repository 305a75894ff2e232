import Foundation

/// The check's one clock: each step of a session may take `timeout` from its start, the whole check at most `bound`.
///
/// Every wait of a session reads its deadline here (the load and the engine's request timer, the page's messages,
/// each receiver call, each in-page observation), so one timeout has one meaning and a missed deadline one text.
struct CheckClock: Sendable {
    /// How long each step may take.
    let timeout: TimeInterval
    private let checkEnd: DispatchTime
    private var stepEnd: DispatchTime

    init(timeout: TimeInterval, bound: TimeInterval? = nil) {
        self.timeout = timeout
        let now = DispatchTime.now()
        checkEnd = bound.map { now + $0 } ?? .distantFuture
        stepEnd = min(now + timeout, checkEnd)
    }

    /// Starts the next step: it ends `timeout` from now, or when the whole check must end.
    mutating func beginStep() {
        stepEnd = min(.now() + timeout, checkEnd)
    }

    /// When the current step's waits end.
    var deadline: DispatchTime { stepEnd }

    /// Seconds left in the current step, never negative.
    var remaining: TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = stepEnd.uptimeNanoseconds
        return end > now ? TimeInterval(end - now) / 1_000_000_000 : 0
    }

    /// The one text for a step the page did not complete in time: what did not happen, and the limit.
    func missed(_ what: String) -> String { Self.missed(what, within: timeout) }

    /// The one "did not happen within N s" text: what did not happen (or all that did), then the limit.
    static func missed(_ what: String, within timeout: TimeInterval) -> String {
        "\(what) within \(BridgeCheck.seconds(timeout))"
    }
}
