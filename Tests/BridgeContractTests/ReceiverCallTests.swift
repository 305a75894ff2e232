import BridgeContract
import BridgeTestData
import Foundation
import Testing

let hostileStrings = HostileStrings.corpus

@Suite("Native to page script")
struct ReceiverCallTests {
    @Test("decoding the script's argument gives back the same string", arguments: hostileStrings.indices)
    func roundTrip(_ index: Int) throws {
        let text = hostileStrings[index]
        let call = try ReceiverCall(message: ["kind": "sync", "value": text])
        #expect(call.script.hasPrefix("window.bridgeReceive("))
        #expect(call.script.hasSuffix(")"))
        #expect(call.script == "window.bridgeReceive(\(call.argument))")
        // Raw U+2028/9 end a line in older JavaScript, and a raw newline would split the call.
        for terminator: Unicode.Scalar in ["\u{2028}", "\u{2029}", "\u{FEFF}", "\n", "\r", "\u{0}"] {
            #expect(
                !call.script.unicodeScalars.contains(terminator),
                "raw U+\(String(terminator.value, radix: 16)) in the script")
        }
        #expect(!call.script.contains("</script>"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(call.argument.utf8)) as? [String: Any])
        #expect(decoded["kind"] as? String == "sync")
        #expect(decoded["value"] as? String == text)
        #expect(decoded.count == 2)
    }

    @Test("a corpus of at least 30 hostile strings, 1 MB included")
    func corpusSize() {
        #expect(hostileStrings.count >= 30)
        #expect(hostileStrings.contains { $0.utf8.count >= 1 << 20 })
    }

    @Test("a lone surrogate arrives as U+FFFD: a Swift String can't hold one")
    func loneSurrogate() throws {
        let text = String(decoding: [0x61, 0xD800, 0x62] as [UInt16], as: UTF16.self)
        let call = try ReceiverCall(message: ["kind": "sync", "value": text])
        let decoded = try JSONSerialization.jsonObject(with: Data(call.argument.utf8)) as? [String: Any]
        #expect(decoded?["value"] as? String == "a\u{FFFD}b")
    }

    @Test("U+2028 and U+2029 are escaped as \\u2028 and \\u2029")
    func lineSeparatorsEscaped() throws {
        let call = try ReceiverCall(message: ["kind": "sync", "value": "a\u{2028}b\u{2029}c"])
        #expect(call.script == #"window.bridgeReceive({"kind":"sync","value":"a\u2028b\u2029c"})"#)
    }

    @Test("a message that breaks the native-to-page contract is refused with its violations")
    func contractChecked() {
        #expect(
            throws: ContractError(
                code: .violatesContract,
                violations: [
                    ContractViolation(
                        path: "value", rule: .wrongType, expected: "String", found: "Number", direction: .nativeToPage)
                ])
        ) {
            try ReceiverCall(message: ["kind": "sync", "value": 42])
        }
        #expect(throws: ContractError.self) { try ReceiverCall(message: ["kind": "ready", "version": 1]) }
    }

    @Test(
        "the send-side check (violations only, no typed copy) refuses exactly what full validation refuses",
        arguments: LanguageContracts.all)
    func sendSideCheckMatchesValidation(_ example: LanguageContracts.Example) throws {
        let contract = try example.contract()
        var bodies: [String] = []
        for json in example.valid.keys.sorted().flatMap({ example.valid[$0]! }) {
            for body in try ParityBodies.variants(of: json) where !bodies.contains(body) { bodies.append(body) }
        }
        var checked = 0
        for body in bodies {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            guard case .object(let object) = value else { continue }
            let message = object.mapValues(Self.sendable)
            let expected = contract.validate(value.foundationValue, direction: .nativeToPage, mode: .strict).violations
            do {
                _ = try ReceiverCall(contract: contract, message: message, encoder: .jsonWriter)
                #expect(expected.isEmpty, "\(example): refused by validation, sent by ReceiverCall: \(expected)")
            } catch {
                #expect(error.violations == expected, "\(example)")
            }
            checked += 1
        }
        #expect(checked >= 10, "\(example): only \(checked) object bodies")
    }

    /// A JSON value as a caller of `ReceiverCall(contract:message:)` holds it.
    static func sendable(_ value: JSONValue) -> any Sendable {
        switch value {
        case .null: NSNull()
        case .boolean(let flag): flag
        case .number(let number): number
        case .string(let text): text
        case .array(let items): items.map(sendable)
        case .object(let fields): fields.mapValues(sendable)
        }
    }

    @Test("a message with a request id is written with its keys in order, and logged as its structure")
    func requestIDMessage() throws {
        let contract = BridgeContract(
            version: 1, handler: "bridge", receiver: "window.bridgeReceive",
            messages: [
                MessageSpec(kind: "ready", direction: .pageToNative, acknowledges: "sync"),
                MessageSpec(kind: "sync", direction: .nativeToPage, fields: ["value": FieldSpec(.string)]),
            ],
            requestID: RequestIDSpec(field: "id"))
        for encoder in [ReceiverCall.Encoder.jsonWriter, .jsonSerialization] {
            let call = try ReceiverCall(
                contract: contract, message: ["kind": "sync", "value": "ok", "id": "p-1"], encoder: encoder)
            #expect(call.script == #"window.bridgeReceive({"id":"p-1","kind":"sync","value":"ok"})"#)
            #expect(call.structure == "{id: String, kind: String, value: String}")
            #expect(throws: ContractError.self) {
                try ReceiverCall(
                    contract: contract, message: ["kind": "sync", "value": "ok", "id": ""], encoder: encoder)
            }
        }
    }

    @Test("the raw form renders broken messages for tests, with the given receiver")
    func rawForm() throws {
        let call = try ReceiverCall(
            receiver: "window.bridgeReceive", json: ["kind": "sync", "value": 42, "flag": true, "none": NSNull()])
        #expect(call.script == #"window.bridgeReceive({"flag":true,"kind":"sync","none":null,"value":42})"#)
        #expect(call.description == "window.bridgeReceive({flag: Boolean, kind: String, none: Null, value: Number})")
    }

    static let unsendable: [(String, ContractError)] = [
        ("NaN", ContractError.notEncodable(path: "value", found: "Number (not finite)")),
        ("Infinity", ContractError.notEncodable(path: "items[1]", found: "Number (not finite)")),
        ("Date", ContractError.notEncodable(path: "when", found: "Date")),
    ]

    @Test("values JSON can't carry are refused, naming the path, not crashing")
    func notEncodable() {
        #expect(throws: ContractError.notEncodable(path: "value", found: "Number (not finite)")) {
            try ReceiverCall(receiver: "window.bridgeReceive", json: ["kind": "sync", "value": Double.nan])
        }
        #expect(throws: ContractError.notEncodable(path: "items[1]", found: "Number (not finite)")) {
            try ReceiverCall(receiver: "window.bridgeReceive", json: ["items": [1.0, Double.infinity]])
        }
        #expect(throws: ContractError.notEncodable(path: "when", found: "Date")) {
            try ReceiverCall(receiver: "window.bridgeReceive", json: ["when": Date()])
        }
    }

    @Test(
        "a receiver that is not a dotted JavaScript name is refused",
        arguments: [
            "", "alert(1);x", "window..f", "window.f()", "a b", "1abc", "window.f;", "x\u{2028}y", "é",
        ])
    func invalidReceiver(_ receiver: String) {
        #expect(throws: ContractError.invalidReceiver(path: "receiver")) {
            try ReceiverCall(receiver: receiver, json: ["kind": "sync"])
        }
    }

    @Test(
        "a valid receiver name is used as given",
        arguments: ["window.bridgeReceive", "bridgeReceive", "$app._bridge.receive2"])
    func validReceiver(_ receiver: String) throws {
        #expect(try ReceiverCall(receiver: receiver, json: [:]).script == "\(receiver)({})")
    }
}

