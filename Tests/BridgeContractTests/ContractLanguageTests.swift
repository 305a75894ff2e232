import BridgeContract
import ContractTools
import Foundation
import Testing

@Suite("The contract language")
struct ContractLanguageTests {
    @Test(
        "each bridge's contract loads from its file and round-trips through jsonData() unchanged",
        arguments: LanguageContracts.all)
    func roundTrip(_ example: LanguageContracts.Example) throws {
        let contract = try example.contract()
        let text = contract.jsonData()
        let reloaded = try BridgeContract(jsonData: text)
        #expect(reloaded == contract)
        #expect(reloaded.jsonData() == text)
        // The check section is test data: the lock and the diff see the protocol only.
        #expect(contract.protocolOnly.check == nil)
        #expect(contract.protocolOnly.messages == contract.messages)
    }

    @Test("the Hotwire-like contract means what its file says")
    func hotwireMeaning() throws {
        let contract = try LanguageContracts.hotwire.contract()
        #expect(contract.discriminator == ["component", "event"])
        let ready = try #require(contract.message("ready", direction: .pageToNative))
        #expect(ready.body == .constant(.string("ready")) && !ready.isObject)
        let register = try #require(contract.message("register", direction: .nativeToPage))
        #expect(register.body == .array(.string))
        #expect(contract.functionPath(of: register) == "window.nativeBridge.register")
        let connected = try #require(contract.message("formConnected", direction: .nativeToPage))
        #expect(contract.matchValues(of: connected) == ["component": .string("form"), "event": .string("connect")])
        #expect(contract.carriesRequestID(connected))
        #expect(contract.carriesRequestID(try #require(contract.message("formConnect", direction: .pageToNative))))
        #expect(contract.handlerNames == ["bridge"])
        #expect(!contract.usesPromptChannel)
        let check = try #require(contract.check)
        #expect(check.expectedMessages == ["ready", "formConnect"])
        #expect(check.steps[0].value == .array([.string("form"), .string("menu")]))
        #expect(check.userScripts[0].injectionTime == .documentStart && check.userScripts[0].forMainFrameOnly)
        // Native's reply carries the discriminator values and the id of the page's message.
        let reply = contract.outgoing(connected, value: .object(["data": .object([:])]), requestID: "7")
        #expect(contract.validate(reply, as: connected).message?.requestID == "7")
        #expect(contract.validate(reply, direction: .nativeToPage).message?.kind == "formConnected")
    }

    @Test("the reply-handler, prompt and custom contracts register the handlers and channels they declare")
    func channels() throws {
        let replies = try LanguageContracts.replyHandler.contract()
        #expect(replies.handlerNames == ["bridge", "native"])
        #expect(replies.repliesOn(handler: "native") && !replies.repliesOn(handler: "bridge"))
        #expect(replies.check?.steps[1].replyError == "read-only")
        let capacitor = try LanguageContracts.capacitor.contract()
        #expect(capacitor.usesPromptChannel)
        #expect(capacitor.handlerNames == ["bridge"])
        #expect(capacitor.check?.userScripts[0].file == "native-bridge.js")
        let custom = try LanguageContracts.custom.contract()
        #expect(custom.discriminator == ["type"])
        #expect(custom.frames?.origins == ["https://widgets.example.com", "http://localhost:8080"])
        #expect(
            custom.functionPath(of: try #require(custom.message("update", direction: .nativeToPage))) == custom.receiver
        )
    }

