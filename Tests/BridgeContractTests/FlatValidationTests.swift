import Foundation
import SeededRandom
import Testing

@testable import BridgeContract

/// The one-pass validation of flat messages is only an optimisation: whatever it accepts, the general validator
/// accepts as the same message, and a caller never sees which path ran.
@Suite("Validation, flat messages")
struct FlatValidationTests {
    /// A body as the engine hands it over (Foundation values: NSNumber for numbers and booleans) or as native code
    /// writes one (Swift values), built half the time to be valid for one of the contract's messages.
    static func body(for contract: BridgeContract, _ random: inout SeededGenerator) -> [String: Any] {
        var body: [String: Any] = [:]
        for (name, value) in FlatReceiverCallTests.message(for: contract, &random) {
            body[name] = random.next(below: 2) == 0 ? foundation(value) : value
        }
        return body
    }

    /// The value as WebKit would deliver it: numbers and booleans as NSNumber, strings as NSString (on Apple's).
    static func foundation(_ value: Any) -> Any {
        switch value {
        case let text as String where type(of: value) == String.self: NSString(string: text)
        case let flag as Bool where type(of: value) == Bool.self: NSNumber(value: flag)
        case let number as Double where type(of: value) == Double.self: NSNumber(value: number)
        case let number as Int where type(of: value) == Int.self: NSNumber(value: number)
        default: value
        }
    }

    static func same(_ lhs: Validation, _ rhs: Validation) -> Bool {
        switch (lhs, rhs) {
        case (.valid(let left), .valid(let right)): left == right
        case (.invalid(let left), .invalid(let right)): left == right
        default: false
        }
    }

    @Test("the flat path accepts only what the general validator accepts, as the same message")
    func flatMatchesGeneral() throws {
        var random = SeededGenerator(seed: 0xF1A7_B0D1)
        var tally = PathTally()
        for (name, contract) in try FlatReceiverCallTests.contracts() {
            let handlers = [contract.handler, "other"] + contract.messages.compactMap(\.handler)
            for _ in 0..<4_000 {
                let body = Self.body(for: contract, &random)
                let direction: Direction = random.next(below: 2) == 0 ? .pageToNative : .nativeToPage
                let mode: ValidationMode = random.next(below: 4) == 0 ? .lenient : .strict
                let handler = handlers[random.next(below: handlers.count)]
                let transport: MessageSpec.Transport = random.next(below: 8) == 0 ? .prompt : .postMessage
                let general = contract.validateInGeneral(
                    body, direction: direction, mode: mode, handler: handler, transport: transport)
                let flat = contract.validFlat(
                    body, direction: direction, mode: mode, handler: handler, transport: transport)
                tally.record(flat: flat != nil, general: general.message != nil)
                if let flat {
                    #expect(Self.same(.valid(flat), general), "\(name): flat \(flat), general \(general)")
                }
                // What a caller sees: the same validation, whichever path ran.
                let seen = contract.validate(
                    body, direction: direction, mode: mode, handler: handler, transport: transport)
                #expect(Self.same(seen, general), "\(name): \(seen) against \(general)")
            }
        }
        tally.expectBothSidesReached("bodies")
    }

    @Test("a flat message is validated by the flat path; a nested one, or any violation, by the general path")
    func whichPathRuns() {
        let contract = FlatReceiverCallTests.requestIDContract
        func flat(_ body: [String: Any], mode: ValidationMode = .strict) -> ValidatedMessage? {
            contract.validFlat(body, direction: .pageToNative, mode: mode, handler: "bridge", transport: .postMessage)
        }
        let ready = flat(["kind": "ready", "version": NSNumber(value: 1), "id": "p-1"])
        #expect(ready?.fields["version"] == .integer(1))
        #expect(ready?.requestID == "p-1")
        #expect(flat(["kind": "ready", "version": NSNumber(value: 2), "id": "p-1"]) == nil)
        #expect(flat(["kind": "ready", "version": NSNumber(value: true), "id": "p-1"]) == nil)
        #expect(flat(["kind": "ready", "version": 1, "id": "p-1", "extra": "x"]) == nil)
        #expect(flat(["kind": "ready", "version": 1, "id": "p-1", "extra": "x"], mode: .lenient) != nil)
        #expect(flat(["kind": "ready", "version": 1, "id": "p-1", "extra": ["x"]], mode: .lenient) == nil)
        #expect(flat(["kind": "ready", "version": 1]) == nil)
        #expect(flat(["kind": "sync", "value": "ok", "id": "p-1"]) == nil)  // the other direction
    }

    @Test("a validated message gives native its kind, request id and fields to echo, and logs their structure")
    func echoedValues() throws {
        let contract = FlatReceiverCallTests.requestIDContract
        let body: [String: Any] = ["kind": "ready", "version": NSNumber(value: 1), "id": "p-1"]
        let flat = try #require(
            contract.validFlat(
                body, direction: .pageToNative, mode: .strict, handler: "bridge", transport: .postMessage))
        let general = try #require(
            contract.validateInGeneral(body, direction: .pageToNative, mode: .strict, handler: "bridge").message)
        for message in [flat, general] {
            #expect(message.jsonValue(of: "kind") == .string("ready"))
            #expect(message.jsonValue(of: "id") == .string("p-1"))
            #expect(message.jsonValue(of: "version") == .number(1))
            #expect(message.jsonValue(of: "missing") == nil)
            #expect(message.description == "ready {id: String, kind: String, version: Number}")
        }
    }
}
