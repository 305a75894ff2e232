import BridgeContract
import ContractTools
import Foundation
import Testing

/// The new shapes in typed Swift: a tuple is a struct of typed elements, and a message of JSON text is decoded
/// from and encoded to its text.
@Suite(
    "Swift types of tuples and JSON text",
    .enabled(if: SwiftCompiler.executable != nil && SwiftCompiler.modules != nil, "swiftc or the built module missing"))
struct SwiftTupleTypesTests {
    @Test("a tuple is typed element by element: correct code compiles, a wrong element type does not")
    func tupleElements() throws {
        let types = SwiftTypes(contract: try LanguageContracts.positional.contract())
        let space = types.namespace
        let correct = """
            import BridgeContract
            func use(_ body: Any) throws -> String {
                let result = \(space).ResultMessage(
                    args: .init(item0: "a", item1: 2), error: .null, keepCallback: false, message: .null, status: 1)
                switch try \(space).PageToNative(body: body) {
                case .exec(let exec):
                    let service: String = exec.value.item1
                    let args: [JSONValue] = exec.value.item3
                    _ = args
                    return service + (try \(space).NativeToPage.result(result).receiverCall().script)
                case .gap: return ""
                }
            }

            """
        #expect(try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": correct]).isEmpty)
        let wrong = """
            import BridgeContract
            let args = \(space).ResultMessage.ArgsTuple(item0: "a", item1: "2")

            """
        let errors = try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": wrong])
        #expect(errors.count == 1 && errors.first?.file == "Use.swift" && errors.first?.line == 2, "\(errors)")
        #expect(errors.first?.message.contains("'Int'") == true, "\(errors)")
    }

    @Test("a tuple's element is read at its index, and a short array names the missing index")
    func elementRead() throws {
        let value = FieldValue.array([.string("cb1"), .integer(2)])
        #expect(try value.element(0, path: "body") as String == "cb1")
        #expect(try value.element(1, path: "body") as Int == 2)
        #expect(throws: ContractError.self) { try value.element(2, path: "body") as String }
        do {
            _ = try value.element(0, path: "body") as Int
            Issue.record("a String read as Int")
        } catch {
            #expect(error.violations.first?.path == "body[0]")
        }
    }

    /// A contract whose messages travel as JSON text, both ways.
    static let text = #"""
        {"version": 1, "handler": "Toaster", "receiver": "window.fromFlutter", "discriminator": "type",
         "requestID": {"field": "id"},
         "messages": [
           {"kind": "getUser", "direction": "page-to-native", "encoding": "json", "fields": {"userId": {"type": "string"}}},
           {"kind": "user", "direction": "native-to-page", "encoding": "json", "acknowledges": "getUser",
            "fields": {"name": {"type": "string"}}}
         ]}
        """#

    @Test("a JSON-text message: typed code compiles, decodes the text and sends the message as its text")
    func jsonTextMessage() throws {
        let contract = try BridgeContract(jsonData: Data(Self.text.utf8))
        let types = SwiftTypes(contract: contract)
        let space = types.namespace
        let correct = """
            import BridgeContract
            func answer(_ body: Any) throws -> String {
                guard case .getUser(let request) = try \(space).PageToNative(body: body) else { return "" }
                let userId: String = request.userId
                let user = \(space).UserMessage(answering: request, name: userId)
                return try \(space).NativeToPage.user(user).receiverCall().script
            }

            """
        #expect(try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": correct]).isEmpty)
        let wrong = """
            import BridgeContract
            let user = \(space).UserMessage(id: "1", name: 7)

            """
        #expect(try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": wrong]).count == 1)
        // What the generated code calls: the text is parsed and checked; the answer goes as its text.
        let message = try contract.typedMessage(
            #"{"type":"getUser","id":"r1","userId":"u1"}"#, direction: .pageToNative, mode: .strict,
            handler: nil, transport: .postMessage)
        #expect(message.kind == "getUser" && message.requestID == "r1" && message["userId"]?.stringValue == "u1")
        #expect(throws: ContractError.self) {
            try contract.typedMessage(
                #"{"type":"getUser","id":"r1","userId":1}"#, direction: .pageToNative, mode: .strict, handler: nil,
                transport: .postMessage)
        }
        let call = try contract.typedCall("user", value: .object(["name": .string("Ada")]), requestID: "r1")
        #expect(call.script == #"window.fromFlutter("{\"id\":\"r1\",\"name\":\"Ada\",\"type\":\"user\"}")"#)
    }
}