    @Test("a file written for today's format loads and means the same; the default contract writes no new keys")
    func todaysFormat() throws {
        let url = try #require(BridgeContract.defaultContractURL)
        let text = try Data(contentsOf: url)
        let contract = try BridgeContract(jsonData: text)
        #expect(contract == .default)
        #expect(contract.discriminator == ["kind"])
        #expect(contract.frames == nil && contract.check == nil)
        #expect(contract.jsonData() == text)
        for key in ["discriminator", "frames", "check", "match", "body", "transport", "reply", "call"] {
            #expect(!String(decoding: text, as: UTF8.self).contains("\"\(key)\""), "\(key)")
        }
        // A kind-based message is still named by its kind field.
        #expect(contract.validate(["kind": "ready", "version": JS.number(1)]).message?.kind == "ready")
        #expect(
            contract.validate(["kind": "hello"]).violations == [
                ContractViolation(path: "kind", rule: .unknownKind, expected: "one of: ready", found: "String")
            ])
    }

    struct BadDefinition: Sendable, CustomStringConvertible {
        let name: String
        let json: String
        let path: String
        var code: ContractError.Code = .invalidValue
        var description: String { name }
    }

    static func file(_ messages: String, extra: String = "") -> String {
        #"{"handler": "bridge", "receiver": "window.bridgeReceive", "version": 1, "messages": ["#
            + messages + "]" + extra + "}"
    }

    static let toNative = #""direction": "page-to-native""#
    static let toPage = #""direction": "native-to-page""#

    static let badDefinitions: [BadDefinition] = [
        BadDefinition(
            name: "match on a bare message",
            json: file(#"{"kind": "ready", \#(toNative), "body": {"type": "string"}, "match": {"kind": "x"}}"#),
            path: "messages[0].body"),
        BadDefinition(
            name: "fields on a bare message",
            json: file(
                #"{"kind": "ready", \#(toNative), "body": {"type": "string"}, "fields": {"a": {"type": "string"}}}"#),
            path: "messages[0].body"),
        BadDefinition(
            name: "call on a page-to-native message",
            json: file(#"{"kind": "ready", \#(toNative), "call": "window.f"}"#), path: "messages[0].call"),
        BadDefinition(
            name: "handler on a native-to-page message",
            json: file(#"{"kind": "sync", \#(toPage), "handler": "other"}"#), path: "messages[0].handler"),
        BadDefinition(
            name: "reply on a native-to-page message",
            json: file(#"{"kind": "sync", \#(toPage), "reply": {"type": "string"}}"#), path: "messages[0].reply"),
        BadDefinition(
            name: "transport on a native-to-page message",
            json: file(#"{"kind": "sync", \#(toPage), "transport": "prompt"}"#), path: "messages[0].transport"),
        BadDefinition(
            name: "a reply on a prompt that is not a string",
            json: file(#"{"kind": "ask", \#(toNative), "transport": "prompt", "reply": {"type": "boolean"}}"#),
            path: "messages[0].reply"),
        BadDefinition(
            name: "a prompt with a bare body",
            json: file(#"{"kind": "ask", \#(toNative), "transport": "prompt", "body": {"type": "string"}}"#),
            path: "messages[0].transport"),
        BadDefinition(
            name: "a prompt posted to a handler",
            json: file(#"{"kind": "ask", \#(toNative), "transport": "prompt", "handler": "bridge"}"#),
            path: "messages[0].handler"),
        BadDefinition(
            name: "an unknown transport",
            json: file(#"{"kind": "ask", \#(toNative), "transport": "socket"}"#), path: "messages[0].transport"),
        BadDefinition(
            name: "two messages with the same match",
            json: file(
                #"{"kind": "a", \#(toNative), "match": {"type": "x"}}, {"kind": "b", \#(toNative), "match": {"type": "x"}}"#,
                extra: #", "discriminator": "type""#),
            path: "messages[1].match"),
        BadDefinition(
            name: "a match equal to another message's kind",
            json: file(
                #"{"kind": "a", \#(toNative)}, {"kind": "b", \#(toNative), "match": {"kind": "a"}}"#),
            path: "messages[1].match"),
        BadDefinition(
            name: "two bare messages with the same constant",
            json: file(
                #"{"kind": "a", \#(toNative), "body": {"type": "constant", "value": "ready"}}, {"kind": "b", \#(toNative), "body": {"type": "constant", "value": "ready"}}"#
            ),
            path: "messages[1].body"),
        BadDefinition(
            name: "several discriminator fields and a message without match",
            json: file(#"{"kind": "a", \#(toNative)}"#, extra: #", "discriminator": ["component", "event"]"#),
            path: "messages[0].match"),
        BadDefinition(
            name: "an empty match",
            json: file(#"{"kind": "a", \#(toNative), "match": {}}"#), path: "messages[0].match"),
        BadDefinition(
            name: "a match field declared as a field",
            json: file(
                #"{"kind": "a", \#(toNative), "match": {"component": "form", "event": "connect"}, "fields": {"event": {"type": "string"}}}"#,
                extra: #", "discriminator": ["component", "event"]"#),
            path: "messages[0].fields.event"),
        BadDefinition(
            name: "an empty discriminator", json: file("", extra: #", "discriminator": []"#), path: "discriminator"),
        BadDefinition(
            name: "a discriminator that is not a name", json: file("", extra: #", "discriminator": 3"#),
            path: "discriminator", code: .wrongType),
        BadDefinition(
            name: "the request id as a discriminator",
            json: file("", extra: #", "discriminator": "id", "requestID": {"field": "id"}"#), path: "requestID.field"),
        BadDefinition(
            name: "a call that is not a script name",
            json: file(#"{"kind": "a", \#(toPage), "call": "alert(1)"}"#), path: "messages[0].call"),
        BadDefinition(
            name: "a bare message acknowledging",
            json: file(
                #"{"kind": "a", \#(toPage)}, {"kind": "b", \#(toNative), "acknowledges": "a", "body": {"type": "string"}}"#,
                extra: #", "requestID": {"field": "id"}"#),
            path: "messages[1].acknowledges"),
        BadDefinition(
            name: "an origin with a path",
            json: file("", extra: #", "frames": {"origins": ["https://a.example/app"]}"#),
            path: "frames.origins[0]"),
        BadDefinition(
            name: "an origin without a scheme", json: file("", extra: #", "frames": {"origins": ["*", "a.example"]}"#),
            path: "frames.origins[1]"),
        BadDefinition(
            name: "an unknown key in frames", json: file("", extra: #", "frames": {"origin": ["https://a.example"]}"#),
            path: "frames.origin", code: .unknownKey),
        BadDefinition(
            name: "a check step after an unknown message",
            json: file(
                #"{"kind": "sync", \#(toPage), "fields": {"value": {"type": "string"}}}"#,
                extra: #", "check": {"steps": [{"after": "load", "send": "sync", "value": {"value": "x"}}]}"#),
            path: "check.steps[0].after"),
        BadDefinition(
            name: "a check step sending an unknown message",
            json: file(
                #"{"kind": "sync", \#(toPage), "fields": {"value": {"type": "string"}}}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "push"}]}"#),
            path: "check.steps[0].send"),
        BadDefinition(
            name: "a check step whose value breaks the contract",
            json: file(
                #"{"kind": "sync", \#(toPage), "fields": {"value": {"type": "string"}}}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "sync", "value": {"value": 1}}]}"#),
            path: "check.steps[0].value"),
        BadDefinition(
            name: "a check step replying to a message without a reply",
            json: file(
                #"{"kind": "ready", \#(toNative)}"#,
                extra: #", "check": {"steps": [{"after": "ready", "reply": true}]}"#),
            path: "check.steps[0].reply"),
        BadDefinition(
            name: "a check step whose reply breaks the reply type",
            json: file(
                #"{"kind": "ask", \#(toNative), "handler": "native", "reply": {"type": "boolean"}}"#,
                extra: #", "check": {"steps": [{"after": "ask", "reply": "yes"}]}"#),
            path: "check.steps[0].reply"),
        BadDefinition(
            name: "a reply handler's message expected and never answered",
            json: file(
                #"{"kind": "ask", \#(toNative), "handler": "native", "reply": {"type": "boolean"}}, {"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "ask", "send": "sync"}]}"#),
            path: "check.steps"),
        BadDefinition(
            name: "a check step that does nothing",
            json: file(#"{"kind": "ready", \#(toNative)}"#, extra: #", "check": {"steps": [{"after": "ready"}]}"#),
            path: "check.steps[0]"),
        BadDefinition(
            name: "an unknown acceptance",
            json: file(
                #"{"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "sync", "accepted": "eventually"}]}"#),
            path: "check.steps[0].accepted"),
        BadDefinition(
            name: "a user script with both file and source",
            json: file(
                #"{"kind": "sync", \#(toPage)}"#,
                extra:
                    #", "check": {"userScripts": [{"file": "a.js", "source": "x"}], "steps": [{"after": "didFinish", "send": "sync"}]}"#
            ),
            path: "check.userScripts[0]"),
        BadDefinition(
            name: "an expected message that is not a page message",
            json: file(
                #"{"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "sync"}], "expect": ["sync"]}"#),
            path: "check.expect[0]"),
        BadDefinition(
            name: "a discriminator naming one field twice",
            json: file(#"{"kind": "a", \#(toNative)}"#, extra: #", "discriminator": ["kind", "kind"]"#),
            path: "discriminator"),
        // Plays and contracts that mean nothing: refused when read, not passed.
        BadDefinition(
            name: "a play without steps",
            json: file(#"{"kind": "ready", \#(toNative)}"#, extra: #", "check": {"steps": [], "expect": ["ready"]}"#),
            path: "check.steps"),
        BadDefinition(
            name: "a play that expects nothing",
            json: file(
                #"{"kind": "ready", \#(toNative)}, {"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "sync"}], "expect": []}"#),
            path: "check.expect"),
        BadDefinition(
            name: "a play whose steps all follow didFinish and that expects nothing",
            json: file(
                #"{"kind": "ready", \#(toNative)}, {"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "didFinish", "send": "sync"}]}"#),
            path: "check.steps"),
        BadDefinition(
            name: "a message expected twice",
            json: file(
                #"{"kind": "ready", \#(toNative)}, {"kind": "sync", \#(toPage)}"#,
                extra: #", "check": {"steps": [{"after": "ready", "send": "sync"}], "expect": ["ready", "ready"]}"#),
            path: "check.expect[1]"),
        BadDefinition(
            name: "a page message named didFinish",
            json: file(#"{"kind": "ready", \#(toNative)}, {"kind": "didFinish", \#(toNative)}"#),
            path: "messages[1].kind"),
        BadDefinition(
            name: "a bare message of type object",
            json: file(#"{"kind": "ready", \#(toNative), "body": {"type": "object", "fields": {}}}"#),
            path: "messages[0].body"),
        BadDefinition(
            name: "a second bare string message",
            json: file(
                #"{"kind": "a", \#(toNative), "body": {"type": "string"}}, {"kind": "b", \#(toNative), "body": {"type": "string"}}"#
            ),
            path: "messages[1].body"),
        BadDefinition(
            name: "a bare integer after a bare number",
            json: file(
                #"{"kind": "a", \#(toNative), "body": {"type": "number"}}, {"kind": "b", \#(toNative), "body": {"type": "integer"}}"#
            ),
            path: "messages[1].body"),
        BadDefinition(
            name: "a bare array of constants after an array of strings",
            json: file(
                #"{"kind": "a", \#(toNative), "body": {"type": "array", "items": {"type": "string"}}}, {"kind": "b", \#(toNative), "body": {"type": "array", "items": {"type": "constant", "value": "x"}}}"#
            ),
            path: "messages[1].body"),
        BadDefinition(
            name: "an origin with port 0",
            json: file("", extra: #", "frames": {"origins": ["https://a.example:0"]}"#), path: "frames.origins[0]"),
        BadDefinition(
            name: "an origin with port 99999",
            json: file("", extra: #", "frames": {"origins": ["https://a.example:99999"]}"#), path: "frames.origins[0]"),
        BadDefinition(
            name: "a reply value that gives the request id (of the wrong type)",
            json: file(
                #"{"kind": "connect", \#(toNative)}, {"kind": "connected", \#(toPage), "acknowledges": "connect"}"#,
                extra:
                    #", "requestID": {"field": "id"}, "check": {"steps": [{"after": "connect", "send": "connected", "value": {"id": 1}}]}"#
            ),
            path: "check.steps[0].value.id"),
        BadDefinition(
            name: "a reply value with another discriminator value",
            json: file(
                #"{"kind": "connect", \#(toNative)}, {"kind": "connected", \#(toPage), "acknowledges": "connect"}"#,
                extra:
                    #", "requestID": {"field": "id"}, "check": {"steps": [{"after": "connect", "send": "connected", "value": {"kind": "connect"}}]}"#
            ),
            path: "check.steps[0].value.kind"),
    ]

    @Test("every definition error is refused, naming its JSON path and a remedy", arguments: badDefinitions)
    func badDefinition(_ bad: BadDefinition) {
        do {
            _ = try BridgeContract(jsonData: Data(bad.json.utf8))
            Issue.record("accepted \(bad.name)")
        } catch {
            #expect(error.path == bad.path)
            #expect(error.code == bad.code)
            #expect(!error.remedy.isEmpty)
            #expect(error.description.hasPrefix(bad.path + ": "))
        }
    }

    @Test("a narrower bare type before a wider one, and a value that repeats its own discriminator, still load")
    func meaningfulNeighboursLoad() throws {
        let toNative = Self.toNative
        let toPage = Self.toPage
        let contract = try BridgeContract(
            jsonData: Data(
                Self.file(
                    #"{"kind": "whole", \#(toNative), "body": {"type": "integer"}}, {"kind": "any", \#(toNative), "body": {"type": "number"}}, {"kind": "connect", \#(toNative)}, {"kind": "connected", \#(toPage), "acknowledges": "connect"}"#,
                    extra:
                        #", "requestID": {"field": "id"}, "frames": {"origins": ["https://a.example:65535"]}, "check": {"steps": [{"after": "connect", "send": "connected", "value": {"kind": "connected"}}]}"#
                ).utf8))
        #expect(contract.validate(1.5, direction: .pageToNative).message?.kind == "any")
        #expect(contract.validate(2, direction: .pageToNative).message?.kind == "whole")
    }

    @Test("an unknown value is blamed on the discriminator field that names no message, not on the first")
    func unknownValueBlamesItsField() throws {
        let toNative = Self.toNative
        let contract = try BridgeContract(
            jsonData: Data(
                Self.file(
                    #"{"kind": "deviceGetInfo", \#(toNative), "match": {"type": "message", "pluginId": "Device"}}, {"kind": "jsError", \#(toNative), "match": {"type": "js.error"}}"#,
                    extra: #", "discriminator": "type""#
                ).utf8))
        let violation = try #require(contract.validate(["type": "message", "pluginId": "Keyboard"]).violations.first)
        #expect(violation.path == "pluginId", "\(violation)")
        #expect(violation.rule == .unknownKind)
    }

    @Test("optional on a body or a reply is refused as such, not as an array element")
    func optionalBodyOrReply() {
        let toNative = Self.toNative
        for key in ["body", "reply"] {
            let json = Self.file(
                #"{"kind": "a", \#(toNative), "handler": "native", "\#(key)": {"type": "string", "optional": true}}"#)
            do {
                _ = try BridgeContract(jsonData: Data(json.utf8))
                Issue.record("accepted an optional \(key)")
            } catch {
                #expect(error.path == "messages[0].\(key).optional", "\(error)")
                #expect(!error.problem.contains("array"), "\(error)")
                #expect(error.problem.contains(key), "\(error)")
            }
        }
    }

    @Test("the most specific match wins, whatever the declaration order")
    func mostSpecificMatch() throws {
        let contract = try LanguageContracts.capacitor.contract()
        let getInfo: [String: Any] = [
            "type": "message", "callbackId": "1", "pluginId": "Device", "methodName": "getInfo", "options": [:],
        ]
        #expect(contract.validate(getInfo).message?.kind == "deviceGetInfo")
        var other = getInfo
        other["pluginId"] = "App"
        #expect(contract.validate(other).message?.kind == "pluginCall")
        var reordered = contract
        reordered.messages.reverse()
        #expect(reordered.validate(getInfo).message?.kind == "deviceGetInfo")
        #expect(reordered.validate(other).message?.kind == "pluginCall")
    }

    @Test("a bare array argument whose nested objects break the contract is not accepted")
    func bareArrayOfObjects() throws {
        let contract = try LanguageContracts.custom.contract()
        let good: [Any] = [["type": "x", "n": JS.number(1)]]
        let bad: [Any] = [["type": "x", "n": "1"]]
        let extra: [Any] = [["type": "x", "n": JS.number(1), "more": JS.boolean(true)]]
        #expect(contract.validate(good, direction: .nativeToPage).message?.kind == "batch")
        // The one array message of the channel shows where the array breaks it.
        #expect(
            contract.validate(bad, direction: .nativeToPage).violations == [
                ContractViolation(
                    path: "body[0].n", rule: .wrongType, expected: "Integer", found: "String", direction: .nativeToPage)
            ])
        #expect(
            contract.validate(extra, direction: .nativeToPage).violations == [
                ContractViolation(
                    path: "body[0].more", rule: .unexpectedField, expected: "no such field", found: "Boolean",
                    direction: .nativeToPage)
            ])
        #expect(contract.validate(extra, direction: .nativeToPage, mode: .lenient).message?.kind == "batch")
        // Named, the same argument shows where it breaks.
        let batch = try #require(contract.message("batch", direction: .nativeToPage))
        #expect(
            contract.validate(bad, as: batch).violations == [
                ContractViolation(
                    path: "body[0].n", rule: .wrongType, expected: "Integer", found: "String", direction: .nativeToPage)
            ])
    }

    @Test("an unmatched discriminator names the type that came, and a missing one in a named message is missing")
    func unmatchedDiscriminator() throws {
        let contract = BridgeContract(
            version: 1, handler: "bridge", receiver: "window.bridgeReceive",
            messages: [
                MessageSpec(kind: "v1", direction: .pageToNative, match: ["v": .number(1)]),
                MessageSpec(kind: "v2", direction: .nativeToPage, match: ["v": .number(2)]),
            ], discriminator: ["v"])
        #expect(
            contract.validate(["v": JS.number(3)]).violations == [
                ContractViolation(path: "v", rule: .unknownKind, expected: "one of: v1", found: "Number")
            ])
        #expect(
            contract.validate(["v": JS.number(2)]).violations == [
                ContractViolation(path: "v", rule: .wrongDirection, expected: "one of: v1", found: "Number")
            ])
        #expect(
            contract.validate(["v": "1"]).violations == [
                ContractViolation(path: "v", rule: .wrongType, expected: "Number, one of: v1", found: "String")
            ])
        #expect(
            contract.validate([String: Any]()).violations == [
                ContractViolation(path: "v", rule: .missingField, expected: "Number, one of: v1", found: "Missing")
            ])
        let v2 = try #require(contract.message("v2", direction: .nativeToPage))
        #expect(
            contract.validate([String: Any](), as: v2).violations == [
                ContractViolation(
                    path: "v", rule: .missingField, expected: "Number 2", found: "Missing", direction: .nativeToPage)
            ])
    }

    @Test("a message is matched only among those of its handler and transport")
    func handlerAndTransport() throws {
        let replies = try LanguageContracts.replyHandler.contract()
        let getUser: [String: Any] = ["kind": "getUser", "userId": JS.number(7)]
        #expect(
            replies.validate(getUser, direction: .pageToNative, mode: .strict, handler: "native").message?.kind
                == "getUser")
        #expect(
            replies.validate(getUser).violations == [
                ContractViolation(path: "kind", rule: .unknownKind, expected: "one of: ready", found: "String")
            ])
        let capacitor = try LanguageContracts.capacitor.contract()
        let cookies = ["type": "CapacitorCookies.isEnabled"]
        #expect(
            capacitor.validate(cookies, direction: .pageToNative, mode: .strict, handler: nil, transport: .prompt)
                .message?.kind == "cookiesEnabled")
        #expect(capacitor.validate(cookies).violations.first?.rule == .missingField)
        let reply = try #require(capacitor.message("cookiesEnabled", direction: .pageToNative)?.reply)
        #expect(capacitor.validate("true", as: reply, path: "reply").isEmpty)
        #expect(
            capacitor.validate(true, as: reply, path: "reply") == [
                ContractViolation(
                    path: "reply", rule: .wrongType, expected: "String", found: "Boolean", direction: .nativeToPage)
            ])
    }

    @Test("lock and diff see the new keys: a changed match, body, handler or call breaks; the check section never does")
    func diffOfTheLanguage() throws {
        let hotwire = try LanguageContracts.hotwire.contract()
        var changed = hotwire
        changed.messages[4].body = .array(.integer)
        changed.messages[1].match = ["component": .string("form"), "event": .string("open")]
        changed.messages[5].call = "window.nativeBridge.answer"
        changed.check = nil
        changed.frames = FrameRule(origins: ["https://a.example"])
        let diff = ContractDiff(locked: hotwire, current: changed)
        #expect(
            diff.changes.map { "\($0.compatibility) \($0.path)" } == [
                "compatible frames.origins", "incompatible formConnect.match", "incompatible register.body",
                "incompatible formConnected.call",
            ])
        #expect(!diff.passes)
        var replayed = hotwire
        replayed.check?.steps.removeLast()
        #expect(ContractDiff(locked: hotwire, current: replayed).changes.isEmpty)
        #expect(ContractLock(contract: hotwire).contract.check == nil)
        let replies = try LanguageContracts.replyHandler.contract()
        var moved = replies
        moved.messages[1].handler = "bridge"
        moved.messages[2].reply = .string
        #expect(
            ContractDiff(locked: replies, current: moved).changes.map(\.path) == ["getUser.handler", "save.reply"])
    }

    @Test("a frame rule accepts the main frame and declared origins, and names any other frame")
    func frames() throws {
        let custom = try LanguageContracts.custom.contract()
        #expect(custom.frameViolation(isMainFrame: true, origin: "https://evil.example") == nil)
        #expect(custom.frameViolation(isMainFrame: false, origin: "https://widgets.example.com") == nil)
        #expect(custom.frameViolation(isMainFrame: false, origin: "http://localhost:8080") == nil)
        let violation = try #require(custom.frameViolation(isMainFrame: false, origin: "https://evil.example"))
        #expect(violation.rule == .wrongFrame)
        #expect(violation.found == "a frame of https://evil.example")
        #expect(violation.expected == "the main frame or a frame of https://widgets.example.com, http://localhost:8080")
        #expect(custom.frameViolation(isMainFrame: false, origin: "")?.found == "a frame with an opaque origin")
        #expect(
            custom.frameViolation(isMainFrame: false, origin: FrameRule.fileOrigin)?.found.hasPrefix(
                "a frame of a file: page") == true)
        #expect(
            BridgeContract.default.frameViolation(isMainFrame: false, origin: "http://127.0.0.1")?.expected
                == "the main frame")
        #expect(FrameRule.origin(scheme: "HTTPS", host: "A.example", port: 443) == "https://a.example")
    }
}

@Suite("Docs/CONTRACT.md's examples")
struct ContractDocumentationTests {
    static let document: String? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Docs/CONTRACT.md").standardizedFileURL
        return (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
    }()

    /// The text of the first fenced block of `language` after `heading`.
    static func block(after heading: String, language: String = "json") throws -> String {
        let text = try #require(document, "Docs/CONTRACT.md is not beside the tests")
        let section = try #require(text.range(of: heading), "no heading \(heading)")
        let fence = try #require(text.range(of: "```\(language)\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: fence.upperBound..<text.endIndex))
        return String(text[fence.upperBound..<end.lowerBound])
    }

    @Test("the default contract shown is the bundled file, byte for byte")
    func defaultContract() throws {
        let url = try #require(BridgeContract.defaultContractURL)
        #expect(
            try Self.block(after: "## The contract file") == String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    @Test("the complete Hotwire-style contract loads and means what the text says")
    func hotwireExample() throws {
        let contract = try BridgeContract(
            jsonData: Data(try Self.block(after: "### A complete Hotwire-style contract").utf8))
        #expect(contract.discriminator == ["component", "event"])
        #expect(contract.validate("ready").message?.kind == "ready")
        let connect: [String: Any] = [
            "id": "1", "component": "form", "event": "connect",
            "data": ["submitTitle": "Save", "metadata": ["url": "https://a.example"]],
        ]
        #expect(contract.validate(connect).message?.requestID == "1")
        let menu: [String: Any] = [
            "id": "2", "component": "menu", "event": "display",
            "data": ["title": "T", "items": [["title": "a", "index": JS.number(0)]], "metadata": ["url": "u"]],
        ]
        #expect(contract.validate(menu).message?.kind == "menuDisplay")
        let register = try #require(contract.message("register", direction: .nativeToPage))
        #expect(
            contract.validate(["form", JS.number(1)], as: register).violations == [
                ContractViolation(
                    path: "body[1]", rule: .wrongType, expected: "String", found: "Number", direction: .nativeToPage)
            ])
        #expect(contract.check?.expectedMessages == ["ready", "formConnect"])
    }

    @Test("the violations and errors shown are the library's own text")
    func shownTexts() throws {
        let text = try #require(Self.document)
        let custom = try LanguageContracts.custom.contract()
        let frame = try #require(custom.frameViolation(isMainFrame: false, origin: "https://evil.example"))
        #expect(text.contains("\n\(frame.description)\n"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("bridge.json")
        try Data(
            ContractLanguageTests.file(
                #"{"kind": "a", "direction": "page-to-native", "match": {"type": "x"}}, {"kind": "b", "direction": "page-to-native", "match": {"type": "x"}}"#,
                extra: #", "discriminator": "type""#
            ).utf8
        ).write(to: url)
        do {
            _ = try BridgeContract.load(contentsOf: url)
            Issue.record("accepted two messages with the same match")
        } catch {
            let shown = error.description.replacingOccurrences(of: directory.path + "/", with: "")
            #expect(text.contains("\n\(shown)\n"), "\(shown)")
        }
    }
}
