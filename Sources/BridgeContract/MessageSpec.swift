import Foundation

/// One message either side may send: its name, how it is told apart, its typed fields and what it answers.
///
/// An object message is named by its discriminator values (`match`, or the contract's discriminator field
/// equal to `kind`); a message that is not an object (a bare string, an array argument) declares `body`.
///
/// The keys that have a default (`handler`, `transport`, `call`, `match`) are resolved once, when the message
/// becomes part of a contract (built, read from its file, or changed): each reads the message's own value, else
/// the contract's. What the file declared is kept apart, so the file is written back as it was read.
public struct MessageSpec: Codable, Sendable, Equatable {
    /// The message's name; for an object message without `match`, also the value of the discriminator field.
    public var kind: String
    public var direction: Direction { didSet { resolved.override(with: declared, direction: direction) } }
    /// The typed fields besides the discriminator (and the request id, when the message carries one).
    public var fields: [String: FieldSpec]
    /// The kind of the request this message answers, sent the other way; the answer carries its request id.
    public var acknowledges: String?
    /// The type of a message that is not an object: `"ready"` as a constant, or a call's array argument.
    public var body: FieldType?
    /// Page → native: the type of native's answer (a reply handler's reply, or a prompt's text).
    public var reply: FieldType?
    /// Page → native: the page reports an error with it (Capacitor's `js.error`): its arrival fails the check.
    public var pageError: Bool
    /// An object message that travels as its JSON text (`"encoding": "json"`): the page posts
    /// `JSON.stringify(m)`, or native sends the text. It is parsed, then matched and checked like an object.
    public var jsonText = false
    /// The keys that have a default, as the file (or the initializer) wrote them.
    package private(set) var declared: Declared
    /// The same keys resolved against the contract; until the message is part of one, against nothing (see
    /// `Defaults.none`).
    private var resolved: Resolved

    /// Page → native: the handler it is posted to: its own, else the contract's. Setting it declares it.
    public var handler: String {
        get { resolved.handler }
        set { declare(\.handler, newValue) }
    }

    /// Page → native: how the page sends it: `postMessage` (the default) or the synchronous `prompt` channel.
    /// Setting it declares it.
    public var transport: Transport {
        get { resolved.transport }
        set { declare(\.transport, newValue) }
    }

    /// Native → page: the page function it calls: its own `call`, else the contract's receiver. Setting it
    /// declares it.
    public var call: String {
        get { resolved.call }
        set { declare(\.call, newValue) }
    }

    /// The discriminator values that name an object message: its own `match`, else the contract's one
    /// discriminator field equal to the kind (`{kind: "ready"}`). Setting it declares it.
    public var match: [String: JSONValue] {
        get { resolved.match }
        set { declare(\.match, newValue) }
    }

    /// Native → page: the event native dispatches with it as its data, when its contract dispatches one and the
    /// message names no `call` of its own; nil when native calls `call`.
    package var dispatch: EventDispatch? { resolved.dispatch }

    /// How it travels: page → native on its handler through its transport, or native → page. The validators'
    /// candidates, the handlers the native side registers and the definition check's uniqueness all read it.
    package var route: MessageRoute { resolved.route }

    /// The one discriminator field whose value is the kind, when that names the message (no `match` of its own and
    /// a contract with one discriminator field): the validator compares it in place, without `match`'s dictionary.
    var kindField: String? { resolved.kindField }

    /// The discriminator values named by a path (`data.type`, `payload(json).type`), each resolved in this message's
    /// shape; a top-level name is not here. Nil for a path that names nothing (the definition check refuses it).
    package var matchPaths: [String: FieldPath] { resolved.matchPaths }

    /// The request-id field, when the message carries the request id at a top-level field of its own (the contract
    /// names it with a bare name): it acknowledges a request, or is one. Nil for an id at a deeper path.
    package var requestIDField: String? { resolved.requestIDField }

    /// Where the message carries the request id, when it does: the top-level field, or the contract's path
    /// (`data.identifier`, `body[0]`) resolved in this message's shape. Nil when the path names nothing here (the
    /// contract's definition check refuses that).
    package var requestIDPath: FieldPath? { resolved.requestIDPath }

    /// A rule that a field of this message equals a field of an earlier message.
    package var correlation: CorrelationRule?

    /// How a page → native message travels.
    public enum Transport: String, Codable, Sendable, Equatable {
        /// `window.webkit.messageHandlers.<handler>.postMessage(m)`.
        case postMessage
        /// `prompt(JSON.stringify(m))`, answered synchronously through `WKUIDelegate`'s text input panel.
        case prompt

