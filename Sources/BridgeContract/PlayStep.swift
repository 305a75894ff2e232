import Foundation

/// One thing native does when its trigger happens: send a message, call a page function, dispatch an event or
/// evaluate a script, and/or answer the trigger.
package struct PlayStep: Codable, Sendable, Equatable {
    /// `didFinish`, or the name of a page → native message (the step runs each time it arrives).
    public var after: String
    /// The native → page message to send.
    public var send: String?
    /// What to send: the message's fields (its discriminator and request id are filled in), or a bare value.
    public var value: JSONValue?
    /// How the page's acceptance is observed; by default the call must not throw.
    public var accepted: Acceptance?
    /// Native's answer to the trigger (a reply handler's reply, or a prompt's text).
    public var reply: JSONValue?
    /// Native refuses the trigger: the reply handler's error message (the page's promise rejects).
    public var replyError: String?
    /// Fields of the trigger copied into the sent value, as native echoes them (Hotwire replies with the data):
    /// top-level names, or paths (`data.identifier`, `body[0]`), each copied to the same place in the value.
    public var echo: [String]?
    /// Values of the trigger copied to another place in the sent value: `{"from": "callbackID", "to":
    /// "responseID"}` (paths in the trigger and in the sent message), written among `echo`'s names.
    package var echoInto: [EchoPair]?
    /// A page function native calls with its own arguments (Turbo's visit, Cordova's `nativeCallback`): a dotted
    /// JavaScript name, given with `arguments`.
    package var call: String?
    /// The call's arguments in order, each typed and taken from a constant, the trigger or generated data.
    package var arguments: [StepArgument]?
    /// The sent message goes as the data of an event the page listens for, not as a call's argument
    /// (react-native-webview's `window.dispatchEvent(new MessageEvent('message', {data}))`).
    package var dispatch: EventDispatch?
    /// An expression native evaluates (WebViewJavascriptBridge's `_fetchQueue()`), given with `returns`.
    package var evaluate: String?
    /// The type the evaluated expression's value must have.
    package var returns: FieldType?
    /// A script file native evaluates as a program when the trigger comes (WebViewJavascriptBridge injects its
    /// bridge this way), relative to the file that names it; it must run without throwing.
    package var evaluateFile: String?
    /// The text of `evaluateFile`, read before the check runs.
    package var evaluateSource: String?
    /// The handler whose page → native messages the evaluated value holds (an array, or JSON text of one): each
    /// element is checked and triggers steps as a message posted there would.
    package var messages: String?

    public init(
        after: String, send: String? = nil, value: JSONValue? = nil, accepted: Acceptance? = nil,
        reply: JSONValue? = nil, replyError: String? = nil, echo: [String]? = nil
    ) {
        self.after = after
        self.send = send
        self.value = value
        self.accepted = accepted
        self.reply = reply
        self.replyError = replyError
        self.echo = echo
    }

    /// Whether the step does something when its trigger comes (rather than only answering it).
    package var acts: Bool { send != nil || call != nil || evaluate != nil || evaluateFile != nil }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case after, send, value, accepted, reply, replyError, echo, call, arguments, dispatch, evaluate, returns
        case messages, evaluateFile
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        after = try container.decode(String.self, forKey: .after)
        send = try container.decodeIfPresent(String.self, forKey: .send)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value)
        accepted = try container.decodeIfPresent(Acceptance.self, forKey: .accepted)
        reply = try container.decodeIfPresent(JSONValue.self, forKey: .reply)
        replyError = try container.decodeIfPresent(String.self, forKey: .replyError)
        let echoes = try container.decodeIfPresent([EchoEntry].self, forKey: .echo)
        echo = echoes.map { $0.compactMap(\.name) }.flatMap { $0.isEmpty ? nil : $0 }
        echoInto = echoes.map { $0.compactMap(\.pair) }.flatMap { $0.isEmpty ? nil : $0 }
        call = try container.decodeIfPresent(String.self, forKey: .call)
        arguments = try container.decodeIfPresent([StepArgument].self, forKey: .arguments)
        dispatch = try container.decodeIfPresent(EventDispatch.self, forKey: .dispatch)
        evaluate = try container.decodeIfPresent(String.self, forKey: .evaluate)
        returns = try container.decodeIfPresent(FieldType.Box.self, forKey: .returns)?.type
        messages = try container.decodeIfPresent(String.self, forKey: .messages)
        evaluateFile = try container.decodeIfPresent(String.self, forKey: .evaluateFile)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(after, forKey: .after)
        try container.encodeIfPresent(send, forKey: .send)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(accepted, forKey: .accepted)
        try container.encodeIfPresent(reply, forKey: .reply)
        try container.encodeIfPresent(replyError, forKey: .replyError)
        if echo != nil || echoInto != nil {
            let names = (echo ?? []).map(EchoEntry.name)
            try container.encode(names + (echoInto ?? []).map(EchoEntry.pair), forKey: .echo)
        }
        try container.encodeIfPresent(call, forKey: .call)
        try container.encodeIfPresent(arguments, forKey: .arguments)
        try container.encodeIfPresent(dispatch, forKey: .dispatch)
        try container.encodeIfPresent(evaluate, forKey: .evaluate)
        try container.encodeIfPresent(returns.map(FieldType.Box.init(type:)), forKey: .returns)
        try container.encodeIfPresent(messages, forKey: .messages)
        try container.encodeIfPresent(evaluateFile, forKey: .evaluateFile)
    }
}

