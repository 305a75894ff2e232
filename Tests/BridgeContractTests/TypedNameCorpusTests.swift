import BridgeContract
import ContractTools
import Foundation
import Testing

/// Valid contracts whose names collide with what the generated Swift declares or names: Swift's keywords, the
/// generated members and initializer parameters, the library's types. Each name is tried in every place a name
/// of the contract reaches the code (a kind in either direction, a field of a message, of a nested object, of an
/// array's object, of a reply, of a request and of its answer), all in one contract that swiftc type-checks.
enum TypedNameCorpus {
    /// The hostile names. (`type` and `id` are this contract's discriminator and request id: no field has them.)
    static let names = [
        // What the generated initializers bind, and their parameters.
        "message", "fields", "path", "contractValue", "request", "body", "mode", "handler", "transport", "encoder",
        "value",
        // What the generated types declare.
        "kind", "version", "contract", "contractJSON", "Reply", "Answer", "replyBody", "receiverCall",
        "PageToNative", "NativeToPage",
        // What backticks can't rescue; keywords.
        "init", "self", "Self", "Type", "Protocol", "_", "deinit", "subscript", "default", "case", "nil", "true",
        "Any", "throws", "some", "any", "inout", "async", "await", "where", "super",
        // Types the generated code names (`validated` names a `ValidatedMessage`).
        "validated", "String", "Double", "Int", "Bool", "JSONValue", "FieldValue", "ContractFields",
        "ContractValue", "TypedMessageError", "ValidatedMessage", "ValidationMode", "ReceiverCall", "MessageSpec",
        "BridgeContract", "Sendable", "Equatable",
    ]

    /// A contract of every name in every place.
    static func contract(_ names: [String] = names) throws -> BridgeContract {
        func string(_ name: String) -> [String: Any] { [name: ["type": "string"]] }
        let all = Dictionary(uniqueKeysWithValues: names.map { ($0, ["type": "string"] as [String: Any]) })
        let object: [String: Any] = ["type": "object", "fields": all]
        var messages: [[String: Any]] = [
            ["kind": "ask", "direction": "native-to-page", "fields": all.merging(["nested": object]) { a, _ in a }],
            ["kind": "answer", "direction": "page-to-native", "acknowledges": "ask", "fields": all],
            [
                "kind": "replying", "direction": "page-to-native",
                "fields": ["list": ["type": "array", "items": object]], "reply": object,
            ],
        ]
        for (index, name) in names.enumerated() {
            messages.append([
                "kind": name, "direction": index % 2 == 0 ? "page-to-native" : "native-to-page",
                "fields": string(name).merging(["nested": ["type": "object", "fields": string(name)]]) { a, _ in a },
            ])
        }
        let json: [String: Any] = [
            "version": 1, "name": "hostile names", "handler": "h", "receiver": "window.r", "discriminator": "type",
            "requestID": ["field": "id"], "messages": messages,
        ]
        return try BridgeContract(jsonData: try JSONSerialization.data(withJSONObject: json, options: .sortedKeys))
    }
}

@Suite(
    "Typed code for hostile names",
    .enabled(if: SwiftCompiler.executable != nil && SwiftCompiler.modules != nil, "swiftc or the built module missing"))
struct TypedNameCorpusTests {
    @Test("the Swift types of a contract using every hostile name in every place compile, and are used")
    func hostileNamesCompile() throws {
        let types = SwiftTypes(contract: try TypedNameCorpus.contract())
        // Every field of the answer, renamed where the table says (`Reply_`, `init_`), and the request's parameter
        // numbered since a field is called `request`.
        let use = """
            import BridgeContract
            func use(_ body: Any, request: HostileNamesContract.AskMessage) throws -> String {
                let answer = HostileNamesContract.AnswerMessage(
                    answering: request, Answer_: "", `Any`: "", Bool: "", BridgeContract: "", ContractFields_: "",
                    ContractValue: "", Double: "", Equatable: "", FieldValue: "", Int: "", JSONValue: "",
                    MessageSpec: "", NativeToPage: "", PageToNative: "", Protocol_: "", ReceiverCall: "", Reply_: "",
                    Self_: "", Sendable: "", String: "", Type_: "", TypedMessageError: "", ValidatedMessage: "",
                    ValidationMode: "", __: "", any: "", `async`: "", `await`: "", body: "", `case`: "", contract: "",
                    contractJSON_: "", contractValue: "", `default`: "", `deinit`: "", encoder: "", fields: "",
                    handler: "", init_: "", `inout`: "", kind: "", message: "", mode: "", `nil`: "", path: "",
                    receiverCall: "", replyBody: "", request: "", self_: "", some: "", `subscript`: "", `super`: "",
                    `throws`: "", transport: "", `true`: "", validated: "", value: "", version: "", `where`: "")
                _ = answer
                switch try HostileNamesContract.PageToNative(body: body) {
                case .self_(let message): return message.self_
                case .validated2(let message): return message.validated
                default:
                    let call = HostileNamesContract.NativeToPage.init_(.init(init_: "", nested: .init(init_: "")))
                    return try call.receiverCall().script
                }
            }

            """
        let errors = try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": use])
        #expect(errors.isEmpty, "\(errors.prefix(20))")
    }

    /// A contract whose one field is `depth` arrays of integers nested in one another.
    static func nested(_ depth: Int) throws -> BridgeContract {
        var type: [String: Any] = ["type": "integer"]
        for _ in 0..<depth { type = ["type": "array", "items": type] }
        let json: [String: Any] = [
            "version": 1, "handler": "h", "receiver": "window.r", "discriminator": "type",
            "messages": [
                [
                    "kind": "deep", "direction": "page-to-native",
                    "fields": ["grid": ["type": "object", "fields": ["a": type]]],
                ]
            ],
        ]
        return try BridgeContract(jsonData: try JSONSerialization.data(withJSONObject: json))
    }

    @Test("arrays nested up to the limit compile; one level more is refused, naming the field, rule and remedy")
    func nestingIsBounded() throws {
        let limit = SwiftTypes.maxArrayNesting
        let deepest = try Self.nested(limit)
        #expect(SwiftTypes.unsupported(deepest) == nil)
        let errors = try SwiftCompiler.errors(["Types.swift": SwiftTypes(contract: deepest).source])
        #expect(errors.isEmpty, "\(errors)")
        let problem = try #require(SwiftTypes.unsupported(try Self.nested(limit + 1)))
        let path = "messages[0].fields.grid.fields.a"
        #expect(problem.hasPrefix("\(path): arrays nest \(limit + 1) levels deep"), "\(problem)")
        #expect(problem.contains("Remedy: "))
        #expect(SwiftTypes.unsupported(try Self.nested(40)) != nil)
    }
}
