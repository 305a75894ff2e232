import BridgeContract
import Foundation
import Testing

/// A secret the page might send; it must never appear in anything meant for a log or an error.
private let secret = "S3NT1N3L-secret-7f3a"

/// Bodies with the secret in every field value (and as the kind), valid and invalid, flat and nested.
private let secretBodies: [BodyCase] = [
    BodyCase("secret as an extra field and nested garbage") {
        [
            "kind": "ready", "version": JS.number(1), "token": secret, "nested": ["a": [secret, ["b": secret]]],
            "list": [secret, JS.number(1), JS.boolean(true)],
        ]
    },
    BodyCase("secret as the version") { ["kind": "ready", "version": secret] },
    BodyCase("secret as the kind") { ["kind": secret, "version": secret] },
    BodyCase("secret as the body") { secret },
    BodyCase("secret in an array body") { [secret, [secret]] },
    BodyCase("secret nested in the version") { ["kind": "ready", "version": ["v": secret], "x": [[secret]]] },
    BodyCase("secret in a valid message") { ["kind": "sync", "value": secret] },
    BodyCase("secret in every typed field") {
        [
            "kind": "report", "count": secret, "ratio": secret, "flag": secret, "mode": secret,
            "items": [["name": secret], secret], "meta": ["depth": secret, "x": secret], "extra": secret,
        ]
    },
    BodyCase("secret in a valid typed message") {
        ["kind": "report", "count": JS.number(1), "mode": "fast", "items": [["name": secret]], "id": secret]
    },
    BodyCase("secret as the request id") { ["kind": "loaded", "id": secret] },
]

@Suite("Redaction")
struct RedactionTests {
    /// Everything the library can say about a body: structures, validations, violations, scripts, errors.
    private func everythingSaidAbout(_ body: Any?) -> [String] {
        var said = [messageStructure(body)]
        for contract in [BridgeContract.default, typedContract] {
            for direction in Direction.allCases {
                for mode in [ValidationMode.strict, .lenient] {
                    let result = contract.validate(body, direction: direction, mode: mode)
                    said += [result.description, String(describing: result), String(reflecting: result)]
                    said += result.violations.flatMap {
                        [$0.description, $0.remedy, $0.path, $0.expected, $0.found, String(reflecting: $0)]
                    }
                    if let message = result.message {
                        said += [message.description, String(describing: message), String(reflecting: message)]
                        said += message.fields.values.flatMap {
                            [String(describing: $0), String(reflecting: $0), "\($0)"]
                        }
                    }
                }
            }
        }
        if let object = body as? [String: any Sendable] {
            do {
                let call = try ReceiverCall(receiver: "window.bridgeReceive", json: object)
                said += [call.description, String(describing: call), String(reflecting: call), call.structure]
            } catch {
                said += [error.description, String(reflecting: error)]
            }
            do {
                _ = try ReceiverCall(contract: typedContract, message: object)
            } catch {
                said += [error.description, String(reflecting: error)]
            }
        }
        return said
    }

    @Test("a secret in every field never appears in any description, violation or log line", arguments: secretBodies)
    func secretNeverShown(_ body: BodyCase) {
        let said = everythingSaidAbout(body.make())
        #expect(said.count > 10)
        for text in said {
            // Computed first, so a failure report shows the redacted text rather than the secret.
            let leaked = text.contains("S3NT1N3L")
            #expect(!leaked, "leaked in: \(text.replacingOccurrences(of: secret, with: "<SECRET>"))")
        }
    }

    @Test(
        "the structure shows names and types",
        arguments: [
            BodyCase("ready") { ["kind": "ready", "version": JS.number(1)] },
            BodyCase("array") { ["a", JS.number(1), JS.boolean(true), JS.null, Date(timeIntervalSince1970: 0)] },
            BodyCase("nested") {
                ["a": ["b": [["c": JS.boolean(false)]]], "e": [:] as [String: Any], "f": [] as [Any]]
            },
            BodyCase("scalars") { JS.boolean(true) },
            BodyCase("undefined") { nil },
        ])
    func structure(_ body: BodyCase) {
        let expected = [
            "ready": "{kind: String, version: Number}",
            "array": "[String, Number, Boolean, Null, Date]",
            "nested": "{a: {b: [{c: Boolean}]}, e: {}, f: []}",
            "scalars": "Boolean",
            "undefined": "Undefined",
        ]
        #expect(messageStructure(body.make()) == expected[body.name])
    }

    @Test("a hostile structure stays bounded: deep nesting and huge arrays are cut")
    func boundedStructure() {
        var deep: Any = "x"
        for _ in 0..<2_000 { deep = [deep] }
        let deepText = messageStructure(deep)
        #expect(deepText.count < 100)
        #expect(deepText.contains("[…]"))
        #expect(
            BridgeContract.default.validate(["kind": "ready", "version": deep]).violations
                == [ContractViolation(path: "version", rule: .wrongType, expected: "Number 1", found: "Array")])
        let wide = messageStructure(Array(repeating: JS.number(1), count: 100_000))
        #expect(wide.hasSuffix("… 99968 more]"))
    }
}
