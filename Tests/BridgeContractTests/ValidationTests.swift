import BridgeContract
import Foundation
import Testing

/// A violation as the table states it (direction page-to-native unless given).
private func violation(
    _ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String,
    _ direction: Direction = .pageToNative
) -> ContractViolation {
    ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction)
}

struct InvalidCase: Sendable, CustomStringConvertible {
    let body: BodyCase
    let mode: ValidationMode
    let expected: [ContractViolation]
    var description: String { body.name }
    init(
        _ name: String, mode: ValidationMode = .strict, _ expected: [ContractViolation],
        _ make: @escaping @Sendable () -> Any?
    ) {
        body = BodyCase(name, make)
        self.mode = mode
        self.expected = expected
    }
}

private let readyKinds = "String, one of: ready"

/// Every rejection of the issue's table for the default contract, page → native, with the exact violation.
let defaultContractRejections: [InvalidCase] = [
    InvalidCase("ready without version", [violation("version", .missingField, "Number 1", "Missing")]) {
        ["kind": "ready"]
    },
    InvalidCase("version \"1\" (a string)", [violation("version", .wrongType, "Number 1", "String")]) {
        ["kind": "ready", "version": "1"]
    },
    InvalidCase("version true (JS boolean)", [violation("version", .wrongType, "Number 1", "Boolean")]) {
        ["kind": "ready", "version": JS.boolean(true)]
    },
    InvalidCase("version false (JS boolean)", [violation("version", .wrongType, "Number 1", "Boolean")]) {
        ["kind": "ready", "version": JS.boolean(false)]
    },
    InvalidCase("version true (Swift Bool)", [violation("version", .wrongType, "Number 1", "Boolean")]) {
        ["kind": "ready", "version": true]
    },
    InvalidCase("version 1.5", [violation("version", .constantMismatch, "Number 1", "Number")]) {
        ["kind": "ready", "version": JS.number(1.5)]
    },
    InvalidCase("version 2", [violation("version", .constantMismatch, "Number 1", "Number")]) {
        ["kind": "ready", "version": JS.number(2)]
    },
    InvalidCase("version null", [violation("version", .wrongType, "Number 1", "Null")]) {
        ["kind": "ready", "version": JS.null]
    },
    InvalidCase("version NaN", [violation("version", .constantMismatch, "Number 1", "Number")]) {
        ["kind": "ready", "version": JS.number(.nan)]
    },
    InvalidCase("version Infinity", [violation("version", .constantMismatch, "Number 1", "Number")]) {
        ["kind": "ready", "version": JS.number(.infinity)]
    },
    InvalidCase("version a Date", [violation("version", .wrongType, "Number 1", "Date")]) {
        ["kind": "ready", "version": Date(timeIntervalSince1970: 1)]
    },
    InvalidCase("kind missing", [violation("kind", .missingField, readyKinds, "Missing")]) {
        ["version": JS.number(1)]
    },
    InvalidCase("kind 1", [violation("kind", .wrongType, readyKinds, "Number")]) {
        ["kind": JS.number(1), "version": JS.number(1)]
    },
    InvalidCase("kind null", [violation("kind", .wrongType, readyKinds, "Null")]) {
        ["kind": JS.null, "version": JS.number(1)]
    },
    InvalidCase("unknown kind", [violation("kind", .unknownKind, "one of: ready", "String")]) {
        ["kind": "hello", "version": JS.number(1)]
    },
    InvalidCase("native-to-page kind sent by the page", [violation("kind", .wrongDirection, "one of: ready", "String")])
    {
        ["kind": "sync", "value": "ok"]
    },
    InvalidCase("body a string", [violation("body", .bodyNotObject, "Object", "String")]) { "ready" },
    InvalidCase("body an array", [violation("body", .bodyNotObject, "Object", "Array")]) { ["ready", JS.number(1)] },
    InvalidCase("body a number", [violation("body", .bodyNotObject, "Object", "Number")]) { JS.number(1) },
    InvalidCase("body a boolean", [violation("body", .bodyNotObject, "Object", "Boolean")]) { JS.boolean(true) },
    InvalidCase("body NSNull", [violation("body", .bodyNotObject, "Object", "Null")]) { JS.null },
    InvalidCase("body undefined (nil)", [violation("body", .bodyNotObject, "Object", "Undefined")]) { nil },
    InvalidCase("body a Date", [violation("body", .bodyNotObject, "Object", "Date")]) { Date() },
    InvalidCase("nested garbage in version", [violation("version", .wrongType, "Number 1", "Object")]) {
        ["kind": "ready", "version": ["a": [JS.number(1), ["b": JS.null]], "c": [[[JS.boolean(true)]]]]]
    },
    InvalidCase("nested garbage in kind", [violation("kind", .wrongType, readyKinds, "Array")]) {
        ["kind": ["ready", ["kind": "ready"]], "version": JS.number(1)]
    },
    InvalidCase("extra field in strict mode", [violation("extra", .unexpectedField, "no such field", "String")]) {
        ["kind": "ready", "version": JS.number(1), "extra": "x"]
    },
    InvalidCase(
        "missing version and two extra fields",
        [
            violation("version", .missingField, "Number 1", "Missing"),
            violation("a", .unexpectedField, "no such field", "Boolean"),
            violation("b", .unexpectedField, "no such field", "Object"),
        ]
    ) { ["kind": "ready", "b": ["x": JS.number(1)], "a": JS.boolean(false)] },
    InvalidCase("Foundation containers (NSDictionary)", [violation("version", .wrongType, "Number 1", "String")]) {
        NSDictionary(dictionary: ["kind": NSString(string: "ready"), "version": NSString(string: "1")])
    },
]

