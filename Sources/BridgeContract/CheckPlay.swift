import Foundation

/// How a check plays the native side: the scripts the app injects, what native sends or replies on each event,
/// and which page messages must arrive.
///
/// It lives in the contract file's `check` section or in a check file of its own; it is test data, so the
/// lock never records it.
package struct CheckPlay: Codable, Sendable, Equatable {
    /// The app's native-side scripts, injected as `WKUserScript`s before the page loads.
    public var userScripts: [UserScriptSpec]
    /// What native does, in order, each on its trigger.
    public var steps: [PlayStep]
    /// Page → native messages that must arrive, each exactly once; by default every step's trigger message.
    public var expect: [String]?
    /// Whether an uncaught error or unhandled rejection of the page fails the check (Cordova's second copy of
    /// cordova.js throws as it starts and sends nothing): by default it is only shown on the timeline.
    package var failOnUncaughtError: Bool?

    public init(userScripts: [UserScriptSpec] = [], steps: [PlayStep], expect: [String]? = nil) {
        self.userScripts = userScripts
        self.steps = steps
        self.expect = expect
    }

    /// The trigger that means "the page finished loading" (`webView(_:didFinish:)`).
    public static let didFinish = "didFinish"

    /// The messages that must arrive exactly once.
    public var expectedMessages: [String] {
        if let expect { return expect }
        var names: [String] = []
        for step in steps where step.after != CheckPlay.didFinish && !names.contains(step.after) {
            names.append(step.after)
        }
        return names
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case userScripts, steps, expect, failOnUncaughtError }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userScripts = try container.decodeIfPresent([UserScriptSpec].self, forKey: .userScripts) ?? []
        steps = try container.decode([PlayStep].self, forKey: .steps)
        expect = try container.decodeIfPresent([String].self, forKey: .expect)
        failOnUncaughtError = try container.decodeIfPresent(Bool.self, forKey: .failOnUncaughtError)
    }

    /// Reads a check file (the `check` section's format on its own); its script files resolve beside it.
    public static func load(contentsOf url: URL, for contract: BridgeContract) throws(ContractError) -> CheckPlay {
        try ContractError.reading(url, what: "the check file", remedy: "check that the path exists and is readable") {
            (data: Data) throws(ContractError) -> CheckPlay in
            let play = try ContractError.decodeJSON(CheckPlay.self, from: data)
            try play.check(against: contract)
            return try play.resolvingScripts(relativeTo: url.deletingLastPathComponent())
        }
    }

    /// The play with every script file read, paths taken relative to `directory`.
    public func resolvingScripts(relativeTo directory: URL) throws(ContractError) -> CheckPlay {
        var copy = self
        for (index, script) in userScripts.enumerated() {
            guard let file = script.file else { continue }
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
            let data: Data
            do {
                data = try FileBytes.read(url.path)
            } catch {
                throw ContractError(
                    code: .unreadable, path: "userScripts[\(index)].file", problem: "the script file \(error)",
                    remedy: "give a path relative to the file that names it, or an absolute path")
            }
            copy.userScripts[index].source = String(decoding: data, as: UTF8.self)
            copy.userScripts[index].file = nil
        }
        for (index, step) in steps.enumerated() {
            guard let file = step.evaluateFile else { continue }
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
            do {
                copy.steps[index].evaluateSource = String(decoding: try FileBytes.read(url.path), as: UTF8.self)
            } catch {
                throw ContractError(
                    code: .unreadable, path: "check.steps[\(index)].evaluateFile", problem: "the script file \(error)",
                    remedy: "give a path relative to the file that names it, or an absolute path")
            }
        }
        return copy
    }

    /// Checks every name and value against the contract, so a play that could never pass is refused up front.
    public func check(against contract: BridgeContract) throws(ContractError) {
        func invalid(_ path: String, _ problem: String, _ remedy: String) -> ContractError {
            ContractError(code: .invalidValue, path: path, problem: problem, remedy: remedy)
        }
        let toNative = contract.messages.filter { $0.direction == .pageToNative }.map(\.kind)
        let toPage = contract.messages.filter { $0.direction == .nativeToPage }.map(\.kind)
        for (index, script) in userScripts.enumerated() where (script.file == nil) == (script.source == nil) {
            throw invalid(
                "check.userScripts[\(index)]", "a user script needs exactly one of file and source",
                "give \"file\": a path, or \"source\": the script text")
        }
        if steps.isEmpty {
            throw invalid(
                "check.steps", "the play has no steps: native does nothing, so nothing is checked",
                "give at least one step, e.g. {\"after\": \"didFinish\", \"send\": …}, "
                    + "or remove the check section to play the fixture style")
        }
        for (index, step) in steps.enumerated() {
            let path = "check.steps[\(index)]"
            guard step.after == CheckPlay.didFinish || toNative.contains(step.after) else {
                throw invalid(
                    "\(path).after", "\"\(step.after)\" is neither didFinish nor a page-to-native message",
                    "use didFinish or one of: \(toNative.joined(separator: ", "))")
            }
            try step.checkNative(path: path, contract: contract, invalid: invalid)
            if !step.acts && step.reply == nil && step.replyError == nil {
                throw invalid(
                    "\(path)", "the step does nothing", "give it send, call, evaluate, reply or replyError")
            }
            if let send = step.send {
                guard let spec = contract.message(send, direction: .nativeToPage) else {
                    throw invalid(
                        "\(path).send", "\"\(send)\" is not a native-to-page message",
                        "use one of: \(toPage.isEmpty ? "(none declared)" : toPage.joined(separator: ", "))")
                }
                if spec.acknowledges != nil, spec.acknowledges != step.after {
                    throw invalid(
                        "\(path).send", "\"\(send)\" answers \"\(spec.acknowledges!)\", so it must follow it",
                        "set after to \"\(spec.acknowledges!)\"")
                }
                var value = step.value ?? .object([:])
                try Self.checkImplicitFields(of: value, for: spec, path: "\(path).value", invalid: invalid)
                if let echo = step.echo, echo.contains(where: FieldPath.isPath) {
                    value = try step.echoSample(into: value, contract: contract, path: "\(path).echo")
                } else if let echo = step.echo {
                    // Echoed fields come from the trigger: check them with a sample of the trigger's own field.
                    guard let trigger = contract.message(step.after, direction: .pageToNative),
                        case .object(var fields) = value
                    else {
                        throw invalid(
                            "\(path).echo", "echo copies fields of a page message into an object",
                            "use it only after a page-to-native object message, with an object value")
                    }
                    for name in echo {
                        guard let field = trigger.fields[name] else {
                            throw invalid(
                                "\(path).echo", "\"\(step.after)\" has no field \"\(name)\"",
                                "echo one of: \(trigger.fields.keys.sorted().joined(separator: ", "))")
                        }
                        fields[name] = field.type.sample
                    }
                    value = .object(fields)
                }
                for pair in step.echoInto ?? [] {
                    value = try step.echoSample(
                        pair, into: value, sending: spec, contract: contract, path: "\(path).echo")
                }
                let message = contract.outgoing(spec, value: value, requestID: "1")
                let violations = contract.validate(message, as: spec, mode: .strict).violations
                if !violations.isEmpty {
                    throw invalid(
                        "\(path).value", "the value breaks the contract: " + describeInline(violations),
                        "make the value match \"\(send)\" in the contract")
                }
            } else if step.value != nil {
                throw invalid("\(path).value", "value goes with send", "add send, or remove value")
            }
            if step.send == nil, step.call == nil, let accepted = step.accepted,
                accepted == .returns || accepted == .settles
            {
                throw invalid(
                    "\(path).accepted", "a reply is accepted when the page shows it",
                    "use {\"expression\": …, \"equals\": …}, or give the step send")
            }
            if step.reply != nil || step.replyError != nil {
                guard let trigger = contract.message(step.after, direction: .pageToNative), let reply = trigger.reply
                else {
                    throw invalid(
                        "\(path).reply", "\"\(step.after)\" declares no reply in the contract",
                        "declare \"reply\" on that message, or remove reply from the step")
                }
                if step.reply != nil && step.replyError != nil {
                    throw invalid("\(path).replyError", "a step replies or fails, not both", "keep one")
                }
                if let value = step.reply {
                    let violations = contract.validate(value.foundationValue, as: reply, path: "reply")
                    if !violations.isEmpty {
                        throw invalid(
                            "\(path).reply", "the reply breaks the contract: " + describeInline(violations),
                            "make the reply match the reply type of \"\(step.after)\"")
                    }
                }
            }
        }
        for (index, name) in (expect ?? []).enumerated() {
            if !toNative.contains(name) {
                throw invalid(
                    "check.expect[\(index)]", "\"\(name)\" is not a page-to-native message",
                    "use one of: \(toNative.joined(separator: ", "))")
            }
            if expect![..<index].contains(name) {
                throw invalid(
                    "check.expect[\(index)]", "\"\(name)\" is listed twice; each expected message must arrive once",
                    "list it once")
            }
        }
        if expectedMessages.isEmpty {
            // A pass would claim both directions hold with the page -> native one never looked at.
            throw invalid(
                expect == nil ? "check.steps" : "check.expect",
                "the play expects no page message, so the page-to-native direction is never checked",
                "list the page messages that must arrive in expect (one of: \(toNative.joined(separator: ", "))), "
                    + "or give a step after one of them")
        }
        for spec in contract.messages where spec.reply != nil && spec.route.registeredHandler != nil {
            if expectedMessages.contains(spec.kind)
                && !steps.contains(where: { $0.after == spec.kind && ($0.reply != nil || $0.replyError != nil) })
            {
                throw invalid(
                    "check.steps", "\"\(spec.kind)\" expects a reply and no step gives one",
                    "add {\"after\": \"\(spec.kind)\", \"reply\": …}; the page's promise never settles otherwise")
            }
        }
    }

    /// Refuses a value that spells out what the check fills in: a request id (always the trigger's id) or a
    /// discriminator value other than the message's own. The check sends what the contract names, never a
    /// silently corrected value: a malformed reply is not something a play can send.
    private static func checkImplicitFields(
        of value: JSONValue, for spec: MessageSpec, path: String,
        invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        guard spec.isObject, case .object(let fields) = value else { return }
        if let field = spec.requestIDField, let given = fields[field] {
            throw invalid(
                "\(path).\(field)",
                "the request id is filled in by the check (the id of the message the step follows); "
                    + "found \(given.structure)",
                "remove \"\(field)\" from the value")
        }
        for (name, constant) in spec.match.sorted(by: { $0.key < $1.key }) {
            guard let given = fields[name], given != FieldType.constant(constant).sample else { continue }
            throw invalid(
                "\(path).\(name)",
                "\"\(name)\" names the message \"\(spec.kind)\" (\(constant.typeName) \(constant)) and is filled in "
                    + "by the check; found \(given.structure)",
                "remove \"\(name)\" from the value, or send the message this value names")
        }
    }

    /// Where the fixture page shows the text native sent: the observation point of the fixture style.
    public static let fixtureObservationPoint = "document.body.dataset.received"

    /// The fixture style, built from the contract: the one place the check's roles are named.
    ///
    /// The page's first message that answers nothing (the fixture's `ready`) must arrive once; after didFinish,
    /// native sends its first message that answers nothing (`sync`), with a sample of each field. When that message
    /// has a String field `value`, it carries `value` and the page must show it at ``fixtureObservationPoint``.
    public static func fixture(for contract: BridgeContract, value: String) throws(ContractError) -> CheckPlay {
        guard let first = contract.messages.first(where: { $0.direction == .pageToNative && $0.acknowledges == nil })
        else {
            throw ContractError(
                code: .invalidValue, path: "messages",
                problem: "the contract declares no page-to-native message for the check to expect",
                remedy: "declare the page's first message, or give the check a play (\"check\": {\"steps\": …})")
        }
        guard let native = contract.messages.first(where: { $0.direction == .nativeToPage && $0.acknowledges == nil })
        else { throw ContractError.nothingNativeSends(contract) }
        var step = PlayStep(after: didFinish, send: native.kind, accepted: .returns)
        if case .object(var fields) = native.isObject ? FieldType.object(native.fields).sample : .null {
            if native.fields["value"]?.type == .string {
                fields["value"] = .string(value)
                step.accepted = .observed(expression: fixtureObservationPoint, equals: .string(value))
            }
            step.value = .object(fields)
        } else if let body = native.body {
            step.value = body.sample
        }
        let play = CheckPlay(steps: [step], expect: [first.kind])
        try play.check(against: contract)
        return play
    }
}

