import BridgeContract
import Foundation
import Testing

/// Runs `node` on a script, bounded by a timeout whose failure says what did not happen.
enum Node {
    static let executable = ToolRun.find("node")

    static func run(_ script: URL, options: [String] = [], arguments: [String] = [], timeout: TimeInterval = 120)
        throws -> String
    {
        guard let node = executable else { throw ToolRun.Failure(description: "node is not installed") }
        let outcome = try ToolRun.run(node, options + [script.path] + arguments, timeout: timeout)
        guard outcome.status == 0 else {
            throw ToolRun.Failure(
                description: "node \(script.lastPathComponent) exited \(outcome.status): \(outcome.errors)")
        }
        return outcome.output
    }
}

/// A directory holding the generated module for `contract` and a runner script.
func moduleDirectory(_ contract: BridgeContract, runner: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-js-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(ContractModule(contract: contract).source.utf8).write(to: directory.appendingPathComponent("contract.mjs"))
    try Data(runner.utf8).write(to: directory.appendingPathComponent("runner.mjs"))
    return directory
}

/// JSON-expressible bodies, each checked by both validators (direction, mode, JSON text).
private let parityCases: [(Direction, ValidationMode, String)] = [
    (.pageToNative, .strict, #"{"kind": "report", "count": 3}"#),
    (
        .pageToNative, .strict,
        #"{"kind": "report", "count": 3.0, "ratio": 0.5, "flag": true, "mode": "fast", "items": [{"name": "a"}], "meta": {"depth": 1}}"#
    ),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1.5}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": true}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": "3"}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": null}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1e300}"#),
    (.pageToNative, .strict, #"{"kind": "report"}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1, "flag": 1, "mode": "slow"}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1, "items": [{"name": "a"}, {"name": "b"}, {"name": 3}]}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1, "items": ["a"], "meta": {"other": 1}}"#),
    (.pageToNative, .strict, #"{"kind": "report", "count": 1, "extra": "x", "more": [1]}"#),
    (.pageToNative, .lenient, #"{"kind": "report", "count": 1, "extra": "x"}"#),
    (.pageToNative, .strict, #"{"count": 1}"#),
    (.pageToNative, .strict, #"{"kind": 1}"#),
    (.pageToNative, .strict, #"{"kind": ["report"]}"#),
    (.pageToNative, .strict, #"{"kind": "nope"}"#),
    (.pageToNative, .strict, #"{"kind": "load", "url": "u", "id": "x"}"#),
    (.pageToNative, .strict, #"{"kind": "loaded"}"#),
    (.pageToNative, .strict, #"{"kind": "loaded", "id": 7}"#),
    (.pageToNative, .strict, #"{"kind": "loaded", "id": ""}"#),
    (.pageToNative, .strict, #"{"kind": "loaded", "id": "abc-1"}"#),
    (.nativeToPage, .strict, #"{"kind": "load", "url": "u", "id": "abc-2"}"#),
    (.nativeToPage, .strict, #"{"kind": "load", "url": 42}"#),
    (.pageToNative, .strict, #""report""#),
    (.pageToNative, .strict, #"[1, 2]"#),
    (.pageToNative, .strict, #"3"#),
    (.pageToNative, .strict, #"true"#),
    (.pageToNative, .strict, #"null"#),
]

private let parityRunner = """
    import { validate } from "./contract.mjs";
    import { readFileSync } from "node:fs";
    const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
    const results = cases.map(([direction, mode, body]) => validate(JSON.parse(body), direction, { mode }));
    console.log(JSON.stringify(results.map((r) => r.valid ? { valid: true, kind: r.kind, requestID: r.requestID } : r)));
    """

/// One check both validators make: `validate` (matching), `as` (a named message) or `reply` (a reply type).
private struct ParityCase: Codable {
    var op: String
    var body: String
    var direction: String?
    var mode: String = "strict"
    var handler: String?
    var transport: String?
    var kind: String?
}

/// A result as both sides report it: the kind and request id when valid, else every violation in order.
private struct ParityResult: Codable, Equatable, CustomStringConvertible {
    var valid: Bool
    var kind: String?
    var requestID: String?
    var violations: [[String: String]]?

    init(_ validation: Validation) {
        switch validation {
        case .valid(let message):
            self.init(valid: true, kind: message.kind, requestID: message.requestID, violations: nil)
        case .invalid(let violations):
            self.init(valid: false, kind: nil, requestID: nil, violations: ParityResult.rows(violations))
        }
    }

    init(valid: Bool, kind: String?, requestID: String?, violations: [[String: String]]?) {
        self.valid = valid
        self.kind = kind
        self.requestID = requestID
        self.violations = violations
    }

    static func rows(_ violations: [ContractViolation]) -> [[String: String]] {
        violations.map {
            [
                "path": $0.path, "rule": $0.rule.rawValue, "expected": $0.expected, "found": $0.found,
                "direction": $0.direction.rawValue,
            ]
        }
    }

    var description: String {
        valid
            ? "valid \(kind ?? "?") id \(requestID ?? "nil")"
            : (violations ?? []).map { "\($0["path"]!) \($0["rule"]!) \($0["expected"]!) / \($0["found"]!)" }
                .joined(separator: "; ")
    }
}

private let languageParityRunner = """
    import { validate, validateFromNative, validateReply } from "./contract.mjs";
    import { readFileSync, writeFileSync } from "node:fs";
    const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
    const results = cases.map((c) => {
      const body = JSON.parse(c.body);
      const r = c.op === "validate" ? validate(body, c.direction, { mode: c.mode, handler: c.handler, transport: c.transport })
        : c.op === "as" ? validateFromNative(body, { kind: c.kind, mode: c.mode })
        : validateReply(c.kind, body);
      return r.valid ? { valid: true, kind: r.kind, requestID: r.requestID ?? undefined } : { valid: false, violations: r.violations };
    });
    writeFileSync(process.argv[3], JSON.stringify(results));
    """

extension LanguageContracts.Example {
    /// Every body: each valid one broken every way, bare values; each checked every way the contract allows.
    fileprivate func parityCases(_ contract: BridgeContract) throws -> [ParityCase] {
        var bodies: [String] = ParityBodies.bare
        for json in valid.keys.sorted().flatMap({ valid[$0]! }) {
            for body in try ParityBodies.variants(of: json) where !bodies.contains(body) { bodies.append(body) }
        }
        var cases: [ParityCase] = []
        let toPage = contract.messages.filter { $0.direction == .nativeToPage }.map(\.kind)
        for body in bodies {
            for mode in ["strict", "lenient"] {
                cases.append(ParityCase(op: "validate", body: body, direction: "native-to-page", mode: mode))
                cases.append(ParityCase(op: "validate", body: body, direction: "page-to-native", mode: mode))
                for kind in toPage { cases.append(ParityCase(op: "as", body: body, mode: mode, kind: kind)) }
            }
            for handler in contract.handlerNames + ["elsewhere"] {
                for transport in ["postMessage", "prompt"] {
                    cases.append(
                        ParityCase(
                            op: "validate", body: body, direction: "page-to-native", handler: handler,
                            transport: transport))
                }
            }
        }
        for (kind, values) in replies.sorted(by: { $0.key < $1.key }) {
            var answers = ParityBodies.bare
            for json in values { answers += try ParityBodies.variants(of: json) }
            cases += answers.map { ParityCase(op: "reply", body: $0, kind: kind) }
        }
        return cases
    }
}

/// What the Swift library says for one parity case.
private func swiftResult(_ contract: BridgeContract, _ testCase: ParityCase) throws -> ParityResult {
    let body = try JSONSerialization.jsonObject(with: Data(testCase.body.utf8), options: [.fragmentsAllowed])
    let mode: ValidationMode = testCase.mode == "strict" ? .strict : .lenient
    switch testCase.op {
    case "validate":
        let direction = try #require(Direction(rawValue: testCase.direction ?? ""))
        let transport = try #require(MessageSpec.Transport(rawValue: testCase.transport ?? "postMessage"))
        return ParityResult(
            contract.validate(body, direction: direction, mode: mode, handler: testCase.handler, transport: transport))
    case "as":
        let spec = try #require(contract.message(testCase.kind ?? "", direction: .nativeToPage))
        return ParityResult(contract.validate(body, as: spec, mode: mode))
    default:
        let spec = try #require(contract.message(testCase.kind ?? "", direction: .pageToNative))
        let violations = contract.validate(body, as: try #require(spec.reply), path: "reply")
        return violations.isEmpty
            ? ParityResult(valid: true, kind: spec.kind, requestID: nil, violations: nil)
            : ParityResult(valid: false, kind: nil, requestID: nil, violations: ParityResult.rows(violations))
    }
}

@Suite("The JavaScript contract module", .enabled(if: Node.executable != nil, "node is not installed"))
struct ContractModuleTests {
    @Test("the JS validator gives the same violations as the Swift one")
    func parity() throws {
        let directory = try moduleDirectory(typedContract, runner: parityRunner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let casesFile = directory.appendingPathComponent("cases.json")
        let encoded = parityCases.map { [$0.0.rawValue, $0.1 == .strict ? "strict" : "lenient", $0.2] }
        try JSONSerialization.data(withJSONObject: encoded).write(to: casesFile)
        let output = try Node.run(directory.appendingPathComponent("runner.mjs"), arguments: [casesFile.path])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(results.count == parityCases.count)
        var invalidCount = 0
        for ((direction, mode, json), js) in zip(parityCases, results) {
            let body = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            switch typedContract.validate(body, direction: direction, mode: mode) {
            case .valid(let message):
                #expect(js["valid"] as? Bool == true, "JS rejected \(json)")
                #expect(js["kind"] as? String == message.kind)
                #expect(js["requestID"] as? String == message.requestID)
            case .invalid(let violations):
                invalidCount += 1
                let jsViolations = (js["violations"] as? [[String: String]]) ?? []
                let swiftViolations = violations.map {
                    [
                        "path": $0.path, "rule": $0.rule.rawValue, "expected": $0.expected, "found": $0.found,
                        "direction": $0.direction.rawValue,
                    ]
                }
                #expect(jsViolations == swiftViolations, "for \(json)")
            }
        }
        #expect(invalidCount > 20)
    }

    @Test("the JS validator gives the same results as the Swift one on the contract language's bridges")
    func languageParity() throws {
        var rulesSeen = Set<String>()
        let extra =
            [LanguageContracts.stringChannel, LanguageContracts.positional]
            + LanguageContracts.paths + LanguageContracts.discriminatorPaths
        for example in LanguageContracts.all + extra {
            let contract = try example.contract()
            let cases = try example.parityCases(contract)
            let directory = try moduleDirectory(contract, runner: languageParityRunner)
            defer { try? FileManager.default.removeItem(at: directory) }
            let casesFile = directory.appendingPathComponent("cases.json")
            let resultsFile = directory.appendingPathComponent("results.json")
            try JSONEncoder().encode(cases).write(to: casesFile)
            _ = try Node.run(
                directory.appendingPathComponent("runner.mjs"), arguments: [casesFile.path, resultsFile.path])
            let results = try JSONDecoder().decode([ParityResult].self, from: Data(contentsOf: resultsFile))
            try #require(results.count == cases.count, "\(example): node gave \(results.count) of \(cases.count)")
            var mismatches: [String] = []
            var validKinds = Set<String>()
            for (testCase, js) in zip(cases, results) {
                let swift = try swiftResult(contract, testCase)
                if swift != js {
                    mismatches.append(
                        "\(testCase.op) \(testCase.direction ?? testCase.kind ?? "") \(testCase.handler ?? "") "
                            + "\(testCase.transport ?? "") \(testCase.mode) \(testCase.body)\n  swift: \(swift)\n  js:    \(js)"
                    )
                }
                if swift.valid, testCase.op == "validate", let kind = swift.kind { validKinds.insert(kind) }
                for violation in swift.violations ?? [] { rulesSeen.insert(violation["rule"]!) }
            }
            let differing = mismatches.count
            #expect(
                differing == 0,
                "\(example): \(differing) of \(cases.count) differ:\n\(mismatches.prefix(3).joined(separator: "\n"))")
            // Every valid body is valid: the broken ones are broken against a body that passes.
            #expect(validKinds == Set(contract.messages.map(\.kind)), "\(example): valid kinds")
            // The bridges' contracts have many messages; the string channel has three.
            #expect(
                cases.count > (example.name == LanguageContracts.jsonText.name ? 1000 : 300),
                "\(example): \(cases.count) cases")
        }
        let everyRule: Set<String> = [
            "body-not-object", "missing-field", "wrong-type", "not-integer", "constant-mismatch", "unknown-kind",
            "wrong-direction", "unexpected-field", "empty-request-id", "not-json",
        ]
        #expect(everyRule.subtracting(rulesSeen).isEmpty, "rules never exercised: \(everyRule.subtracting(rulesSeen))")
    }

    @Test("JS values JSON can't carry are rejected like WebKit hands them to Swift")
    func jsOnlyValues() throws {
        let runner = """
            import { validate, validateToNative } from "./contract.mjs";
            const show = (r) => r.valid ? "valid" : r.violations.map((v) => `${v.path} ${v.rule} ${v.expected} / ${v.found}`).join("; ");
            console.log([
              show(validate({ kind: "report", count: NaN }, "page-to-native")),
              show(validate({ kind: "report", count: Infinity }, "page-to-native")),
              show(validate({ kind: "report", count: -Infinity }, "page-to-native")),
              show(validate({ kind: "report", count: 1, ratio: NaN }, "page-to-native")),
              show(validate({ kind: "report", count: new Date(0) }, "page-to-native")),
              show(validate({ kind: "report", count: 1, flag: undefined }, "page-to-native")),
              show(validate(undefined, "page-to-native")),
              show(validateToNative({ kind: "report", count: 2.0 })),
            ].join("\\n"));
            """
        let directory = try moduleDirectory(typedContract, runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Node.run(directory.appendingPathComponent("runner.mjs")).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "count not-finite Integer / Number",
                "count not-finite Integer / Number",
                "count not-finite Integer / Number",
                "ratio not-finite Number / Number",
                "count wrong-type Integer / Date",
                "valid",
                "body body-not-object Object / Undefined",
                "valid",
            ])
    }

    @Test("the module exports the contract's constants")
    func constants() throws {
        let runner = """
            import * as c from "./contract.mjs";
            console.log(JSON.stringify([c.CONTRACT_VERSION, c.HANDLER, c.RECEIVER, c.REQUEST_ID_FIELD, c.KINDS, Object.isFrozen(c.CONTRACT.messages[0])]));
            """
        let directory = try moduleDirectory(.default, runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Node.run(directory.appendingPathComponent("runner.mjs"))
        #expect(
            output.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"[1,"bridge","window.bridgeReceive",null,{"PAGE_TO_NATIVE":["ready"],"NATIVE_TO_PAGE":["sync"]},true]"#
        )
    }

    @Test("the module exports the new language's constants: every message, every handler, the discriminator")
    func languageConstants() throws {
        let runner = """
            import * as c from "./contract.mjs";
            console.log(JSON.stringify([c.HANDLER, c.HANDLERS, c.RECEIVER, c.DISCRIMINATOR, c.REQUEST_ID_FIELD, c.MESSAGES,
              Object.getPrototypeOf(c.MESSAGES), Object.isFrozen(c.MESSAGES.register), c.MESSAGES.toString ?? null]));
            """
        func exports(_ example: LanguageContracts.Example) throws -> String {
            let directory = try moduleDirectory(try example.contract(), runner: runner)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try Node.run(directory.appendingPathComponent("runner.mjs"))
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let hotwire = try exports(LanguageContracts.hotwire)
        let hotwireMessages = [
            #""ready":{"direction":"page-to-native","handler":"bridge","transport":"postMessage","call":null,"match":null,"acknowledges":null,"carriesRequestID":false,"reply":false}"#,
            #""formConnect":{"direction":"page-to-native","handler":"bridge","transport":"postMessage","call":null,"match":{"component":"form","event":"connect"},"acknowledges":null,"carriesRequestID":true,"reply":false}"#,
            #""formSubmitEnabled":{"direction":"page-to-native","handler":"bridge","transport":"postMessage","call":null,"match":{"component":"form","event":"submitEnabled"},"acknowledges":null,"carriesRequestID":false,"reply":false}"#,
            #""menuDisplay":{"direction":"page-to-native","handler":"bridge","transport":"postMessage","call":null,"match":{"component":"menu","event":"display"},"acknowledges":null,"carriesRequestID":false,"reply":false}"#,
            #""register":{"direction":"native-to-page","handler":null,"transport":null,"call":"window.nativeBridge.register","match":null,"acknowledges":null,"carriesRequestID":false,"reply":false}"#,
            #""formConnected":{"direction":"native-to-page","handler":null,"transport":null,"call":"window.nativeBridge.replyWith","match":{"component":"form","event":"connect"},"acknowledges":"formConnect","carriesRequestID":true,"reply":false}"#,
        ]
        #expect(
            hotwire
                == #"["bridge",["bridge"],"window.nativeBridge.replyWith",["component","event"],"id",{"#
                + hotwireMessages.joined(separator: ",") + "},null,true,null]")
        let capacitor = try exports(LanguageContracts.capacitor)
        #expect(
            capacitor.contains(
                #""cookiesEnabled":{"direction":"page-to-native","handler":"bridge","transport":"prompt","call":null,"match":{"type":"CapacitorCookies.isEnabled"},"acknowledges":null,"carriesRequestID":false,"reply":true}"#
            ))
        #expect(
            capacitor.hasPrefix(
                #"["bridge",["bridge"],"window.Capacitor.fromNative",["type","pluginId","methodName"],"callbackId","#))
        let custom = try exports(LanguageContracts.custom)
        #expect(custom.hasPrefix(#"["app",["app"],"window.App.receive",["type"],null,"#))
        #expect(
            custom.contains(
                #""hello":{"direction":"page-to-native","handler":"app","transport":"postMessage","call":null,"match":{"type":"hello"},"#
            ))
        #expect(
            custom.contains(
                #""batch":{"direction":"native-to-page","handler":null,"transport":null,"call":"window.App.batch","match":null,"#
            ))
        let replies = try exports(LanguageContracts.replyHandler)
        #expect(replies.hasPrefix(#"["bridge",["bridge","native"],"window.bridgeReceive",["kind"],null,"#))
        #expect(
            replies.contains(#""getUser":{"direction":"page-to-native","handler":"native","transport":"postMessage","#))
    }

    @Test("postToNative posts each message to its own handler and checks a reply handler's reply")
    func postToOwnHandler() throws {
        let runner = """
            import { postToNative, BridgeContractError } from "./contract.mjs";
            const posted = [];
            let answer;
            const handler = (name) => ({ postMessage: (m) => { posted.push([name, m.kind]); return name === "native" ? Promise.resolve(answer) : undefined; } });
            globalThis.webkit = { messageHandlers: { bridge: handler("bridge"), native: handler("native") } };
            const lines = [];
            const failure = (e) => (e instanceof BridgeContractError ? "" : "NOT A CONTRACT ERROR ") + e.message.split("\\n").slice(1).join(" | ");
            lines.push(String(postToNative({ kind: "ready", version: 1 })));
            answer = { name: "S3CR3T", admin: false };
            lines.push(JSON.stringify(await postToNative({ kind: "getUser", userId: 7 })));
            answer = { name: "S3CR3T", admin: "S3CR3T" };
            await postToNative({ kind: "getUser", userId: 7 }).then(() => lines.push("accepted a bad reply"), (e) => lines.push(failure(e)));
            answer = "S3CR3T";
            await postToNative({ kind: "save", text: "S3CR3T" }).then(() => lines.push("accepted a bad reply"), (e) => lines.push(failure(e)));
            try { postToNative({ kind: "getUser", userId: "S3CR3T" }); lines.push("posted a bad message"); } catch (e) { lines.push(failure(e)); }
            try { postToNative({ kind: "getUser", userId: 7 }, { handler: "bridge" }); lines.push("posted to the wrong handler"); } catch (e) { lines.push(failure(e)); }
            try { postToNative({ kind: "S3CR3T" }); lines.push("posted an unknown kind"); } catch (e) { lines.push(failure(e)); }
            lines.push(JSON.stringify(posted));
            delete globalThis.webkit.messageHandlers.native;
            try { postToNative({ kind: "save", text: "S3CR3T" }); lines.push("posted to no handler"); } catch (e) { lines.push(e.message); }
            console.log(lines.join("\\n"));
            """
        let directory = try moduleDirectory(try LanguageContracts.replyHandler.contract(), runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Node.run(directory.appendingPathComponent("runner.mjs"))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "undefined",
                #"{"name":"S3CR3T","admin":false}"#,
                "reply.admin: expected Boolean, found String (wrong-type, native-to-page)",
                "reply: expected Boolean, found String (wrong-type, native-to-page)",
                "userId: expected Integer, found String (wrong-type, page-to-native)",
                "kind: expected one of: ready, found String (unknown-kind, page-to-native)",
                "kind: expected one of: ready, found String (unknown-kind, page-to-native)",
                #"[["bridge","ready"],["native","getUser"],["native","getUser"],["native","save"]]"#,
                "window.webkit.messageHandlers.native is missing: the page is not in a web view whose native side registers the contract's handlers",
            ])
        // The only secret shown is the valid reply, handed back to the page that asked for it.
        #expect(output.components(separatedBy: "S3CR3T").count == 2)
    }

    @Test("promptToNative sends a prompt-channel message as JSON text and returns native's checked text answer")
    func promptChannel() throws {
        let runner = """
            import { promptToNative, postToNative, validateFromNative, BridgeContractError } from "./contract.mjs";
            const prompts = [];
            let answer = "true";
            globalThis.prompt = (text) => { prompts.push(text); return answer; };
            globalThis.webkit = { messageHandlers: { bridge: { postMessage: () => prompts.push("posted") } } };
            const failure = (e) => (e instanceof BridgeContractError ? "" : "NOT A CONTRACT ERROR ") + e.message.split("\\n").slice(1).join(" | ");
            const lines = [];
            lines.push(promptToNative({ type: "CapacitorCookies.isEnabled" }));
            answer = null;
            try { promptToNative({ type: "CapacitorHttp" }); lines.push("accepted no answer"); } catch (e) { lines.push(failure(e)); }
            try { promptToNative({ type: "CapacitorHttp", extra: 1 }); lines.push("sent a bad message"); } catch (e) { lines.push(failure(e)); }
            try { promptToNative({ type: "message", callbackId: "1", pluginId: "Device", methodName: "getInfo", options: {} }); lines.push("prompted a postMessage message"); } catch (e) { lines.push(failure(e)); }
            try { postToNative({ type: "CapacitorHttp" }); lines.push("posted a prompt message"); } catch (e) { lines.push(failure(e)); }
            const info = { callbackId: "9", pluginId: "Device", methodName: "getInfo", success: true, save: false, data: { model: "m", isVirtual: false, memUsed: 1 } };
            lines.push(JSON.stringify(validateFromNative(info)));
            lines.push(JSON.stringify(validateFromNative({ ...info, success: false }, { kind: "deviceInfo" })));
            try { validateFromNative(info, { kind: "deviceGetInfo" }); lines.push("checked as a page message"); } catch (e) { lines.push(e.constructor.name + ": " + e.message); }
            lines.push(JSON.stringify(prompts));
            console.log(lines.join("\\n"));
            """
        let directory = try moduleDirectory(try LanguageContracts.capacitor.contract(), runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Node.run(directory.appendingPathComponent("runner.mjs")).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "true",
                "reply: expected String, found Null (wrong-type, native-to-page)",
                "extra: expected no such field, found Number (unexpected-field, page-to-native)",
                "type: expected one of: cookiesEnabled, httpEnabled, found String (unknown-kind, page-to-native)",
                // The same rule as Swift: every discriminator field a message of that channel names must be there.
                "pluginId: expected String, one of: pluginCall, deviceGetInfo, toastShow, jsError, found Missing (missing-field, page-to-native)",
                #"{"valid":true,"kind":"deviceInfo","requestID":"9"}"#,
                #"{"valid":false,"violations":[{"path":"success","rule":"constant-mismatch","expected":"Boolean true","found":"Boolean","direction":"native-to-page"}]}"#,
                "TypeError: no native-to-page message of that kind; the contract declares: deviceInfo, deviceInfoFailed",
                #"["{\"type\":\"CapacitorCookies.isEnabled\"}","{\"type\":\"CapacitorHttp\"}"]"#,
            ])
    }

    @Test("a call's argument is checked as its message: Hotwire's register takes an array of strings")
    func callArgument() throws {
        let runner = """
            import { validateFromNative, validate, postToNative, describeViolations } from "./contract.mjs";
            const show = (r) => r.valid ? "valid " + r.kind + " " + r.requestID : describeViolations(r.violations);
            const posted = [];
            globalThis.webkit = { messageHandlers: { bridge: { postMessage: (m) => posted.push(m) } } };
            postToNative("ready");
            console.log([
              show(validateFromNative(["form", "menu"], { kind: "register" })),
              show(validateFromNative(["form", 1], { kind: "register" })),
              show(validateFromNative({ component: "form" }, { kind: "register" })),
              show(validateFromNative({ id: "1", component: "form", event: "connect", data: {} }, { kind: "formConnected" })),
              show(validateFromNative({ id: "1", event: "connect", data: {} }, { kind: "formConnected" })),
              show(validate("ready", "page-to-native")),
              show(validate("READY", "page-to-native")),
              JSON.stringify(posted),
            ].join("\\n"));
            """
        let directory = try moduleDirectory(try LanguageContracts.hotwire.contract(), runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Node.run(directory.appendingPathComponent("runner.mjs")).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "valid register null",
                "body[1]: expected String, found Number (wrong-type, native-to-page)",
                "body: expected Array of String, found Object (wrong-type, native-to-page)",
                "valid formConnected 1",
                #"component: expected String "form", found Missing (missing-field, native-to-page)"#,
                "valid ready null",
                #"body: expected an Object or one of: ready (String "ready"), found String (unknown-kind, page-to-native)"#,
                #"["ready"]"#,
            ])
    }

    @Test("contract text never becomes code: hostile names and values stay data")
    func hostileContractStaysData() throws {
        let hostile = [
            #"</script><script>globalThis.pwned=1</script>"#, #"\"; globalThis.pwned = 1; //"#,
            "`${globalThis.pwned=1}`", "\u{2028}globalThis.pwned=1", "\u{FEFF}x", "__proto__", "constructor",
            #"\u0000"#,
        ]
        var messages: [MessageSpec] = []
        for (index, text) in hostile.enumerated() {
            messages.append(
                MessageSpec(
                    kind: text, direction: .pageToNative,
                    fields: [
                        text + "f": FieldSpec(.constant(.string(text))),
                        "__proto__": FieldSpec(.string, optional: true),
                    ],
                    match: ["type": .string(text)], handler: index.isMultiple(of: 2) ? text : nil))
        }
        let contract = BridgeContract(
            version: 1, handler: "bridge", receiver: "window.bridgeReceive", messages: messages,
            discriminator: ["type"])
        #expect(try BridgeContract(jsonData: contract.jsonData()) == contract)
        let runner = """
            import { CONTRACT, MESSAGES, HANDLERS, validate } from "./contract.mjs";
            const kinds = Object.keys(MESSAGES);
            const valid = CONTRACT.messages.map((m) => validate({ type: m.kind, [m.kind + "f"]: m.kind }, "page-to-native", { handler: MESSAGES[m.kind].handler }).kind);
            const fields = CONTRACT.messages[0].fields;
            // U+FEFF escaped: swift-corelibs JSONSerialization drops it raw, even inside a string.
            console.log(JSON.stringify({ pwned: globalThis.pwned ?? null, kinds, handlers: HANDLERS, valid,
              proto: Object.getPrototypeOf(fields) === Object.prototype && Object.keys(fields).includes("__proto__") }).replaceAll("\\ufeff", "\\\\ufeff"));
            """
        let directory = try moduleDirectory(contract, runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Node.run(directory.appendingPathComponent("runner.mjs"))
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(result["pwned"] is NSNull)
        #expect(result["kinds"] as? [String] == hostile)
        #expect(result["valid"] as? [String] == hostile)
        let handlers = ["bridge"] + hostile.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
        #expect(result["handlers"] as? [String] == handlers)
        #expect(result["proto"] as? Bool == true)
    }

    @Test("postToNative posts a valid message and throws, showing structure only, on an invalid one")
    func postToNative() throws {
        let runner = """
            import { postToNative, messageStructure, BridgeContractError } from "./contract.mjs";
            const posted = [];
            globalThis.webkit = { messageHandlers: { bridge: { postMessage: (m) => posted.push(m) } } };
            postToNative({ kind: "ready", version: 1 });
            let error;
            try { postToNative({ kind: "ready", version: "S3CR3T", token: "S3CR3T" }); } catch (e) { error = e; }
            console.log(JSON.stringify({
              posted, isContractError: error instanceof BridgeContractError, message: error.message,
              structure: messageStructure({ kind: "S3CR3T", list: ["S3CR3T", 1, true, null], nested: { a: new Date() } }),
            }));
            """
        let directory = try moduleDirectory(.default, runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Node.run(directory.appendingPathComponent("runner.mjs"))
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect((result["posted"] as? [[String: Any]])?.count == 1)
        #expect(result["isContractError"] as? Bool == true)
        #expect(
            result["message"] as? String == """
                bridge message breaks the contract:
                version: expected Number 1, found String (wrong-type, page-to-native)
                token: expected no such field, found String (unexpected-field, page-to-native)
                """)
        #expect(
            result["structure"] as? String == "{kind: String, list: [String, Number, Boolean, Null], nested: {a: Date}}"
        )
        #expect(!output.contains("S3CR3T"))
    }
}
