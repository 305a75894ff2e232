import Foundation

/// The handoff between a server's held responses and a timeline that decides when each is released (a stressed
/// session's page clock): the server's connection threads ask, the timeline answers, each on its own side.
///
/// A connection whose response is held calls ``hold(_:milliseconds:within:)`` and waits on a semaphore of its
/// own, never polling: the timeline is told that a hold was asked (`asked`, called on the connection's thread),
/// takes it (``take()``), schedules it at its due time, and lets it go (``release(_:)``) once everything due
/// before it has happened. The wait ends at the latest `within` seconds after the hold is due on the machine's
/// clock (the check's step timeout), so a timeline that is stuck delays a response, never hangs its connection;
/// ``end()`` lets every waiting connection go (a stopped server then sends nothing).
package final class ResponseTimeline: @unchecked Sendable {
    /// One held response, as the timeline schedules it.
    package struct Hold: Sendable {
        package let id: Int
        /// The timeline's time (milliseconds) when it is due: its time when the response was ready, plus the hold.
        package let due: Double
        /// When it is due on the machine's clock: as long after the response was ready as on the timeline.
        package let realDue: DispatchTime
    }

    private let lock = NSLock()
    private let asked: @Sendable () -> Void
    private var now: Double = 0
    private var new: [Hold] = []
    private var waiting: [Int: DispatchSemaphore] = [:]
    private var nextID = 0
    private var ended = false

    /// - Parameter asked: called (on the connection's thread) each time a hold is asked, so the timeline takes it.
    package init(asked: @escaping @Sendable () -> Void) {
        self.asked = asked
    }

    /// The timeline's time moved to `milliseconds`: holds asked from now on are due that long after it.
    package func moved(to milliseconds: Double) {
        lock.withLock { now = max(now, milliseconds) }
    }

    /// The holds asked since the last call, in the order they were asked.
    package func take() -> [Hold] {
        lock.withLock {
            let taken = new
            new = []
            return taken
        }
    }

    /// Lets hold `id`'s connection send its response (nothing when it went already).
    package func release(_ id: Int) {
        lock.withLock { waiting.removeValue(forKey: id) }?.signal()
    }

    /// Lets every waiting connection go, and every hold asked from now on at once; idempotent.
    package func end() {
        let all = lock.withLock {
            ended = true
            new = []
            let all = waiting.values
            waiting = [:]
            return all
        }
        for semaphore in all { semaphore.signal() }
    }

    /// Waits (on the calling connection's thread) until the timeline releases a response held `milliseconds`, the
    /// timeline ends, or `seconds` pass after it is due on the machine's clock; false when that deadline passed.
    @discardableResult
    func hold(milliseconds: Double, within seconds: TimeInterval) -> Bool {
        let realDue = DispatchTime.now() + milliseconds / 1_000
        let semaphore = DispatchSemaphore(value: 0)
        let id: Int? = lock.withLock {
            guard !ended else { return nil }
            let id = nextID
            nextID += 1
            new.append(Hold(id: id, due: now + milliseconds, realDue: realDue))
            waiting[id] = semaphore
            return id
        }
        guard let id else { return true }
        asked()
        if semaphore.wait(timeout: realDue + seconds) == .success { return true }
        // Released meanwhile after all: the timeline's signal is taken, so none is left behind.
        return lock.withLock { waiting.removeValue(forKey: id) == nil }
    }
}
