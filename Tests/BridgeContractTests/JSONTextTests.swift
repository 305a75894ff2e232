import BridgeContract
import Foundation
import Testing

/// Strings that hold JSON text: parsed, then named and checked like any body, with paths inside the text.
@Suite("JSON text in a string")
struct JSONTextTests {
    private func contract() throws -> BridgeContract { try LanguageContracts.jsonText.contract() }

    private func lines(_ validation: Validation) -> [String] {
        validation.violations.map { "\($0.path) \($0.rule.rawValue) \($0.expected) / \($0.found)" }
    }

    @Test("messages on one string channel are named by the discriminator inside their text, or by a constant")
    func severalMessages() throws {
        let contract = try contract()
        #expect(contract.validate(#"{"type":"ready","version":2}"#).message?.kind == "ready")
        #expect(contract.validate(#"{"type":"track","event":"e","props":{"screen":"s"}}"#).message?.kind == "track")
        #expect(contract.validate("hello").message?.kind == "hello")
        // The request id inside the text pairs the request with its answer.
        let request = contract.validate(#"{"type":"fetchUser","id":"7","userId":42}"#)
        #expect(request.message?.requestID == "7" && request.message?.kind == "fetchUser")
        #expect(request.message?.fields["userId"] == .integer(42))
    }

    @Test("a violation inside the text names its path there")
    func pathInside() throws {
        let contract = try contract()
        #expect(
            lines(contract.validate(#"{"type":"ready","version":"2"}"#)) == [
                "body(json).version wrong-type Integer / String"
            ])
        #expect(
            lines(contract.validate(#"{"type":"track","event":"e","props":{"screen":1}}"#)) == [
                "body(json).props.screen wrong-type String / Number"
            ])
        #expect(
            lines(contract.validate(#"{"type":"fetchUser","userId":42}"#)) == [
                "body(json).id missing-field String (request id) / Missing"
            ])
        #expect(
            lines(contract.validate(#"{"type":"nope"}"#)) == [
                "body(json).type unknown-kind one of: ready, track, fetchUser / String"
            ])
        // A message of the other direction, named inside the text.
        #expect(
            lines(contract.validate(#"{"type":"user","id":"7","name":"A"}"#)).first?.contains("wrong-direction") == true
        )
    }

    @Test("text that is not JSON, and an object instead of text, are their own violations")
    func notText() throws {
        let contract = try contract()
        let expected = "JSON text of one of: ready, track, fetchUser, or one of: hello (String \"hello\")"
        #expect(lines(contract.validate("ready")) == ["body not-json \(expected) / String"])
        #expect(lines(contract.validate("[object Object]")) == ["body not-json \(expected) / String"])
        #expect(lines(contract.validate(["type": "ready", "version": 2])) == ["body wrong-type \(expected) / Object"])
        let violation = try #require(contract.validate("ready").violations.first)
        #expect(violation.remedy.contains("JSON.stringify"))
        // JSON text of something other than an object is checked as the body inside.
        #expect(lines(contract.validate("12")) == ["body(json) body-not-object Object / Number"])
    }

    @Test("a field or a bare body declared as JSON text is parsed and checked inside")
    func fieldOfText() throws {
        let contract = try contract()
        let config = try #require(contract.message("config", direction: .nativeToPage))
        #expect(
            contract.validate(["type": "config", "payload": #"{"theme":"dark","flags":[true]}"#], as: config).message
                != nil)
        #expect(
            lines(contract.validate(["type": "config", "payload": #"{"theme":1,"flags":[true,"x"]}"#], as: config)) == [
                "payload(json).flags[1] wrong-type Boolean / String",
                "payload(json).theme wrong-type String / Number",
            ])
        #expect(
            lines(contract.validate(["type": "config", "payload": "dark"], as: config)) == [
                "payload not-json JSON text of Object / String"
            ])
        let queue = contract.validate(
            #"[{"handlerName":"scan","callbackId":1}]"#, direction: .pageToNative, mode: .strict, handler: "queue")
        // The channel's one string message shows where the text breaks it.
        #expect(lines(queue) == ["body(json)[0].callbackId wrong-type String / Number"])
    }

    @Test("native's message of JSON text is sent as its text, with the request id inside")
    func outgoingText() throws {
        let contract = try contract()
        let user = try #require(contract.message("user", direction: .nativeToPage))
        let sent = contract.outgoing(user, value: .object(["name": .string("Ada")]), requestID: "7")
        let text = try #require(sent as? String)
        #expect(contract.validate(text, as: user).message?.requestID == "7")
        #expect(contract.validate(text, direction: .nativeToPage).message?.kind == "user")
        #expect(
            lines(contract.validate(["type": "user", "id": "7", "name": "A"], as: user)) == [
                "body wrong-type JSON text of Object / Object"
            ])
    }

    @Test("the file round-trips, and a wrong encoding is refused naming the field, the rule and the remedy")
    func definitions() throws {
        let contract = try contract()
        #expect(try BridgeContract(jsonData: contract.jsonData()) == contract)
        func refusal(_ messages: String) -> String {
            let json = ContractLanguageTests.file(messages)
            do {
                _ = try BridgeContract(jsonData: Data(json.utf8))
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let toNative = ContractLanguageTests.toNative
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "encoding": "xml", "fields": {}}"#).contains(
                #"messages[0].encoding: unknown encoding "xml""#))
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "encoding": "json", "body": {"type": "string"}}"#).contains(
                "messages[0].encoding: encoding applies to a message declared with fields"))
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "fields": {"p": {"type": "string", "content": {"type": "string"}}}}"#)
                .contains("messages[0].fields.p.encoding: content applies to a string of JSON text only"))
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "fields": {"p": {"type": "string", "encoding": "json"}}}"#)
                .contains("messages[0].fields.p.content: JSON text needs the type of what it holds"))
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "fields": {"p": {"type": "integer", "encoding": "json"}}}"#)
                .contains("messages[0].fields.p.encoding"))
        #expect(
            refusal(#"{"kind": "a", \#(toNative), "transport": "prompt", "encoding": "json", "fields": {}}"#)
                .contains("messages[0].encoding: a prompt message is JSON text already"))
    }

    @Test("Docs/CONTRACT.md's JSON-text example loads, and the violations it shows are the library's own")
    func documented() throws {
        let block = try ContractDocumentationTests.block(after: "### JSON text")
        let contract = try BridgeContract(
            jsonData: Data(#"{"version": 1, "handler": "bridge", "receiver": "window.r", \#(block)}"#.utf8))
        #expect(contract.validate(#"{"type":"fetchUser","id":"7","userId":42}"#).message?.requestID == "7")
        let document = try #require(ContractDocumentationTests.document)
        for body in [#"{"type":"ready","version":"2"}"#, #"{"type":"nope"}"#, "ready", ["type": "ready"]] as [Any] {
            for violation in contract.validate(body).violations {
                let shown = violation.description.components(separatedBy: ". Remedy:")[0]
                #expect(document.contains("\n\(shown)\n"), "\(shown)")
            }
        }
    }
}