/// One argument of a step's call: where its value comes from, and the type it must have.
package struct StepArgument: Codable, Sendable, Equatable {
    /// Where the value comes from.
    package enum Source: Sendable, Equatable {
        /// This constant.
        case value(JSONValue)
        /// The value at this path of the trigger (`data.location`, `[0]`).
        case echo(String)
        /// Data made up by native when the step runs.
        case generate(Generated)
        /// An object whose every field is an argument of its own (a reply's id echoed beside constant data).
        case fields([String: StepArgument])
        /// This URL reference resolved against the page's address (`two.html`), as native builds a location.
        case url(String)
    }

    /// Data native makes up for a call.
    package enum Generated: String, Codable, Sendable, CaseIterable {
        /// A fresh lowercase UUID string each time (Turbo's restoration identifier).
        case uuid
    }

    package var source: Source
    /// The type the value must have; for a constant, the constant itself when left out. A value typed as JSON text
    /// (`{"type": "string", "encoding": "json", …}`) that is not a string is sent as its JSON text.
    package var type: FieldType?

    package init(_ source: Source, as type: FieldType? = nil) {
        self.source = source
        self.type = type
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case value, echo, generate, fields, url, `as` }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try container.decodeIfPresent(JSONValue.self, forKey: .value)
        // A present null is a constant too: decodeIfPresent reads it as absent.
        let nullValue = value == nil && container.contains(.value)
        let echo = try container.decodeIfPresent(String.self, forKey: .echo)
        let generateText = try container.decodeIfPresent(String.self, forKey: .generate)
        let fields = try container.decodeIfPresent([String: StepArgument].self, forKey: .fields)
        let url = try container.decodeIfPresent(String.self, forKey: .url)
        type = try container.decodeIfPresent(FieldType.Box.self, forKey: .as)?.type
        let given = [value != nil || nullValue, echo != nil, generateText != nil, fields != nil, url != nil]
            .filter { $0 }.count
        guard given == 1 else {
            throw ContractError(
                code: .invalidValue, path: jsonPath(decoder.codingPath),
                problem: "an argument needs exactly one of value, echo, generate, fields and url; found \(given)",
                remedy: "give {\"value\": …}, {\"echo\": \"path of the trigger\", \"as\": …}, "
                    + "{\"generate\": \"uuid\", \"as\": …}, {\"fields\": {name: argument, …}} or {\"url\": \"two.html\"}"
            )
        }
        if let url {
            guard !url.isEmpty, URL(string: url) != nil else {
                throw ContractError(
                    code: .invalidValue, path: jsonPath(decoder.codingPath + [CodingKeys.url]),
                    problem: "\"url\" is not a URL reference", remedy: "give a path such as two.html, or a full URL")
            }
            source = .url(url)
        } else if let fields {
            source = .fields(fields)
        } else if let echo {
            source = .echo(echo)
        } else if let generateText {
            guard let generated = Generated(rawValue: generateText) else {
                throw ContractError(
                    code: .invalidValue, path: jsonPath(decoder.codingPath + [CodingKeys.generate]),
                    problem: "unknown generated data \"\(generateText)\"",
                    remedy: "use one of: \(Generated.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            source = .generate(generated)
        } else {
            source = .value(value ?? .null)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch source {
        case .value(let value): try container.encode(value, forKey: .value)
        case .echo(let path): try container.encode(path, forKey: .echo)
        case .generate(let generated): try container.encode(generated, forKey: .generate)
        case .fields(let fields): try container.encode(fields, forKey: .fields)
        case .url(let url): try container.encode(url, forKey: .url)
        }
        try container.encodeIfPresent(type.map(FieldType.Box.init(type:)), forKey: .as)
    }
}

/// An event native dispatches on a page object, carrying the sent message as its `data`:
/// `window.dispatchEvent(new MessageEvent('message', {data}))`.
package struct EventDispatch: Codable, Sendable, Equatable {
    /// The object the event is dispatched on: a dotted JavaScript name (`window`, `document`).
    package var target: String
    /// The event's type, what the page's `addEventListener` names (`message`).
    package var event: String

    package init(target: String = "window", event: String = "message") {
        self.target = target
        self.event = event
    }

    /// The page function native calls to dispatch it: `window.dispatchEvent`.
    package var function: String { "\(target).dispatchEvent" }

    private enum CodingKeys: String, CodingKey, CaseIterable { case target, event }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        target = try container.decodeIfPresent(String.self, forKey: .target) ?? "window"
        event = try container.decode(String.self, forKey: .event)
    }
}

/// How the check sees that the page accepted a native → page call.
package enum Acceptance: Codable, Sendable, Equatable {
    /// The call returned without throwing.
    case returns
    /// The call's result (a promise) fulfilled; a rejection is the page refusing.
    case settles
    /// After the call, `expression` evaluates to `equals` (the fixture's `document.body.dataset.received`).
    case observed(expression: String, equals: JSONValue)

    private enum CodingKeys: String, CodingKey, CaseIterable { case expression, equals }

    public init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            switch word {
            case "returns": self = .returns
            case "settles": self = .settles
            default:
                throw ContractError(
                    code: .invalidValue, path: jsonPath(decoder.codingPath),
                    problem: "unknown acceptance \"\(word)\"",
                    remedy: "use \"returns\", \"settles\" or {\"expression\": …, \"equals\": …}")
            }
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .observed(
            expression: try container.decode(String.self, forKey: .expression),
            equals: try container.decode(JSONValue.self, forKey: .equals))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .returns:
            var container = encoder.singleValueContainer()
            try container.encode("returns")
        case .settles:
            var container = encoder.singleValueContainer()
            try container.encode("settles")
        case .observed(let expression, let equals):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(expression, forKey: .expression)
            try container.encode(equals, forKey: .equals)
        }
    }
}

extension PlayStep {
    /// A value of the trigger native copies to another place in the message it sends: paths in each.
    package struct EchoPair: Codable, Sendable, Equatable {
        /// The path in the page message the step follows.
        package var from: String
        /// The path in the sent message.
        package var to: String

        private enum CodingKeys: String, CodingKey, CaseIterable { case from, to }

        package init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            from = try container.decode(String.self, forKey: .from)
            to = try container.decode(String.self, forKey: .to)
        }
    }

    /// One element of `echo`: a name copied to the same place, or a value copied from one path to another.
    enum EchoEntry: Codable {
        case name(String)
        case pair(EchoPair)

        var name: String? { if case .name(let name) = self { name } else { nil } }
        var pair: EchoPair? { if case .pair(let pair) = self { pair } else { nil } }

        init(from decoder: any Decoder) throws {
            if let name = try? decoder.singleValueContainer().decode(String.self) {
                self = .name(name)
            } else {
                self = .pair(try EchoPair(from: decoder))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .name(let name):
                var container = encoder.singleValueContainer()
                try container.encode(name)
            case .pair(let pair): try pair.encode(to: encoder)
            }
        }
    }
}
