import BridgeContract
import Foundation
import Testing

/// Native's steps beyond one message: a call with several typed arguments, an event dispatch, and a script whose
/// value is checked. Rendered through the receiver call's one escape path; bad steps refused at load.
@Suite("Native steps")
struct NativeStepsTests {
    /// A contract with a page message `visitProposed {data: {location, options: {action}}}`, a pulled `getUser` on
    /// the handler `queue`, a `flush` ping and a native message `user` sent as JSON text.
    static let contractText = """
        {
          "version": 1, "handler": "turbo", "receiver": "window.receive", "discriminator": "name",
          "messages": [
            {"kind": "visitProposed", "direction": "page-to-native", "fields": {"data": {"type": "object", "fields": {
              "location": {"type": "string"},
              "options": {"type": "object", "fields": {"action": {"type": "string"}}},
              "note": {"type": "string", "optional": true}
            }}}},
            {"kind": "flush", "direction": "page-to-native", "handler": "flush", "body": {"type": "null"}},
            {"kind": "getUser", "direction": "page-to-native", "handler": "queue", "fields": {"id": {"type": "string"}}},
            {"kind": "user", "direction": "native-to-page", "encoding": "json", "fields": {"who": {"type": "string"}}}
          ],
          "check": {"steps": STEPS, "expect": ["visitProposed"]}
        }
        """

    static func load(steps: String) throws(ContractError) -> BridgeContract {
        let text = contractText.replacingOccurrences(of: "STEPS", with: steps)
        let contract = try BridgeContract(jsonData: Data(text.utf8))
        try contract.check!.check(against: contract)
        return contract
    }

    static let visit = """
        {"after": "visitProposed", "call": "window.turboNative.visitLocationWithOptionsAndRestorationIdentifier",
         "arguments": [
           {"echo": "data.location", "as": {"type": "string"}},
           {"value": {"action": "advance"}},
           {"generate": "uuid", "as": {"type": "string"}}
         ]}
        """

    @Test("a call with typed arguments from a constant, an echo and generated data loads and round-trips")
    func callLoads() throws {
        let contract = try Self.load(steps: "[\(Self.visit)]")
        let step = try #require(contract.check?.steps.first)
        #expect(step.call == "window.turboNative.visitLocationWithOptionsAndRestorationIdentifier")
        #expect(step.arguments?.count == 3)
        let again = try JSONDecoder().decode(PlayStep.self, from: JSONEncoder().encode(step))
        #expect(again == step)
    }

