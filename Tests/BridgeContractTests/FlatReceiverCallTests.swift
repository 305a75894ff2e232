import Foundation
import SeededRandom
import Testing

@testable import BridgeContract

/// The one-pass path for flat messages is only an optimisation: whatever it accepts, the general path accepts
/// with the same script, and a caller never sees which path ran.
@Suite("Native to page script, flat messages")
struct FlatReceiverCallTests {
    /// Request ids on both messages, as a contract with acknowledgements has them.
    static let requestIDContract = BridgeContract(
        version: 1, handler: "bridge", receiver: "window.bridgeReceive",
        messages: [
            MessageSpec(
                kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))],
                acknowledges: "sync"),
            MessageSpec(
                kind: "sync", direction: .nativeToPage,
                fields: [
                    "value": FieldSpec(.string), "count": FieldSpec(.integer, optional: true),
                    "ratio": FieldSpec(.number, optional: true), "flag": FieldSpec(.boolean, optional: true),
                    "mode": FieldSpec(.constant(.string("fast")), optional: true),
                    "level": FieldSpec(.constant(.number(2)), optional: true),
                    "tags": FieldSpec(.array(.string), optional: true),
                ]),
            MessageSpec(kind: "reset", direction: .nativeToPage, fields: [:]),
        ],
        requestID: RequestIDSpec(field: "id"))

    /// Every contract the generator writes messages for.
    static func contracts() throws -> [(name: String, contract: BridgeContract)] {
        try [("default", .default), ("request ids", requestIDContract)]
            + LanguageContracts.all.map { ("\($0)", try $0.contract()) }
    }

    /// A value of any kind a caller might put in a message, the awkward ones included.
    static func value(_ random: inout SeededGenerator) -> any Sendable {
        let strings = ["", "ok", "fast", "v1", "é\u{2028}x", "a\"b\\c", "</script>", "\u{0}", "𝄞", "\u{FEFF}"]
        switch random.next(below: 16) {
        case 0, 1, 2: return strings[random.next(below: strings.count)]
        case 3: return random.next(below: 2) == 0
        case 4: return Int(bitPattern: UInt(random.next())) >> random.next(below: 64)
        case 5: return [0, 1, 2, -1, 9_007_199_254_740_991, 9_007_199_254_740_992][random.next(below: 6)]
        case 6: return [0.5, -0.0, 2.0, 1e300, 5e-324, Double.nan, Double.infinity][random.next(below: 7)]
        case 7: return Double(bitPattern: random.next())
        case 8: return NSNumber(value: random.next(below: 2) == 0)
        case 9: return NSNumber(value: random.next(below: 3))
        case 10: return NSNumber(value: 2.5)
        case 11: return NSNull()
        case 12: return ["a", "b"]
        case 13: return ["nested": "x"]
        case 14: return Int32(2)
        default: return Date(timeIntervalSince1970: 0)
        }
    }

    /// A message for `contract`: half of them built to be valid for one of its native → page messages, then
    /// changed or not; the rest made of its names and anything else.
    static func message(for contract: BridgeContract, _ random: inout SeededGenerator) -> [String: any Sendable] {
        let names = Set(contract.messages.flatMap(\.fields.keys)).sorted() + ["id", "extra", "", "__proto__", "é"]
        var message: [String: any Sendable] = [:]
        let specs = contract.messages.filter { $0.direction == .nativeToPage && $0.isObject }
        if !specs.isEmpty, random.next(below: 2) == 0 {
            let spec = specs[random.next(below: specs.count)]
            for (name, constant) in contract.matchValues(of: spec) {
                message[name] = ReceiverCallTests.sendable(FieldType.constant(constant).sample)
            }
            for (name, field) in spec.fields.sorted(by: { $0.key < $1.key })
            where !field.optional || random.next(below: 2) == 0 {
                message[name] =
                    random.next(below: 6) == 0 ? value(&random) : ReceiverCallTests.sendable(field.type.sample)
            }
            if let field = contract.requestID?.field, contract.carriesRequestID(spec) {
                message[field] = random.next(below: 8) == 0 ? "" : "p-\(random.next(below: 99))"
            }
            if random.next(below: 4) == 0 { message[names[random.next(below: names.count)]] = value(&random) }
            if random.next(below: 8) == 0, let name = message.keys.sorted().first { message[name] = nil }
            return message
        }
        let kinds = contract.messages.map(\.kind) + ["unknown"]
        if let discriminator = contract.discriminator.first, random.next(below: 10) > 0 {
            message[discriminator] = kinds[random.next(below: kinds.count)]
        }
        for _ in 0..<random.next(below: 5) {
            let name = names[random.next(below: names.count)]
            message[name] = random.next(below: 3) == 0 ? value(&random) : "v\(random.next(below: 9))"
        }
        if random.next(below: 2) == 0, let field = contract.requestID?.field {
            message[field] = random.next(below: 8) == 0 ? "" : "p-\(random.next(below: 99))"
        }
        return message
    }

    @Test("the flat path accepts only what the general path accepts, with the same script and body")
    func flatMatchesGeneral() throws {
        var random = SeededGenerator(seed: 0x5EED_F1A7)
        var tally = PathTally()
        for (name, contract) in try Self.contracts() {
            for _ in 0..<6_000 {
                let message = Self.message(for: contract, &random)
                let general = Result { () throws(ReceiverCallError) in
                    try ReceiverCall(general: message, contract: contract, encoder: .jsonWriter)
                }
                let flat = ReceiverCall(flat: message, contract: contract)
                tally.record(flat: flat != nil, general: (try? general.get()) != nil)
                if let flat {
                    let expected = try #require(
                        try? general.get(), "\(name): the flat path sent what the general path refuses: \(flat)")
                    #expect(flat.script == expected.script, "\(name): \(flat)")
                    #expect(flat == expected, "\(name): \(flat)")
                    #expect(flat.structure == expected.structure)
                }
                // What a caller sees: the same call, or the same refusal, whichever path ran.
                let public_ = Result { () throws(ReceiverCallError) in
                    try ReceiverCall(contract: contract, message: message, encoder: .jsonWriter)
                }
                switch (public_, general) {
                case (.success(let call), .success(let expected)): #expect(call == expected)
                case (.failure(let error), .failure(let expected)): #expect(error == expected)
                default:
                    Issue.record("\(name): the public init and the general path disagree on \(message.keys.sorted())")
                }
            }
        }
        tally.expectBothSidesReached("messages")
    }

    @Test("a flat message is sent by the flat path; a nested one, or any violation, by the general path")
    func whichPathRuns() throws {
        let contract = Self.requestIDContract
        #expect(ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1"], contract: contract) != nil)
        #expect(
            ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1", "count": 3], contract: contract) != nil)
        #expect(
            ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1", "tags": ["a"]], contract: contract) == nil)
        #expect(ReceiverCall(flat: ["kind": "sync", "value": "ok"], contract: contract) == nil)  // no id
        #expect(ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": ""], contract: contract) == nil)
        #expect(ReceiverCall(flat: ["kind": "sync", "value": 1, "id": "p-1"], contract: contract) == nil)
        #expect(ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1", "x": 1], contract: contract) == nil)
        #expect(
            ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1", "count": 1.5], contract: contract) == nil)
        #expect(ReceiverCall(flat: ["kind": "reset"], contract: contract) != nil)
        #expect(ReceiverCall(flat: ["kind": "ready", "version": 1, "id": "p-1"], contract: contract) == nil)
        let call = try #require(ReceiverCall(flat: ["kind": "sync", "value": "ok", "id": "p-1"], contract: contract))
        #expect(call.script == #"window.bridgeReceive({"id":"p-1","kind":"sync","value":"ok"})"#)
        #expect(call.structure == "{id: String, kind: String, value: String}")
    }
}

/// How often each path accepted, over a differential test's generated inputs.
struct PathTally {
    private(set) var total = 0
    private(set) var flatAccepted = 0
    private(set) var generalAccepted = 0

    mutating func record(flat: Bool, general: Bool) {
        total += 1
        if flat { flatAccepted += 1 }
        if general { generalAccepted += 1 }
    }

    /// The generator must reach both sides of the question, or the test proves nothing.
    func expectBothSidesReached(_ inputs: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            flatAccepted > total / 20, "the flat path accepted only \(flatAccepted) of \(total)",
            sourceLocation: sourceLocation)
        #expect(
            generalAccepted < total / 2, "only \(total - generalAccepted) of \(total) \(inputs) were refused",
            sourceLocation: sourceLocation)
    }
}
