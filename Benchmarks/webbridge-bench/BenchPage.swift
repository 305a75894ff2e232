import BridgeContract
import BridgeTesting
import Foundation

/// The page and contract the throughput figures use, identical for WebBridge and the raw engine loop.
enum BenchPage {
    /// The bundled fixture with its ready post replaced by a burst function that posts one `ready` per
    /// request id it was given; the fixture's receiver is kept as it is.
    ///
    /// The ids are set by a separate, untimed script, so the timed script is the same few bytes for both sides.
    static let html: String = {
        let readyPost = """
            window.webkit.messageHandlers.bridge.postMessage({
              kind: "ready",
              version: 1
            });
            """
        let burst = """
            window.__benchBurst = function () {
              const handler = window.webkit.messageHandlers.bridge;
              const ids = window.__benchIDs;
              for (let i = 0; i < ids.length; i++) handler.postMessage({kind: "ready", version: 1, id: ids[i]});
              return ids.length;
            };
            """
        guard let fixture = try? BundledFixture.html(), fixture.contains(readyPost) else {
            // The fixture ships in the package; a changed one must change this bench page too.
            preconditionFailure("the bundled fixture's ready post changed: update BenchPage")
        }
        return fixture.replacingOccurrences(of: readyPost, with: burst)
    }()

    /// The timed script of the page → native burst.
    static let burstScript = "window.__benchBurst()"

    /// The untimed script that hands the page its request ids.
    static func idsScript(_ ids: [String]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: ids)
        return "window.__benchIDs = \(String(decoding: data, as: UTF8.self)); window.__benchIDs.length"
    }

    /// The default contract with request ids: `ready` acknowledges `sync`, so both carry an `id`.
    static let contract = BridgeContract(
        version: 1,
        handler: "bridge",
        receiver: "window.bridgeReceive",
        messages: [
            MessageSpec(
                kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))],
                acknowledges: "sync"),
            MessageSpec(kind: "sync", direction: .nativeToPage, fields: ["value": FieldSpec(.string)]),
        ],
        requestID: RequestIDSpec(field: "id")
    )

    /// Request ids as WebBridge issues them (process-unique), one per message of a burst.
    static func requestIDs(_ count: Int) -> [String] {
        var correlator = RequestCorrelator()
        return (0..<count).map { _ in correlator.begin().rawValue }
    }

    /// Counts how a burst arrived against the ids that were sent, in order.
    struct Tally {
        private let index: [String: Int]
        private var seen: [Bool]
        private(set) var received = 0
        private(set) var duplicated = 0
        private(set) var misattributed = 0
        private(set) var outOfOrder = 0
        private var last = -1

        init(ids: [String]) {
            var index: [String: Int] = [:]
            index.reserveCapacity(ids.count)
            for (position, id) in ids.enumerated() { index[id] = position }
            self.index = index
            seen = Array(repeating: false, count: ids.count)
        }

        /// Records one arrival: `id` as the receiver attributed it, `rawID` as the page sent it (nil: not read).
        mutating func record(id: String?, rawID: String?) {
            received += 1
            guard let id, let position = index[id], rawID == nil || rawID == id else {
                misattributed += 1
                return
            }
            if seen[position] { duplicated += 1 } else { seen[position] = true }
            if position < last { outOfOrder += 1 }
            last = position
        }

        var lost: Int { seen.lazy.filter { !$0 }.count }
        var complete: Bool { received - duplicated - misattributed == seen.count && lost == 0 }
    }
}