@Suite("Native to page script in a JavaScript engine", .enabled(if: Node.executable != nil, "node is not installed"))
struct ReceiverCallScriptTests {
    @Test("every corpus script runs in node and hands the receiver the same string")
    func scriptsRunInNode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // One script per line: a script never contains a raw line terminator (checked above).
        let scripts = try hostileStrings.map { try ReceiverCall(message: ["kind": "sync", "value": $0]).script }
        try Data(scripts.joined(separator: "\n").utf8).write(to: directory.appendingPathComponent("scripts.txt"))
        let runner = """
            import { readFileSync, writeFileSync } from "node:fs";
            import vm from "node:vm";
            const received = [];
            const context = vm.createContext({ window: { bridgeReceive: (m) => received.push(m.value) } });
            for (const script of readFileSync(process.argv[2], "utf8").split("\\n")) vm.runInContext(script, context);
            // ASCII-only JSON: swift-corelibs JSONSerialization drops a raw U+FEFF even inside a string.
            const ascii = JSON.stringify(received).replace(/[\\u007f-\\uffff]/g, (c) => "\\\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
            writeFileSync(process.argv[3], ascii);
            """
        let runnerURL = directory.appendingPathComponent("runner.mjs")
        try Data(runner.utf8).write(to: runnerURL)
        let resultURL = directory.appendingPathComponent("received.json")
        _ = try Node.run(runnerURL, arguments: [directory.appendingPathComponent("scripts.txt").path, resultURL.path])
        let received = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: resultURL)) as? [String])
        #expect(received.count == hostileStrings.count)
        for (index, (got, sent)) in zip(received, hostileStrings).enumerated() {
            let same = got == sent
            #expect(same, "corpus string \(index) (\(sent.utf8.count) bytes) came back different")
        }
    }
}