@Suite("Validation of the default contract")
struct DefaultContractValidationTests {
    @Test("a rejected body gives exactly the expected violations", arguments: defaultContractRejections)
    func rejects(_ testCase: InvalidCase) {
        let result = BridgeContract.default.validate(testCase.body.make(), mode: testCase.mode)
        #expect(result.message == nil, "accepted \(testCase.body.name)")
        #expect(result.violations == testCase.expected)
    }

    static let accepted: [BodyCase] = [
        BodyCase("valid ready (double NSNumber 1)") { ["kind": "ready", "version": JS.number(1)] },
        BodyCase("ready with version 1.0") { ["kind": "ready", "version": JS.number(1.0)] },
        BodyCase("ready with Swift Int 1") { ["kind": "ready", "version": 1] },
        BodyCase("ready with Swift Double 1.0") { ["kind": "ready", "version": 1.0] },
        BodyCase("ready as NSDictionary") { NSDictionary(dictionary: ["kind": "ready", "version": JS.number(1)]) },
    ]

    @Test("a valid ready is accepted as a typed message", arguments: accepted)
    func accepts(_ body: BodyCase) throws {
        let result = BridgeContract.default.validate(body.make())
        #expect(result.violations == [])
        let message = try #require(result.message)
        #expect(message.kind == "ready")
        #expect(message.direction == .pageToNative)
        #expect(message["version"] == .integer(1))
        #expect(message.requestID == nil)
        #expect(message.description == "ready {kind: String, version: Number}")
    }

    @Test("an extra field is ignored in lenient mode")
    func lenientIgnoresExtraFields() throws {
        let body: [String: Any] = ["kind": "ready", "version": JS.number(1), "extra": "x", "more": ["deep": JS.null]]
        let message = try #require(BridgeContract.default.validate(body, mode: .lenient).message)
        #expect(message.fields == ["version": .integer(1)])
    }

    @Test("lenient mode still rejects a wrong type")
    func lenientStillChecksTypes() {
        let body: [String: Any] = ["kind": "ready", "version": JS.boolean(true), "extra": "x"]
        #expect(
            BridgeContract.default.validate(body, mode: .lenient).violations
                == [violation("version", .wrongType, "Number 1", "Boolean")])
    }

    @Test("the native-to-page sync is valid in its own direction only")
    func syncDirection() throws {
        let body: [String: Any] = ["kind": "sync", "value": "ok"]
        let message = try #require(BridgeContract.default.validate(body, direction: .nativeToPage).message)
        #expect(message["value"] == .string("ok"))
        #expect(message.description == "sync {kind: String, value: String}")
        #expect(
            BridgeContract.default.validate(["kind": "sync", "value": JS.number(42)], direction: .nativeToPage)
                .violations
                == [violation("value", .wrongType, "String", "Number", .nativeToPage)])
    }
}

/// A contract with every field type, for the rules the default contract doesn't exercise.
let typedContract = BridgeContract(
    version: 3, handler: "bridge", receiver: "window.bridgeReceive",
    messages: [
        MessageSpec(
            kind: "report", direction: .pageToNative,
            fields: [
                "count": FieldSpec(.integer),
                "ratio": FieldSpec(.number, optional: true),
                "flag": FieldSpec(.boolean, optional: true),
                "mode": FieldSpec(.constant(.string("fast")), optional: true),
                "items": FieldSpec(.array(.object(["name": FieldSpec(.string)])), optional: true),
                "meta": FieldSpec(.object(["depth": FieldSpec(.integer)]), optional: true),
            ]),
        MessageSpec(kind: "load", direction: .nativeToPage, fields: ["url": FieldSpec(.string)]),
        MessageSpec(kind: "loaded", direction: .pageToNative, acknowledges: "load"),
    ],
    requestID: RequestIDSpec(field: "id"))

