import BridgeContract
import Foundation

/// The page and contract the throughput figures use, identical for WebBridge and the raw engine loop.
enum BenchPage {
    /// The fixture's receiver, plus a burst function that posts one `ready` per request id it was given.
    ///
    /// The ids are set by a separate, untimed script, so the timed script is the same few bytes for both sides.
    static let html = """
        <!doctype html>
        <html lang="en">
        <meta charset="utf-8">
        <body>
        <script>
        window.bridgeReceive = function (message) {
          if (message.kind !== "sync" || typeof message.value !== "string") {
            throw new Error("Invalid native message");
          }
          document.body.dataset.received = message.value;
        };
        window.__benchBurst = function () {
          const handler = window.webkit.messageHandlers.bridge;
          const ids = window.__benchIDs;
          for (let i = 0; i < ids.length; i++) handler.postMessage({kind: "ready", version: 1, id: ids[i]});
          return ids.length;
        };
        </script>
        </body>
        </html>
        """

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