        /// The transport of a message that names none.
        public static let `default` = Transport.postMessage
    }

    /// The keys that have a default as written: nil where the file leaves one out.
    package struct Declared: Sendable, Equatable {
        package var handler: String?
        package var transport: Transport?
        package var call: String?
        package var match: [String: JSONValue]?
    }

    /// The keys that have a default, each resolved.
    private struct Resolved: Sendable, Equatable {
        var handler: String
        var transport: Transport
        var call: String
        var dispatch: EventDispatch?
        var match: [String: JSONValue]
        var kindField: String?
        var requestIDField: String?
        var requestIDPath: FieldPath?
        var matchPaths: [String: FieldPath] = [:]
        var route: MessageRoute

        /// What is declared, over what was resolved; the route follows.
        mutating func override(with declared: Declared, direction: Direction) {
            if let handler = declared.handler { self.handler = handler }
            if let transport = declared.transport { self.transport = transport }
            if let call = declared.call {
                self.call = call
                dispatch = nil
            }
            if let match = declared.match {
                self.match = match
                kindField = nil
            }
            route = MessageRoute(direction, handler: handler, transport: transport)
        }
    }

    /// What a contract gives the messages that leave a key out.
    struct Defaults {
        var handler: String
        var receiver: String
        /// The event native dispatches instead of calling the receiver, if the contract says so.
        var dispatch: EventDispatch? = nil
        var discriminator: [String]
        /// The contract's request-id field, if it declares one.
        var requestIDField: String?
        /// The kinds some message acknowledges: those carry the request id too.
        var acknowledged: Set<String>

        /// No contract yet: no handler or receiver to inherit, the default discriminator.
        static let none = Defaults(handler: "", receiver: "", discriminator: ["kind"], acknowledged: [])
    }

    /// Declares one key, keeping what the contract resolved for the others.
    private mutating func declare<Value>(_ key: WritableKeyPath<Declared, Value?>, _ value: Value) {
        declared[keyPath: key] = value
        resolved.override(with: declared, direction: direction)
        resolveMatchPaths()
    }

    /// The value a discriminator field or path has in an object message; nil where it has none.
    func matchValue(_ name: String, in object: [String: BodyValue]) -> BodyValue? {
        guard FieldPath.isPath(name) else { return object[name] }
        return matchPaths[name]?.value(in: .object(object))
    }

    /// Whether every discriminator value is in the object (at its field or path), exactly.
    func matchesAll(_ object: [String: BodyValue]) -> Bool {
        match.allSatisfy { name, constant in
            matchValue(name, in: object).map { JSONValue.matches(constant, $0) } ?? false
        }
    }

    /// How a violation names a discriminator field or path: `type`, `data.type`, `body(json).type`.
    func matchDisplay(_ name: String, prefix: String) -> String {
        matchPaths[name]?.description ?? prefix + BodyValue.displayKey(name)
    }

    /// Resolves the discriminator values named by a path in the message's declared shape.
    private mutating func resolveMatchPaths() {
        var paths: [String: FieldPath] = [:]
        if isObject {
            for name in resolved.match.keys where FieldPath.isPath(name) {
                paths[name] = (try? FieldPath.resolve(name, in: self))?.path
            }
        }
        resolved.matchPaths = paths
    }

    /// Resolves every key that has a default: the message's own value, else the contract's. The one place the
    /// defaults are applied.
    mutating func resolve(_ defaults: Defaults) {
        resolved = MessageSpec.resolving(
            declared, kind: kind, direction: direction, acknowledges: acknowledges, defaults)
        resolveMatchPaths()
        let carries = acknowledges != nil || defaults.acknowledged.contains(kind)
        if carries, let text = defaults.requestIDField {
            resolved.requestIDPath =
                FieldPath.isPath(text) ? (try? FieldPath.resolve(text, in: self))?.path : FieldPath(field: text)
        }
    }

    private static func resolving(
        _ declared: Declared, kind: String, direction: Direction, acknowledges: String?, _ defaults: Defaults
    ) -> Resolved {
        // One discriminator that is a path names the message too, but through `match`: only a top-level name is
        // compared in place.
        let single = declared.match == nil && defaults.discriminator.count == 1 ? defaults.discriminator[0] : nil
        let kindField = single.flatMap { FieldPath.isPath($0) ? nil : $0 }
        let carries = acknowledges != nil || defaults.acknowledged.contains(kind)
        let handler = declared.handler ?? defaults.handler
        let transport = declared.transport ?? .default
        return Resolved(
            handler: handler, transport: transport, call: declared.call ?? defaults.receiver,
            dispatch: declared.call == nil && direction == .nativeToPage ? defaults.dispatch : nil,
            match: declared.match ?? single.map { [$0: .string(kind)] } ?? [:], kindField: kindField,
            requestIDField: carries ? defaults.requestIDField.flatMap { FieldPath.isPath($0) ? nil : $0 } : nil,
            route: MessageRoute(direction, handler: handler, transport: transport))
    }