    @Test("a call renders each argument as JSON through the one escape path, never as code")
    func callRenders() throws {
        let hostile = "\u{2028}\");alert(1);//</script>"
        let script = try ReceiverCall.script(
            calling: "cordova.exec.nativeCallback",
            arguments: [.string(hostile), .number(1), .object(["platform": .string("iOS")]), .number(0), .number(1)])
        #expect(script.hasPrefix("cordova.exec.nativeCallback(\""))
        #expect(script.hasSuffix(",1,{\"platform\":\"iOS\"},0,1)"))
        #expect(!script.contains("\u{2028}"))
        #expect(script.contains("\\u2028"))
        // The first argument is one JSON string literal that decodes to the text, not code.
        let first = try #require(script.split(separator: ",1,{").first?.dropFirst("cordova.exec.nativeCallback(".count))
        #expect(try JSONDecoder().decode(String.self, from: Data(first.utf8)) == hostile)
        #expect(throws: ContractError.self) {
            try ReceiverCall.script(calling: "window.f('x')", arguments: [])
        }
    }

    @Test("an event dispatch carries the message as the event's data")
    func dispatchRenders() throws {
        let script = try ReceiverCall.script(dispatching: "message", on: "window", data: "{\"type\":\"user\"}")
        #expect(script == #"window.dispatchEvent(new MessageEvent("message", {"data":"{\"type\":\"user\"}"}))"#)
        #expect(throws: ContractError.self) {
            try ReceiverCall.script(dispatching: "message", on: "window[0]", data: "x")
        }
    }

    @Test("a dispatch and a script step load")
    func dispatchAndScriptLoad() throws {
        let steps = """
            [
              {"after": "visitProposed", "send": "user", "value": {"who": "Ada"},
               "dispatch": {"target": "window", "event": "message"}},
              {"after": "flush", "evaluate": "window.bridge._fetchQueue()", "messages": "queue",
               "returns": {"type": "string", "encoding": "json", "content": {"type": "array", "items": {"type": "any"}}}}
            ]
            """
        let contract = try Self.load(steps: steps)
        #expect(contract.check?.steps[0].dispatch?.event == "message")
        #expect(contract.check?.steps[1].messages == "queue")
    }

    /// Each bad step, the path its refusal names and a word of its rule.
    static let refusals: [(steps: String, path: String, says: String)] = [
        (
            #"[{"after": "visitProposed", "call": "window.f(1)", "arguments": []}]"#,
            "check.steps[0].call", "dotted JavaScript name"
        ),
        (#"[{"after": "visitProposed", "call": "window.f"}]"#, "check.steps[0].arguments", "needs its arguments"),
        (
            #"[{"after": "visitProposed", "arguments": [{"value": 1}], "send": "user"}]"#,
            "check.steps[0].arguments", "go with call"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"echo": "data"}]}]"#,
            "check.steps[0].arguments[0].as", "declares its type"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"echo": "nowhere", "as": {"type": "any"}}]}]"#,
            "check.steps[0].arguments[0].echo", "has no field \"nowhere\""
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"echo": "data.options.action", "as": {"type": "number"}}]}]"#,
            "check.steps[0].arguments[0]", "expected Number, found String"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"echo": "data.nowhere", "as": {"type": "any"}}]}]"#,
            "check.steps[0].arguments[0].echo", "\"nowhere\""
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"echo": "data", "as": {"type": "string"}}]}]"#,
            "check.steps[0].arguments[0]", "expected String, found Object"
        ),
        (
            #"[{"after": "didFinish", "call": "f", "arguments": [{"echo": "data", "as": {"type": "string"}}]}]"#,
            "check.steps[0].arguments[0].echo", "follows didFinish"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"value": 1, "as": {"type": "string"}}]}]"#,
            "check.steps[0].arguments[0]", "expected String, found Number"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"generate": "uuid", "as": {"type": "number"}}]}]"#,
            "check.steps[0].arguments[0]", "expected Number, found String"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"value": 1, "echo": "data"}]}]"#,
            "check.steps[0].arguments[0]", "exactly one of value, echo, generate, fields and url"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"generate": "guid", "as": {"type": "string"}}]}]"#,
            "check.steps[0].arguments[0].generate", "unknown generated data"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [], "send": "user"}]"#,
            "check.steps[0]", "one of them"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [], "echo": ["data"]}]"#,
            "check.steps[0].echo", "into a sent message"
        ),
        (
            #"[{"after": "visitProposed", "dispatch": {"event": "message"}, "reply": 1}]"#,
            "check.steps[0].dispatch", "carries a sent message"
        ),
        (
            #"[{"after": "visitProposed", "send": "user", "value": {"who": "x"}, "dispatch": {"target": "a b", "event": "message"}}]"#,
            "check.steps[0].dispatch.target", "dotted JavaScript name"
        ),
        (
            #"[{"after": "visitProposed", "send": "user", "value": {"who": "x"}, "dispatch": {"event": ""}}]"#,
            "check.steps[0].dispatch.event", "event type is empty"
        ),
        (#"[{"after": "flush", "evaluate": "q()"}]"#, "check.steps[0].returns", "checked against a declared type"),
        (
            #"[{"after": "flush", "returns": {"type": "string"}, "messages": "queue"}]"#,
            "check.steps[0].evaluate", "go with a script"
        ),
        (
            #"[{"after": "flush", "evaluate": "q()", "returns": {"type": "string"}, "messages": "queue"}]"#,
            "check.steps[0].returns", "read from an Array"
        ),
        (
            #"[{"after": "flush", "evaluate": "q()", "returns": {"type": "array", "items": {"type": "any"}}, "messages": "nope"}]"#,
            "check.steps[0].messages", "no page-to-native message is declared on the handler \"nope\""
        ),
        (
            #"[{"after": "flush", "evaluate": "q()", "returns": {"type": "any"}, "accepted": "returns"}]"#,
            "check.steps[0].accepted", "has the type returns declares"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [{"url": ""}]}]"#,
            "check.steps[0].arguments[0].url", "not a URL reference"
        ),
        (
            #"[{"after": "flush", "evaluateFile": "bridge.js", "accepted": "returns"}]"#,
            "check.steps[0].accepted", "runs without throwing"
        ),
        (
            #"[{"after": "flush", "evaluateFile": "bridge.js", "evaluate": "q()", "returns": {"type": "any"}}]"#,
            "check.steps[0]", "one of them"
        ),
        (
            """
            [{"after": "visitProposed", "call": "f", "arguments": [{"fields": {"a": {"value": 1}},
              "as": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                "a": {"type": "string"}}}}}]}]
            """,
            "check.steps[0].arguments[0]", "expected String, found Number"
        ),
        (
            #"[{"after": "getUser", "send": "user", "value": {"who": "x"}, "echo": [{"from": "nowhere", "to": "who"}]}]"#,
            "check.steps[0].echo.from", "has no field \"nowhere\""
        ),
        (
            #"[{"after": "getUser", "send": "user", "value": {"who": "x"}, "echo": [{"from": "id", "to": "whom"}]}]"#,
            "check.steps[0].echo.to", "has no field \"whom\""
        ),
        (
            #"[{"after": "visitProposed", "send": "user", "value": {"who": "x"}, "echo": [{"from": "data", "to": "who"}]}]"#,
            "check.steps[0].value", "expected String, found Object"
        ),
        (
            #"[{"after": "visitProposed", "call": "f", "arguments": [], "echo": [{"from": "data", "to": "who"}]}]"#,
            "check.steps[0].echo", "into a sent message"
        ),
    ]

    @Test("echo copies a value of the trigger to another path of the sent message, written as from and to")
    func echoFromTo() throws {
        let steps =
            #"[{"after": "getUser", "send": "user", "value": {"who": "x"}, "echo": [{"from": "id", "to": "who"}]}]"#
        let contract = try Self.load(steps: steps)
        let step = try #require(contract.check?.steps.first)
        #expect(step.echo == nil && step.echoInto == [PlayStep.EchoPair(from: "id", to: "who")])
        // Names and pairs share the one echo list.
        var mixed = step
        mixed.echo = ["id"]
        let text = String(decoding: try JSONEncoder().encode(mixed), as: UTF8.self)
        #expect(text.contains(#""echo":["id",{"#))
        #expect(try JSONDecoder().decode(PlayStep.self, from: Data(text.utf8)) == mixed)
        guard
            case .valid(let trigger) = contract.validate(
                ["name": "getUser", "id": "u7"], direction: .pageToNative, mode: .strict, handler: "queue")
        else {
            Issue.record("the trigger is not valid")
            return
        }
        let user = try #require(contract.message("user", direction: .nativeToPage))
        let sent = contract.echoing(step.echoInto!, of: trigger, into: .object(["who": .string("x")]), sending: user)
        #expect(sent == .object(["who": .string("u7")]))
    }

    @Test("an argument built of fields and typed as JSON text goes as its text")
    func fieldsAsJSONText() throws {
        let argument = StepArgument(
            .fields(["responseID": StepArgument(.echo("id"), as: .string), "n": StepArgument(.value(.number(1)))]),
            as: .json(.object(["responseID": FieldSpec(.string), "n": FieldSpec(.number)])))
        let value = try #require(argument.value { $0 == "id" ? .string("cb_1") : nil })
        #expect(StepArgument.encoded(value, as: argument.type!) == .string(#"{"n":1,"responseID":"cb_1"}"#))
        #expect(argument.value { _ in nil } == nil)
    }

    @Test("a bad step is refused at load, naming its field, its rule and a remedy", arguments: refusals.indices)
    func refused(_ index: Int) throws {
        let (steps, path, says) = Self.refusals[index]
        do {
            _ = try Self.load(steps: steps)
            Issue.record("loaded: \(steps)")
        } catch {
            #expect(error.path == path, "\(steps): \(error)")
            #expect(error.description.contains(says), "\(steps): \(error)")
            #expect(!error.remedy.isEmpty)
        }
    }
}
