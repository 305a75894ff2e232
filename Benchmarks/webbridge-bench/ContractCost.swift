import BridgeContract
import Foundation

/// WebBridge's own per-message work, without the engine: the contract encoder and the validator alone.
///
/// These isolate the part of the throughput figures that is ours, so a change to BridgeContract shows
/// up here directly, free of the engine's and the machine's noise.
enum ContractCost {
    /// Microseconds per `ReceiverCall(contract:message:encoder:)` of the bench's `sync` with a request id: with
    /// the library's writer (`encoder_us_per_call`) or with `JSONSerialization` (`encoder_json_serialization_us_per_call`).
    static func encoderMicroseconds(count: Int, encoder: ReceiverCall.Encoder = .jsonWriter) throws -> Double {
        let contract = BenchPage.contract
        var bytes = 0
        let clock = Stopwatch()
        for index in 0..<count {
            let call = try ReceiverCall(
                contract: contract, message: ["kind": "sync", "value": "v\(index)", "id": "r-\(index)"],
                encoder: encoder)
            bytes &+= call.script.utf8.count
        }
        let seconds = clock.seconds
        guard bytes > 0 else { throw BenchFailure("the encoder produced no script") }
        return seconds / Double(count) * 1e6
    }

    /// Microseconds per `JSONSerialization.data(withJSONObject:options: .sortedKeys)` of the same message, built
    /// directly as Foundation containers: the part of the `JSONSerialization` encoder that is Foundation's,
    /// measured so each run shows what the writer saves.
    static func jsonSerializationMicroseconds(count: Int) throws -> Double {
        var bytes = 0
        let clock = Stopwatch()
        for index in 0..<count {
            let message = NSMutableDictionary(capacity: 3)
            message[NSString(string: "kind")] = NSString(string: "sync")
            message[NSString(string: "value")] = NSString(string: "v\(index)")
            message[NSString(string: "id")] = NSString(string: "r-\(index)")
            bytes &+= try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]).count
        }
        let seconds = clock.seconds
        guard bytes > 0 else { throw BenchFailure("JSONSerialization produced no text") }
        return seconds / Double(count) * 1e6
    }

    /// Microseconds per `validate` of a `ready` body shaped as WebKit hands it over (NSNumber version, String id).
    static func validatorMicroseconds(count: Int) throws -> Double {
        let contract = BenchPage.contract
        var valid = 0
        let clock = Stopwatch()
        for index in 0..<count {
            let body: [String: Any] = ["kind": "ready", "version": NSNumber(value: 1.0), "id": "r-\(index)"]
            if contract.validate(body, direction: .pageToNative, mode: .strict).message != nil { valid += 1 }
        }
        let seconds = clock.seconds
        guard valid == count else { throw BenchFailure("the validator refused \(count - valid) valid ready bodies") }
        return seconds / Double(count) * 1e6
    }
}