    public init(
        kind: String, direction: Direction, fields: [String: FieldSpec] = [:], acknowledges: String? = nil,
        match: [String: JSONValue]? = nil, body: FieldType? = nil, handler: String? = nil,
        transport: Transport? = nil, reply: FieldType? = nil, call: String? = nil, pageError: Bool = false,
        jsonText: Bool = false
    ) {
        self.kind = kind
        self.jsonText = jsonText
        self.direction = direction
        self.fields = fields
        self.acknowledges = acknowledges
        self.body = body
        self.reply = reply
        self.pageError = pageError
        declared = Declared(handler: handler, transport: transport, call: call, match: match)
        resolved = MessageSpec.resolving(
            declared, kind: kind, direction: direction, acknowledges: acknowledges, .none)
        resolveMatchPaths()
    }

    /// Whether the message is an object (named by discriminator values) rather than a bare value.
    public var isObject: Bool { body == nil }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, direction, fields, acknowledges, match, body, handler, transport, reply, call, pageError, encoding
        case correlation
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        let directionText = try container.decode(String.self, forKey: .direction)
        guard let direction = Direction(rawValue: directionText) else {
            throw ContractError(
                code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.direction]),
                problem: "unknown direction \"\(directionText)\"",
                remedy: "use \"page-to-native\" or \"native-to-page\"")
        }
        // Decoded in the file's documented order, so the first of several errors is always the same one.
        let fields = try container.decodeIfPresent([String: FieldSpec].self, forKey: .fields) ?? [:]
        let acknowledges = try container.decodeIfPresent(String.self, forKey: .acknowledges)
        let match = try container.decodeIfPresent([String: ContractConstant].self, forKey: .match)?.mapValues(\.value)
        let body = try container.decodeIfPresent(FieldType.Box.self, forKey: .body)?.type
        let handler = try container.decodeIfPresent(String.self, forKey: .handler)
        var transport: Transport?
        if let text = try container.decodeIfPresent(String.self, forKey: .transport) {
            guard let named = Transport(rawValue: text) else {
                throw ContractError(
                    code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.transport]),
                    problem: "unknown transport \"\(text)\"", remedy: "use \"postMessage\" or \"prompt\"")
            }
            transport = named
        }
        let reply = try container.decodeIfPresent(FieldType.Box.self, forKey: .reply)?.type
        self.init(
            kind: kind, direction: direction, fields: fields, acknowledges: acknowledges, match: match, body: body,
            handler: handler, transport: transport, reply: reply,
            call: try container.decodeIfPresent(String.self, forKey: .call),
            pageError: try container.decodeIfPresent(Bool.self, forKey: .pageError) ?? false)
        if let encoding = try container.decodeIfPresent(String.self, forKey: .encoding) {
            guard encoding == "json" else {
                throw ContractError(
                    code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.encoding]),
                    problem: "unknown encoding \"\(encoding)\"",
                    remedy: "use \"json\" for a message sent as its JSON text, or remove encoding")
            }
            jsonText = true
        }
        correlation = try container.decodeIfPresent(CorrelationRule.self, forKey: .correlation)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(direction, forKey: .direction)
        // A bare message has no fields: leave the key out rather than write an empty object.
        if body == nil || !fields.isEmpty { try container.encode(fields, forKey: .fields) }
        try container.encodeIfPresent(acknowledges, forKey: .acknowledges)
        // What the file declared, not what it resolves to: the file is written back as it was read.
        try container.encodeIfPresent(declared.match, forKey: .match)
        try container.encodeIfPresent(body.map(FieldType.Box.init(type:)), forKey: .body)
        try container.encodeIfPresent(declared.handler, forKey: .handler)
        try container.encodeIfPresent(declared.transport, forKey: .transport)
        try container.encodeIfPresent(reply.map(FieldType.Box.init(type:)), forKey: .reply)
        try container.encodeIfPresent(declared.call, forKey: .call)
        if pageError { try container.encode(true, forKey: .pageError) }
        if jsonText { try container.encode("json", forKey: .encoding) }
        try container.encodeIfPresent(correlation, forKey: .correlation)
    }
}