@Suite("Validation of every field type")
struct FieldTypeValidationTests {
    static let rejections: [InvalidCase] = [
        InvalidCase("integer 1.5", [violation("count", .notInteger, "Integer", "Number")]) {
            ["kind": "report", "count": JS.number(1.5)]
        },
        InvalidCase("integer NaN", [violation("count", .notFinite, "Integer", "Number")]) {
            ["kind": "report", "count": JS.number(.nan)]
        },
        InvalidCase("integer +Infinity", [violation("count", .notFinite, "Integer", "Number")]) {
            ["kind": "report", "count": JS.number(.infinity)]
        },
        InvalidCase("integer -Infinity", [violation("count", .notFinite, "Integer", "Number")]) {
            ["kind": "report", "count": JS.number(-.infinity)]
        },
        InvalidCase("integer beyond 2^53", [violation("count", .notInteger, "Integer", "Number")]) {
            ["kind": "report", "count": JS.number(1e300)]
        },
        InvalidCase("integer true", [violation("count", .wrongType, "Integer", "Boolean")]) {
            ["kind": "report", "count": JS.boolean(true)]
        },
        InvalidCase("number NaN", [violation("ratio", .notFinite, "Number", "Number")]) {
            ["kind": "report", "count": JS.number(1), "ratio": JS.number(.nan)]
        },
        InvalidCase("boolean given the number 1", [violation("flag", .wrongType, "Boolean", "Number")]) {
            ["kind": "report", "count": JS.number(1), "flag": JS.number(1)]
        },
        InvalidCase("optional field present as null", [violation("flag", .wrongType, "Boolean", "Null")]) {
            ["kind": "report", "count": JS.number(1), "flag": JS.null]
        },
        InvalidCase(
            "string constant with another value", [violation("mode", .constantMismatch, "String \"fast\"", "String")]
        ) {
            ["kind": "report", "count": JS.number(1), "mode": "slow"]
        },
        InvalidCase("array element with a wrong field", [violation("items[2].name", .wrongType, "String", "Number")]) {
            ["kind": "report", "count": JS.number(1), "items": [["name": "a"], ["name": "b"], ["name": JS.number(3)]]]
        },
        InvalidCase("array element not an object", [violation("items[0]", .wrongType, "Object", "String")]) {
            ["kind": "report", "count": JS.number(1), "items": ["a"]]
        },
        InvalidCase(
            "nested object: missing and extra",
            [
                violation("meta.depth", .missingField, "Integer", "Missing"),
                violation("meta.other", .unexpectedField, "no such field", "Number"),
            ]
        ) { ["kind": "report", "count": JS.number(1), "meta": ["other": JS.number(1)]] },
        InvalidCase(
            "acknowledgement without its request id", [violation("id", .missingField, "String (request id)", "Missing")]
        ) {
            ["kind": "loaded"]
        },
        InvalidCase("request id a number", [violation("id", .wrongType, "String (request id)", "Number")]) {
            ["kind": "loaded", "id": JS.number(7)]
        },
        InvalidCase("request id empty", [violation("id", .emptyRequestID, "String (request id)", "String")]) {
            ["kind": "loaded", "id": ""]
        },
    ]

    @Test("a rejected field gives exactly the expected violations", arguments: rejections)
    func rejects(_ testCase: InvalidCase) {
        let result = typedContract.validate(testCase.body.make(), mode: testCase.mode)
        #expect(result.violations == testCase.expected)
    }