/// One native-side script of the app, injected as a `WKUserScript`.
package struct UserScriptSpec: Codable, Sendable, Equatable {
    package enum InjectionTime: String, Codable, Sendable { case documentStart, documentEnd }

    /// The script's path, relative to the file that names it (read before the check runs).
    public var file: String?
    /// The script's text.
    public var source: String?
    public var injectionTime: InjectionTime
    public var forMainFrameOnly: Bool

    public init(
        file: String? = nil, source: String? = nil, injectionTime: InjectionTime = .documentStart,
        forMainFrameOnly: Bool = true
    ) {
        self.file = file
        self.source = source
        self.injectionTime = injectionTime
        self.forMainFrameOnly = forMainFrameOnly
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case file, source, injectionTime, forMainFrameOnly }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decodeIfPresent(String.self, forKey: .file)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        injectionTime = try container.decodeIfPresent(InjectionTime.self, forKey: .injectionTime) ?? .documentStart
        forMainFrameOnly = try container.decodeIfPresent(Bool.self, forKey: .forMainFrameOnly) ?? true
    }
}

/// Violations on one line, for a file error.
package func describeInline(_ violations: [ContractViolation]) -> String {
    violations.map { "\($0.path): expected \($0.expected), found \($0.found)" }.joined(separator: "; ")
}
