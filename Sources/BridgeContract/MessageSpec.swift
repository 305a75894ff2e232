import Foundation

/// One message either side may send: its name, how it is told apart, its typed fields and what it answers.
///
/// An object message is named by its discriminator values (`match`, or the contract's discriminator field
/// equal to `kind`); a message that is not an object (a bare string, an array argument) declares `body`.
public struct MessageSpec: Codable, Sendable, Equatable {
    /// The message's name; for an object message without `match`, also the value of the discriminator field.
    public var kind: String
    public var direction: Direction
    /// The typed fields besides the discriminator (and the request id, when the message carries one).
    public var fields: [String: FieldSpec]
    /// The kind of the request this message answers, sent the other way; the answer carries its request id.
    public var acknowledges: String?
    /// The discriminator values that name this message, e.g. `{component: "form", event: "connect"}`.
    public var match: [String: ConstantValue]?
    /// The type of a message that is not an object: `"ready"` as a constant, or a call's array argument.
    public var body: FieldType?
    /// Page → native: the handler it is posted to, when not the contract's.
    public var handler: String?
    /// Page → native: how the page sends it, `postMessage` (default) or the synchronous `prompt` channel.
    public var transport: Transport?
    /// Page → native: the type of native's answer (a reply handler's reply, or a prompt's text).
    public var reply: FieldType?
    /// Native → page: the page function it calls, when not the contract's receiver.
    public var call: String?
    /// Page → native: the page reports an error with it (Capacitor's `js.error`): its arrival fails the check.
    public var pageError: Bool

    /// How a page → native message travels.
    public enum Transport: String, Codable, Sendable, Equatable {
        /// `window.webkit.messageHandlers.<handler>.postMessage(m)`.
        case postMessage
        /// `prompt(JSON.stringify(m))`, answered synchronously through `WKUIDelegate`'s text input panel.
        case prompt
    }

    public init(
        kind: String, direction: Direction, fields: [String: FieldSpec] = [:], acknowledges: String? = nil,
        match: [String: ConstantValue]? = nil, body: FieldType? = nil, handler: String? = nil,
        transport: Transport? = nil, reply: FieldType? = nil, call: String? = nil, pageError: Bool = false
    ) {
        self.kind = kind
        self.direction = direction
        self.fields = fields
        self.acknowledges = acknowledges
        self.match = match
        self.body = body
        self.handler = handler
        self.transport = transport
        self.reply = reply
        self.call = call
        self.pageError = pageError
    }

    /// Whether the message is an object (named by discriminator values) rather than a bare value.
    public var isObject: Bool { body == nil }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, direction, fields, acknowledges, match, body, handler, transport, reply, call, pageError
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        let directionText = try container.decode(String.self, forKey: .direction)
        guard let direction = Direction(rawValue: directionText) else {
            throw ContractFileError(
                code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.direction]),
                problem: "unknown direction \"\(directionText)\"",
                remedy: "use \"page-to-native\" or \"native-to-page\"")
        }
        self.direction = direction
        fields = try container.decodeIfPresent([String: FieldSpec].self, forKey: .fields) ?? [:]
        acknowledges = try container.decodeIfPresent(String.self, forKey: .acknowledges)
        match = try container.decodeIfPresent([String: ConstantValue].self, forKey: .match)
        body = try container.decodeIfPresent(FieldType.Box.self, forKey: .body)?.type
        handler = try container.decodeIfPresent(String.self, forKey: .handler)
        if let text = try container.decodeIfPresent(String.self, forKey: .transport) {
            guard let transport = Transport(rawValue: text) else {
                throw ContractFileError(
                    code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.transport]),
                    problem: "unknown transport \"\(text)\"", remedy: "use \"postMessage\" or \"prompt\"")
            }
            self.transport = transport
        }
        reply = try container.decodeIfPresent(FieldType.Box.self, forKey: .reply)?.type
        call = try container.decodeIfPresent(String.self, forKey: .call)
        pageError = try container.decodeIfPresent(Bool.self, forKey: .pageError) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(direction, forKey: .direction)
        // A bare message has no fields: leave the key out rather than write an empty object.
        if body == nil || !fields.isEmpty { try container.encode(fields, forKey: .fields) }
        try container.encodeIfPresent(acknowledges, forKey: .acknowledges)
        try container.encodeIfPresent(match, forKey: .match)
        try container.encodeIfPresent(body.map(FieldType.Box.init(type:)), forKey: .body)
        try container.encodeIfPresent(handler, forKey: .handler)
        try container.encodeIfPresent(transport, forKey: .transport)
        try container.encodeIfPresent(reply.map(FieldType.Box.init(type:)), forKey: .reply)
        try container.encodeIfPresent(call, forKey: .call)
        if pageError { try container.encode(true, forKey: .pageError) }
    }
}
