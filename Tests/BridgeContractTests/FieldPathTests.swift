import Foundation
import Testing

@testable import BridgeContract

/// Paths: the request id, `echo` and correlation rules name a nested field, an element, or a place inside JSON text.
@Suite("Paths")
struct FieldPathTests {
    private func lines(_ validation: Validation) -> [String] {
        validation.violations.map { "\($0.path) \($0.rule.rawValue) \($0.expected) / \($0.found)" }
    }

    /// The load error of a contract file, as its description reads.
    private func loadError(_ json: String) -> String? {
        do {
            _ = try BridgeContract(jsonData: Data(json.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a path is written with dots, [n] or n for elements, and (json) inside text")
    func parsing() {
        #expect(FieldPath.tokens("id") == [.name("id")])
        #expect(FieldPath.tokens("data.identifier") == [.name("data"), .name("identifier")])
        #expect(FieldPath.tokens("[0]") == [.index(0)])
        #expect(FieldPath.tokens("body[0]") == [.name("body"), .index(0)])
        #expect(FieldPath.tokens("items[2].name") == [.name("items"), .index(2), .name("name")])
        #expect(FieldPath.tokens("payload(json).id") == [.name("payload"), .text, .name("id")])
        for broken in ["", "a..b", "a.", ".a", "a[", "a[x]", "a[]", "a]b.", "a[0]b"] {
            #expect(FieldPath.tokens(broken) == nil, "\(broken)")
        }
        // A bare name is a top-level field, whatever it holds: what contracts meant before paths.
        #expect(FieldPath.isPath("callback(json)") == false)
    }

    @Test("a path resolves in the declared shape: nested, element, inside JSON text")
    func resolving() throws {
        let nested = try LanguageContracts.nestedPath.contract()
        let element = try LanguageContracts.elementPath.contract()
        let text = try LanguageContracts.textPath.contract()
        let completed = try #require(nested.message("visitCompleted", direction: .pageToNative))
        #expect(completed.requestIDPath?.description == "data.identifier")
        #expect(completed.requestIDPath?.steps == [.key("data"), .key("identifier")])
        let exec = try #require(element.message("exec", direction: .pageToNative))
        #expect(exec.requestIDPath?.description == "body[0]")
        #expect(exec.requestIDPath?.steps == [.index(0)])
        // `[0]`, `0` and `body[0]` name the same element.
        for written in ["[0]", "0", "body[0]", "body.0"] {
            #expect(try FieldPath.resolve(written, in: exec).path.steps == [.index(0)], "\(written)")
        }
        #expect(try FieldPath.resolve("[3][1]", in: exec).path.description == "body[3][1]")
        let call = try #require(text.message("call", direction: .pageToNative))
        #expect(call.requestIDPath?.description == "payload(json).id")
        #expect(call.requestIDPath?.steps == [.key("payload"), .text, .key("id")])
        #expect(try FieldPath.resolve("payload(json).id", in: call).path == call.requestIDPath)
        // A bare name keeps meaning the top-level field, carried implicitly.
        let custom = BridgeContract(
            version: 1, handler: "bridge", receiver: "window.bridgeReceive",
            messages: [
                MessageSpec(kind: "ping", direction: .nativeToPage),
                MessageSpec(kind: "pong", direction: .pageToNative, acknowledges: "ping"),
            ],
            requestID: RequestIDSpec(field: "id"))
        let ack = try #require(custom.messages.first { $0.acknowledges != nil })
        #expect(ack.requestIDPath == FieldPath(field: "id"))
        #expect(ack.requestIDField == "id")
    }

    @Test("the validator reads the id at its path; a wrong or empty one names the path")
    func validating() throws {
        let nested = try LanguageContracts.nestedPath.contract()
        let completed = nested.validate(["name": "visitCompleted", "data": ["identifier": "v1"]])
        #expect(completed.message?.requestID == "v1")
        #expect(completed.message?.description == "visitCompleted {data: {identifier: String}, name: String}")
        #expect(
            lines(nested.validate(["name": "visitCompleted", "data": ["identifier": 7]])) == [
                "data.identifier wrong-type String / Number"
            ])
        #expect(
            lines(nested.validate(["name": "visitCompleted", "data": ["identifier": ""]])) == [
                "data.identifier empty-request-id String (request id) / String"
            ])
        // A message that carries no request id has none, whatever its fields hold.
        #expect(nested.validate(["name": "visitRendered", "data": ["identifier": "v1"]]).message?.requestID == nil)

        let element = try LanguageContracts.elementPath.contract()
        #expect(element.validate(["Device7", "Device", "getDeviceInfo", [Any]()]).message?.requestID == "Device7")
        #expect(
            lines(element.validate([7, "Device", "getDeviceInfo", [Any]()])) == ["body[0] wrong-type String / Number"])
        #expect(
            lines(element.validate(["", "Device", "getDeviceInfo", [Any]()])) == [
                "body[0] empty-request-id String (request id) / String"
            ])
        let result = try #require(element.message("result", direction: .nativeToPage))
        #expect(element.validate(["Device7", 1, NSNull()], as: result).message?.requestID == "Device7")

        let text = try LanguageContracts.textPath.contract()
        let call = text.validate(["kind": "call", "payload": #"{"id": "c1", "method": "getUser"}"#])
        #expect(call.message?.requestID == "c1")
        #expect(
            lines(text.validate(["kind": "call", "payload": #"{"id": 1, "method": "getUser"}"#])) == [
                "payload(json).id wrong-type String / Number"
            ])
        #expect(
            lines(text.validate(["kind": "call", "payload": #"{"id": "", "method": "getUser"}"#])) == [
                "payload(json).id empty-request-id String (request id) / String"
            ])
    }

    @Test("native's message gets the request id at its path")
    func outgoing() throws {
        let nested = try LanguageContracts.nestedPath.contract()
        let visit = try #require(nested.message("visit", direction: .nativeToPage))
        let body = nested.outgoing(
            visit, value: .object(["data": .object(["location": .string("/two")])]), requestID: "r-1")
        #expect(nested.validate(body, as: visit).message?.requestID == "r-1")
        let element = try LanguageContracts.elementPath.contract()
        let result = try #require(element.message("result", direction: .nativeToPage))
        let answer = element.outgoing(result, value: .array([.null, .number(1), .null]), requestID: "Device7")
        #expect(element.validate(answer, as: result).message?.requestID == "Device7")
        let text = try LanguageContracts.textPath.contract()
        let answerSpec = try #require(text.message("answer", direction: .nativeToPage))
        let inText = text.outgoing(answerSpec, value: .object(["payload": .string(#"{"value": 1}"#)]), requestID: "c1")
        #expect(text.validate(inText, as: answerSpec).message?.requestID == "c1")
    }

    @Test("echo copies the value at a path of the trigger to the same path")
    func echo() throws {
        let nested = try LanguageContracts.nestedPath.contract()
        let trigger = try #require(
            nested.validate(["name": "visitStarted", "data": ["identifier": "v9", "hasCachedSnapshot": true]]).message)
        let echoed = nested.echoing(
            ["data.identifier"], of: trigger, into: .object(["data": .object(["location": .string("/two")])]))
        #expect(echoed == .object(["data": .object(["location": .string("/two"), "identifier": .string("v9")])]))
        let element = try LanguageContracts.elementPath.contract()
        let command = try #require(element.validate(["Device7", "Device", "getDeviceInfo", [Any]()]).message)
        #expect(element.echoing(["body[0]"], of: command, into: .array([])) == .array([.string("Device7")]))
        let text = try LanguageContracts.textPath.contract()
        let call = try #require(text.validate(["kind": "call", "payload": #"{"id": "c1", "method": "m"}"#]).message)
        #expect(
            text.echoing(["payload.method"], of: call, into: .object([:]))
                == .object(["payload": .string(#"{"method":"m"}"#)]))
    }

    @Test("a path that names nothing is refused at load with the field, the rule and the remedy")
    func refusedAtLoad() throws {
        let nested = LanguageContracts.nestedPath.json
        let misspelt = try #require(
            loadError(
                nested.replacingOccurrences(of: #""field": "data.identifier"}"#, with: #""field": "data.ident"}"#)))
        #expect(
            misspelt.contains(
                #"requestID.field: "visit" carries the request id, and data has no field "ident" (invalid-value). Remedy: name one of its fields: identifier, location"#
            ), "\(misspelt)")
        let intoScalar = try #require(
            loadError(
                nested.replacingOccurrences(
                    of: #""field": "data.identifier"}"#, with: #""field": "data.identifier.value"}"#)))
        #expect(
            intoScalar.contains("data.identifier is declared String, which has no field \"value\""), "\(intoScalar)")
        let element = LanguageContracts.elementPath.json
        let pastTheEnd = try #require(
            loadError(element.replacingOccurrences(of: #""field": "body[0]""#, with: #""field": "body[4]""#)))
        #expect(
            pastTheEnd.contains(
                #"requestID.field: "exec" carries the request id, and body has 4 elements, so no [4] (invalid-value). Remedy: name an element from [0] to [3]"#
            ), "\(pastTheEnd)")
        let notString = try #require(
            loadError(element.replacingOccurrences(of: #""field": "body[0]""#, with: #""field": "[3]""#)))
        #expect(
            notString.contains(
                #"requestID.field: the request id at "exec"'s body[3] is declared Array of Any; a request id is a String"#
            ),
            "\(notString)")
        let unparsable = try #require(
            loadError(element.replacingOccurrences(of: #""field": "body[0]""#, with: #""field": "body[x]""#)))
        #expect(unparsable.contains(#"requestID.field: "body[x]" is not a path"#), "\(unparsable)")
        let text = LanguageContracts.textPath.json
        let inText = try #require(
            loadError(text.replacingOccurrences(of: #""field": "payload.id""#, with: #""field": "payload.ID""#)))
        #expect(inText.contains(#"payload(json) has no field "ID""#), "\(inText)")
    }

    @Test("correlation and echo paths are checked at load too")
    func referencesRefused() throws {
        let nested = LanguageContracts.nestedPath.json
        let field = try #require(
            loadError(
                nested.replacingOccurrences(
                    of: #""correlation": {"field": "data.identifier""#, with: #""correlation": {"field": "data.id""#)))
        #expect(
            field.contains(
                #"messages[2].correlation.field: data has no field "id" (invalid-value). Remedy: name one of its fields: identifier"#
            ),
            "\(field)")
        let message = try #require(
            loadError(nested.replacingOccurrences(of: #""message": "visitStarted""#, with: #""message": "visitStart""#))
        )
        #expect(
            message.contains(#"messages[2].correlation.message: "visitStart" is not another message of the contract"#),
            "\(message)")
        let object = try #require(
            loadError(
                nested.replacingOccurrences(
                    of: #""correlation": {"field": "data.identifier""#, with: #""correlation": {"field": "data""#)))
        #expect(object.contains("data is declared Object: a correlated field is one value"), "\(object)")
        let echo = nested.replacingOccurrences(
            of: "\n  ]\n}",
            with: "\n  ],\n  \"check\": {\"steps\": [{\"after\": \"visitStarted\", \"send\": \"visit\", "
                + "\"value\": {\"data\": {\"location\": \"/two\"}}, \"echo\": [\"data.identifer\"]}]}\n}")
        let echoError = try #require(loadError(echo))
        #expect(
            echoError.contains(
                #"check.steps[0].echo: "visitStarted": data has no field "identifer" (invalid-value). Remedy: name one of its fields: hasCachedSnapshot, identifier"#
            ), "\(echoError)")
        #expect(loadError(echo.replacingOccurrences(of: "data.identifer", with: "data.identifier")) == nil)
    }

    @Test("a correlation rule matches the open value; stale, wrong and repeated values are late, unknown, duplicate")
    func correlating() throws {
        let contract = try LanguageContracts.nestedPath.contract()
        var correlator = ValueCorrelator()
        func arrive(_ name: String, _ identifier: String) throws -> Correlation? {
            let body: [String: Any] = ["name": name, "data": ["identifier": identifier, "hasCachedSnapshot": false]]
            let message = try #require(contract.validate(body, mode: .lenient).message, "\(name)")
            let settled = correlator.settle(message, in: contract)?.correlation
            correlator.opened(message.jsonValue, kind: name, in: contract)
            return settled
        }
        // Rendered must repeat the open visit's identifier; it does not settle it.
        #expect(try arrive("visitRendered", "v1") == .unknown)
        #expect(try arrive("visitStarted", "v1") == nil)
        #expect(try arrive("visitRendered", "v1") == .matched)
        #expect(try arrive("visitRendered", "v1") == .matched)
        #expect(try arrive("visitRendered", "v0") == .unknown)
        // A second visit supersedes the first: a message of the first is late.
        #expect(try arrive("visitStarted", "v2") == nil)
        #expect(try arrive("visitRendered", "v1") == .late)
        #expect(try arrive("visitRendered", "v2") == .matched)
        // A settling rule: the second answer with the same value is a double callback.
        var settling = contract
        settling.messages[2].correlation = CorrelationRule(field: "data.identifier", message: "visitStarted")
        correlator = ValueCorrelator()
        let started = try #require(
            settling.validate(["name": "visitStarted", "data": ["identifier": "v3", "hasCachedSnapshot": true]]).message
        )
        correlator.opened(started.jsonValue, kind: "visitStarted", in: settling)
        let rendered = try #require(settling.validate(["name": "visitRendered", "data": ["identifier": "v3"]]).message)
        #expect(correlator.settle(rendered, in: settling)?.correlation == .matched)
        #expect(correlator.settle(rendered, in: settling)?.correlation == .duplicate)
        #expect(correlator.settle(rendered, in: settling)?.rule.field == "data.identifier")
        // The earlier message may be native's: what the check sent opens the value.
        var fromNative = contract
        fromNative.messages[2].correlation = CorrelationRule(field: "data.identifier", message: "visit")
        correlator = ValueCorrelator()
        let visit = try #require(fromNative.message("visit", direction: .nativeToPage))
        let sent = fromNative.outgoing(
            visit, value: .object(["data": .object(["identifier": .string("v4"), "location": .string("/")])]),
            requestID: nil)
        #expect(correlator.settle(rendered, in: fromNative)?.correlation == .unknown)
        correlator.sent(sent, as: visit, in: fromNative)
        let fourth = try #require(fromNative.validate(["name": "visitRendered", "data": ["identifier": "v4"]]).message)
        #expect(correlator.settle(fourth, in: fromNative)?.correlation == .matched)
    }

    @Test("Docs/CONTRACT.md's Paths section shows the library's own load error, and its rule loads")
    func documented() throws {
        let text = try #require(ContractDocumentationTests.document)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("bridge.json")
        try Data(
            LanguageContracts.nestedPath.json.replacingOccurrences(
                of: #""field": "data.identifier"}"#, with: #""field": "data.ident"}"#
            ).utf8
        ).write(to: url)
        do {
            _ = try BridgeContract.load(contentsOf: url)
            Issue.record("accepted a request-id path that names nothing")
        } catch {
            let shown = error.description.replacingOccurrences(of: directory.path + "/", with: "")
            #expect(text.contains("\n\(shown)\n"), "\(shown)")
        }
        // The rule shown, with the message it names, loads and resolves both paths.
        let block = try ContractDocumentationTests.block(after: "**Correlation.**")
        let started =
            #"{"kind": "visitStarted", "direction": "page-to-native", "fields": {"data": {"type": "object", "#
            + #""fields": {"identifier": {"type": "string"}}}}}"#
        let contract = try BridgeContract(
            jsonData: Data(
                ContractLanguageTests.file(started + ", " + block, extra: #", "discriminator": "name""#).utf8))
        let rule = try #require(contract.message("visitCompleted", direction: .pageToNative)?.correlation)
        #expect(rule.paths?.field.description == "data.identifier")
        #expect(rule.paths?.messageField.description == "data.identifier")
    }

    @Test("a discriminator or a match names a nested field or a place inside JSON text")
    func discriminatorPaths() throws {
        let nested = try LanguageContracts.nestedDiscriminator.contract()
        func check(_ contract: BridgeContract, _ json: String, _ direction: Direction = .pageToNative) throws
            -> Validation
        {
            let body = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            return contract.validate(body, direction: direction, mode: .strict)
        }
        #expect(try check(nested, #"{"data": {"type": "scroll", "y": 1}}"#).message?.kind == "scroll")
        #expect(
            lines(try check(nested, #"{"data": {"type": "zoom", "y": 1}}"#))
                == ["data.type unknown-kind one of: visit, scroll / String"])
        #expect(
            lines(try check(nested, #"{"data": {"y": 1}}"#))
                == ["data.type missing-field String, one of: visit, scroll / Missing"])
        #expect(lines(try check(nested, #"{"data": {"type": 2}}"#)).first?.hasPrefix("data.type wrong-type") == true)
        // A top-level `type` names nothing: the discriminator is the nested one.
        #expect(lines(try check(nested, #"{"type": "visit", "data": {"location": "/"}}"#)).count == 1)
        // Native's message gets its discriminator value at its path.
        let render = try #require(nested.message("render", direction: .nativeToPage))
        let sent = nested.outgoing(render, value: .object(["data": .object(["html": .string("<p>")])]), requestID: nil)
        #expect(nested.validate(sent, as: render).message?.kind == "render")
        #expect(
            lines(nested.validate(["data": ["html": "<p>"]], as: render))
                == [#"data.type missing-field String "render" / Missing"#])

        let text = try LanguageContracts.textDiscriminator.contract()
        #expect(try check(text, #"{"payload": "{\"type\": \"event\", \"name\": \"tap\"}"}"#).message?.kind == "event")
        #expect(
            lines(try check(text, #"{"payload": "{\"type\": \"ping\", \"name\": \"tap\"}"}"#))
                == ["payload(json).type unknown-kind one of: call, event / String"])
        #expect(
            lines(try check(text, #"{"payload": "not json"}"#))
                == ["payload(json).type missing-field String, one of: call, event / Missing"])
    }

    @Test("a discriminator path that names nothing, or a place its value can't be, is refused at load")
    func discriminatorPathErrors() throws {
        let json = LanguageContracts.nestedDiscriminator.json
        let missing = try #require(loadError(json.replacingOccurrences(of: #""data.type""#, with: #""data.kind""#)))
        #expect(missing.contains("discriminator"), "\(missing)")
        #expect(missing.contains(#"the discriminator path "data.kind" names nothing in "visit""#), "\(missing)")
        #expect(missing.contains("has no field \"kind\""), "\(missing)")
        #expect(missing.contains("Remedy: name one of its fields"), "\(missing)")
        // `render`'s data.type is the constant "render": a message of kind "draw" could never be named there.
        let constant = try #require(
            loadError(json.replacingOccurrences(of: #""kind": "render""#, with: #""kind": "draw""#)))
        #expect(
            constant.contains(#""draw" is named by String at data.type, which is declared String "render""#),
            "\(constant)")
        let text = LanguageContracts.textDiscriminator.json
        let inText = try #require(
            loadError(
                text.replacingOccurrences(of: "payload(json).type\": \"event", with: "payload(json).kind\": \"event")))
        #expect(inText.contains("messages[1].match"), "\(inText)")
        #expect(inText.contains("has no field \"kind\""), "\(inText)")
    }
}