    @Test("every field type is accepted with its typed value")
    func acceptsTypedValues() throws {
        let body: [String: Any] = [
            "kind": "report", "count": JS.number(3.0), "ratio": JS.number(0.5), "flag": JS.boolean(false),
            "mode": "fast",
            "items": [["name": "a"]], "meta": ["depth": JS.number(2)],
        ]
        let message = try #require(typedContract.validate(body).message)
        #expect(
            message.fields == [
                "count": .integer(3), "ratio": .number(0.5), "flag": .boolean(false), "mode": .string("fast"),
                "items": .array([.object(["name": .string("a")])]), "meta": .object(["depth": .integer(2)]),
            ])
        #expect(
            message.description
                == "report {count: Number, flag: Boolean, items: [{name: String}], kind: String, meta: {depth: Number}, mode: String, ratio: Number}"
        )
    }

    @Test("an acknowledgement carries its request id")
    func acknowledgementCarriesRequestID() throws {
        let message = try #require(typedContract.validate(["kind": "loaded", "id": "abc-1"]).message)
        #expect(message.requestID == "abc-1")
        #expect(message.description == "loaded {id: String, kind: String}")
        // The request (native → page) carries it too.
        #expect(
            typedContract.validate(["kind": "load", "url": "u"], direction: .nativeToPage).violations
                == [violation("id", .missingField, "String (request id)", "Missing", .nativeToPage)])
    }

    @Test("a missing request id is told to send it, never to declare it optional (the format cannot)")
    func missingRequestIDRemedy() throws {
        let violations = typedContract.validate(["kind": "loaded"]).violations
        let remedy = try #require(violations.first { $0.path == "id" }).remedy
        #expect(!remedy.contains("optional"))
        #expect(
            remedy
                == "the page must include id, the request id (a non-empty String) that pairs a request with its answer; an answer copies it from its request"
        )
    }

    @Test("a validated message gives native its kind, request id and fields to echo, and logs their structure")
    func echoedValues() throws {
        let contract = BridgeContract(
            version: 1, handler: "bridge", receiver: "window.bridgeReceive",
            messages: [
                MessageSpec(
                    kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))],
                    acknowledges: "sync"),
                MessageSpec(kind: "sync", direction: .nativeToPage, fields: ["value": FieldSpec(.string)]),
            ],
            requestID: RequestIDSpec(field: "id"))
        let body: [String: Any] = ["kind": "ready", "version": NSNumber(value: 1), "id": "p-1"]
        let message = try #require(contract.validate(body, direction: .pageToNative).message)
        #expect(message.jsonValue(of: "kind") == .string("ready"))
        #expect(message.jsonValue(of: "id") == .string("p-1"))
        #expect(message.jsonValue(of: "version") == .number(1))
        #expect(message.jsonValue(of: "missing") == nil)
        #expect(message.description == "ready {id: String, kind: String, version: Number}")
    }

    @Test("a remedy reads \"an Object\", \"an Integer\", \"an Array\", not \"a Object\"")
    func remedyArticles() {
        #expect(violation("v", .wrongType, "Integer", "String").remedy.hasSuffix("as an Integer"))
        #expect(violation("v", .wrongType, "Object", "String").remedy.hasSuffix("as an Object"))
        #expect(violation("v", .wrongType, "String", "Number").remedy.hasSuffix("as a String"))
        #expect(violation("body", .bodyNotObject, "Object", "Array").remedy.hasSuffix("not an Array"))
    }

    @Test("a violation's description names the field, the rule, both types and the remedy")
    func violationDescription() {
        let text = violation("version", .wrongType, "Number 1", "Boolean").description
        #expect(
            text
                == "version: expected Number 1, found Boolean (wrong-type, page-to-native). Remedy: the page must send version as a number: a JS boolean is not a number."
        )
    }
}

/// A channel that carries only bare messages (React Native's and Flutter's string channels): an object posted to
/// it is a wrong body, not a message missing its discriminator.
@Suite struct BareChannelTests {
    static let stringChannel = """
        {"version": 1, "handler": "ReactNativeWebView", "receiver": "window.onNative", "messages": [
          {"kind": "text", "direction": "page-to-native", "body": {"type": "string"}},
          {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}
        ]}
        """

    @Test("an object on a string channel is a wrong body type, named at body")
    func objectOnStringChannelNamesTheBody() throws {
        let contract = try BridgeContract(jsonData: Data(Self.stringChannel.utf8))
        let result = contract.validate(["type": "ready"] as [String: Any], direction: .pageToNative)
        guard case .invalid(let violations) = result else {
            Issue.record("an object on a string-only channel was accepted")
            return
        }
        #expect(violations == [violation("body", .wrongType, "String", "Object")])
        #expect(violations.first?.remedy.contains("include") == false)
    }

    @Test("a string on the string channel is its message")
    func stringOnStringChannelIsAccepted() throws {
        let contract = try BridgeContract(jsonData: Data(Self.stringChannel.utf8))
        guard case .valid(let message) = contract.validate("{\"type\":\"ready\"}", direction: .pageToNative) else {
            Issue.record("a string on the string channel was refused")
            return
        }
        #expect(message.kind == "text")
    }
}
