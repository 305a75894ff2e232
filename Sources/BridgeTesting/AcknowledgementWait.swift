import BridgeContract
import Foundation

extension BridgeSession {
    /// Waits for the page to acknowledge request `id`; on timeout the request is abandoned, so a later reply is `late`.
    ///
    /// - Returns: nil when the matching acknowledgement came, else "native did not receive the page's message" with
    ///   what came instead (as kinds and correlations, never values).
    public func awaitAcknowledgement(of id: RequestID, timeout: TimeInterval) async -> BridgeFailure? {
        let settled = await wait(timeout: timeout) { [unowned self] in
            acknowledgements.contains { $0.requestID == id && $0.correlation == .matched }
        }
        if settled { return nil }
        correlator.abandon(id)
        let others = acknowledgements.filter { $0.requestID != id || $0.correlation != .matched }
        let seen =
            others.isEmpty
            ? "nothing arrived"
            : "what arrived instead: "
                + others.map { "\($0.kind) (\($0.correlation.rawValue))" }.joined(separator: ", ")
        return BridgeFailure(
            .nativeDidNotReceive,
            "\(CheckClock.missed("no acknowledgement of the current request", within: timeout)); \(seen)")
    }
}
