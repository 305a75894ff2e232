import Foundation

/// Which way a message travels across the bridge.
public enum Direction: String, Codable, Sendable, CaseIterable {
    /// `window.webkit.messageHandlers.<handler>.postMessage(m)`.
    case pageToNative = "page-to-native"
    /// `evaluateJavaScript("<receiver>(<json>)")`.
    case nativeToPage = "native-to-page"

    /// The side that sends messages of this direction.
    var sender: String { self == .pageToNative ? "the page" : "the native code" }
}

/// Whether fields the contract doesn't declare are violations.
public enum ValidationMode: Sendable {
    /// Extra fields are violations: the default in tests.
    case strict
    /// Extra fields are ignored: the default in production, so a newer page still talks to an older app.
    case lenient
}

/// The bridge contract both sides share: handlers, receiver, version, how messages are named, every message.
public struct BridgeContract: Codable, Sendable, Equatable {
    /// The contract version; an incompatible change must bump it.
    public var version: Int
    /// The message handler name the page posts to (`window.webkit.messageHandlers.<handler>`).
    public var handler: String
    /// The page function the native code calls, e.g. `window.bridgeReceive`.
    public var receiver: String
    /// Every message either side may send.
    public var messages: [MessageSpec]
    /// The request-id field, when acknowledgements must carry the id of their request.
    public var requestID: RequestIDSpec?
    /// The field(s) whose values name an object message: `["kind"]` unless the contract says otherwise.
    public var discriminator: [String]
    /// Which frames may post messages: the main frame only unless origins are declared.
    public var frames: FrameRule?
    /// How the check plays the native side for this contract (not part of the protocol: never locked).
    public var check: CheckPlay?

    public init(
        version: Int, handler: String, receiver: String, messages: [MessageSpec], requestID: RequestIDSpec? = nil,
        discriminator: [String] = ["kind"], frames: FrameRule? = nil, check: CheckPlay? = nil
    ) {
        self.version = version
        self.handler = handler
        self.receiver = receiver
        self.messages = messages
        self.requestID = requestID
        self.discriminator = discriminator
        self.frames = frames
        self.check = check
    }

    /// The default contract (Docs/CONTRACT.md): page→native `ready {version: 1}`, native→page `sync {value: String}`.
    ///
    /// The same contract ships as `DefaultContract.json`; a test keeps the two equal.
    public static let `default` = BridgeContract(
        version: 1,
        handler: "bridge",
        receiver: "window.bridgeReceive",
        messages: [
            MessageSpec(kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))]),
            MessageSpec(kind: "sync", direction: .nativeToPage, fields: ["value": FieldSpec(.string)]),
        ]
    )

    /// The URL of the bundled `DefaultContract.json`.
    public static var defaultContractURL: URL? {
        Bundle.module.url(forResource: "DefaultContract", withExtension: "json")
    }

    /// The URL of the committed lock of the bundled default contract.
    public static var defaultLockURL: URL? {
        Bundle.module.url(forResource: "DefaultContract.lock", withExtension: "json")
    }

    /// The message named `kind` travelling in `direction`, if the contract declares one.
    public func message(_ kind: String, direction: Direction) -> MessageSpec? {
        messages.first { $0.kind == kind && $0.direction == direction }
    }

    /// Whether messages of `kind` carry the request id: those that acknowledge and those acknowledged.
    @inline(__always)  // the flat paths ask per message: a call copies the spec
    public func carriesRequestID(_ spec: MessageSpec) -> Bool {
        guard requestID != nil else { return false }
        if spec.acknowledges != nil { return true }
        let kind = spec.kind
        return messages.withUnsafeBufferPointer { specs in specs.indices.contains { specs[$0].acknowledges == kind } }
    }

    /// The discriminator values that name an object message: its `match`, or the discriminator field = kind.
    public func matchValues(of spec: MessageSpec) -> [String: ConstantValue] {
        if let match = spec.match { return match }
        return singleDiscriminator(of: spec).map { [$0: .string(spec.kind)] } ?? [:]
    }

    /// The one field whose value, the message's kind, names `spec`: the contract's only discriminator field, when
    /// the message has no `match` of its own. The validator compares it in place, without `matchValues`' dictionary.
    func singleDiscriminator(of spec: MessageSpec) -> String? {
        spec.match == nil && discriminator.count == 1 ? discriminator[0] : nil
    }

    /// The handler a page → native message is posted to.
    @inline(__always)  // asked per message by the flat paths: a call copies the spec
    public func handlerName(of spec: MessageSpec) -> String { spec.handler ?? handler }

    /// The page function a native → page message calls.
    public func functionPath(of spec: MessageSpec) -> String { spec.call ?? receiver }

    /// Every handler the page posts to, the contract's first; the native side registers each.
    public var handlerNames: [String] {
        var names = [handler]
        for spec in messages where spec.direction == .pageToNative && (spec.transport ?? .postMessage) == .postMessage {
            let name = handlerName(of: spec)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Whether native answers messages on `handler` with a reply (`WKScriptMessageHandlerWithReply`).
    public func repliesOn(handler name: String) -> Bool {
        messages.contains {
            $0.direction == .pageToNative && $0.reply != nil && ($0.transport ?? .postMessage) == .postMessage
                && handlerName(of: $0) == name
        }
    }

    /// Whether the page uses the synchronous `prompt()` channel, which native answers through `WKUIDelegate`.
    public var usesPromptChannel: Bool { messages.contains { $0.transport == .prompt } }

    // MARK: Reading and writing the contract file

    /// Reads a contract file; errors name the file, the JSON path and the remedy.
    public static func load(contentsOf url: URL) throws(ContractFileError) -> BridgeContract {
        try ContractFileError.reading(
            url, what: "the contract file", remedy: "check that the path exists and is readable",
            BridgeContract.init(jsonData:))
    }

    /// Decodes and checks a contract from JSON text.
    public init(jsonData: Data) throws(ContractFileError) {
        let decoded = try ContractFileError.decodeJSON(BridgeContract.self, from: jsonData)
        try decoded.checkDefinition()
        self = decoded
    }

    /// The canonical contract file: pretty, sorted keys, a trailing newline.
    public func jsonData() -> Data {
        canonicalJSON(self)
    }

    /// The contract without its check section: what the lock records and the diff compares.
    public var protocolOnly: BridgeContract {
        var copy = self
        copy.check = nil
        return copy
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, handler, receiver, messages, requestID, discriminator, frames, check
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        handler = try container.decode(String.self, forKey: .handler)
        receiver = try container.decode(String.self, forKey: .receiver)
        messages = try container.decode([MessageSpec].self, forKey: .messages)
        requestID = try container.decodeIfPresent(RequestIDSpec.self, forKey: .requestID)
        // One field as a string, several as an array.
        if let single = try? container.decodeIfPresent(String.self, forKey: .discriminator) {
            discriminator = [single]
        } else {
            discriminator = try container.decodeIfPresent([String].self, forKey: .discriminator) ?? ["kind"]
        }
        frames = try container.decodeIfPresent(FrameRule.self, forKey: .frames)
        check = try container.decodeIfPresent(CheckPlay.self, forKey: .check)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(handler, forKey: .handler)
        try container.encode(receiver, forKey: .receiver)
        try container.encode(messages, forKey: .messages)
        try container.encodeIfPresent(requestID, forKey: .requestID)
        // Today's files stay byte for byte what they were: the default discriminator is left out.
        if discriminator != ["kind"] {
            if discriminator.count == 1 {
                try container.encode(discriminator[0], forKey: .discriminator)
            } else {
                try container.encode(discriminator, forKey: .discriminator)
            }
        }
        try container.encodeIfPresent(frames, forKey: .frames)
        try container.encodeIfPresent(check, forKey: .check)
    }

    /// Checks what the JSON shape alone can't: names, references and uniqueness.
    func checkDefinition() throws(ContractFileError) {
        func invalid(_ path: String, _ problem: String, _ remedy: String) -> ContractFileError {
            ContractFileError(code: .invalidValue, path: path, problem: problem, remedy: remedy)
        }
        if version < 1 {
            throw invalid(
                "version", "the contract version must be 1 or more",
                "start at 1 and bump it on every incompatible change")
        }
        if handler.isEmpty {
            throw invalid("handler", "the handler name is empty", "name the message handler, e.g. \"bridge\"")
        }
        if !BridgeContract.isScriptPath(receiver) {
            throw invalid(
                "receiver", "the receiver must be a JavaScript name such as window.bridgeReceive",
                "use identifiers separated by dots (letters, digits, _ and $)")
        }
        if discriminator.isEmpty || discriminator.contains(where: \.isEmpty) {
            throw invalid(
                "discriminator", "the discriminator must name at least one field, none of them empty",
                "write a field name such as \"type\", or an array such as [\"component\", \"event\"]")
        }
        if let requestID {
            if requestID.field.isEmpty || discriminator.contains(requestID.field) {
                throw invalid(
                    "requestID.field", "the request-id field must be a non-empty name other than the discriminator",
                    "name it, e.g. \"id\"")
            }
        }
        if let frames { try frames.check() }
        var seen = Set<String>()
        var named: [String: String] = [:]
        for (index, message) in messages.enumerated() {
            let path = "messages[\(index)]"
            if message.kind.isEmpty {
                throw invalid("\(path).kind", "the kind is empty", "give every message a non-empty kind")
            }
            if !seen.insert(message.kind).inserted {
                throw invalid(
                    "\(path).kind", "kind \"\(message.kind)\" is declared twice", "give each message its own kind")
            }
            try checkShape(message, path: path, invalid: invalid)
            if message.isObject {
                let match = matchValues(of: message)
                if match.isEmpty {
                    throw invalid(
                        "\(path).match", "with several discriminator fields a message must name its values",
                        "add \"match\": {\(discriminator.map { "\"\($0)\": …" }.joined(separator: ", "))}")
                }
                // Two messages the same values name could never be told apart.
                let signature =
                    "\(message.direction.rawValue) \(handlerName(of: message)) \(message.transport ?? .postMessage) "
                    + match.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                if let other = named[signature] {
                    throw invalid(
                        "\(path).match", "\"\(message.kind)\" is named by the same values as \"\(other)\"",
                        "give each message its own discriminator values")
                }
                named[signature] = message.kind
                let carried = carriesRequestID(message) ? requestID?.field : nil
                for name in message.fields.keys where match[name] != nil || name == carried || name.isEmpty {
                    throw invalid(
                        "\(path).fields.\(name)", "field \"\(name)\" is reserved or empty",
                        "the discriminator and the request-id field are implicit; don't declare them as fields")
                }
            }
            if case .constant(let constant)? = message.body {
                // Two bare messages with the same value could never be told apart either.
                let signature =
                    "\(message.direction.rawValue) \(handlerName(of: message)) \(message.transport ?? .postMessage) "
                    + "body=\(constant.typeName) \(constant)"
                if let other = named[signature] {
                    throw invalid(
                        "\(path).body", "\"\(message.kind)\" is the same constant as \"\(other)\"",
                        "give each bare message its own value")
                }
                named[signature] = message.kind
            }
            try FieldSpec.check(message.fields, path: "\(path).fields")
            if let target = message.acknowledges {
                guard requestID != nil else {
                    throw invalid(
                        "\(path).acknowledges", "acknowledges needs a request-id field",
                        "add \"requestID\": {\"field\": \"id\"} to the contract")
                }
                guard let request = messages.first(where: { $0.kind == target }), request.direction != message.direction
                else {
                    throw invalid(
                        "\(path).acknowledges",
                        "acknowledges \"\(target)\", which is not a message of the other direction",
                        "name the kind of a message sent the other way")
                }
                if !message.isObject || !request.isObject {
                    throw invalid(
                        "\(path).acknowledges", "a request and its answer must both be objects, to carry the id",
                        "declare both with fields, not body")
                }
            }
        }
        if let check { try check.check(against: self) }
    }

    /// The per-direction rules of a message's optional keys.
    private func checkShape(
        _ message: MessageSpec, path: String, invalid: (String, String, String) -> ContractFileError
    ) throws(ContractFileError) {
        let toNative = message.direction == .pageToNative
        if let body = message.body {
            if !message.fields.isEmpty || message.match != nil {
                throw invalid(
                    "\(path).body", "a message with a body type is not an object: it has no fields or match",
                    "remove fields and match, or remove body")
            }
            try body.check(path: "\(path).body")
        }
        if let match = message.match {
            for (name, value) in match where name.isEmpty {
                throw invalid("\(path).match", "a match field name is empty (value \(value.typeName))", "name it")
            }
            if match.isEmpty {
                throw invalid("\(path).match", "match is empty", "name at least one discriminator value")
            }
        }
        if !toNative {
            for (key, present) in [
                ("handler", message.handler != nil), ("transport", message.transport != nil),
                ("reply", message.reply != nil), ("pageError", message.pageError),
            ] where present {
                throw invalid(
                    "\(path).\(key)", "\(key) applies to page-to-native messages only",
                    "remove it, or use call for a native-to-page message's page function")
            }
        }
        if toNative, message.call != nil {
            throw invalid(
                "\(path).call", "call applies to native-to-page messages only",
                "remove it; a page-to-native message names its handler with handler")
        }
        if let call = message.call, !BridgeContract.isScriptPath(call) {
            throw invalid(
                "\(path).call", "call must be a JavaScript name such as window.nativeBridge.register",
                "use identifiers separated by dots (letters, digits, _ and $)")
        }
        if let handler = message.handler, handler.isEmpty {
            throw invalid("\(path).handler", "the handler name is empty", "name the handler, or leave the key out")
        }
        if let reply = message.reply {
            try reply.check(path: "\(path).reply")
            if message.transport == .prompt {
                switch reply {
                case .string, .constant(.string): break
                default:
                    throw invalid(
                        "\(path).reply", "a prompt's answer is text", "declare reply as {\"type\": \"string\"}")
                }
            }
        }
        if message.transport == .prompt, message.body != nil {
            throw invalid(
                "\(path).transport", "a prompt message is JSON text of an object",
                "declare it with fields (and match), not body")
        }
        if message.transport == .prompt, message.handler != nil {
            throw invalid(
                "\(path).handler", "a prompt message is not posted to a handler",
                "remove handler; native answers prompts through WKUIDelegate")
        }
    }

    /// Whether `text` is a dotted JavaScript name, the only receiver form ever written into a script.
    static func isScriptPath(_ text: String) -> Bool {
        // ASCII only, scanned as bytes of one buffer (not through the UTF-8 view): it runs for every native → page
        // call.
        var text = text
        return text.withUTF8(isScriptPath)
    }

    private static func isScriptPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atPartStart = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."):
                if atPartStart { return false }
                atPartStart = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
                UInt8(ascii: "$"):
                atPartStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if atPartStart { return false }
            default:
                return false
            }
        }
        return !atPartStart
    }
}

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

/// The request-id field that requests and their acknowledgements carry.
public struct RequestIDSpec: Codable, Sendable, Equatable {
    /// The field name, e.g. `id`; its value is a non-empty string.
    public var field: String

    public init(field: String) { self.field = field }

    private enum CodingKeys: String, CodingKey { case field }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(["field"])
        field = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .field)
    }
}

/// A field's declared type and whether it may be left out.
public struct FieldSpec: Codable, Sendable, Equatable {
    public var type: FieldType
    /// Whether the field may be absent (it may never be `null` unless the type says so).
    public var optional: Bool

    public init(_ type: FieldType, optional: Bool = false) {
        self.type = type
        self.optional = optional
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case type, optional, value, items, fields
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        optional = try container.decodeIfPresent(Bool.self, forKey: .optional) ?? false
        let name = try container.decode(String.self, forKey: .type)
        func requireAbsent(_ keys: [CodingKeys]) throws {
            for key in keys where container.contains(key) {
                throw ContractFileError(
                    code: .unknownKey, path: jsonPath(container.codingPath + [key]),
                    problem: "\"\(key.rawValue)\" does not apply to type \(name)",
                    remedy: "remove it (value is for constant, items for array, fields for object)")
            }
        }
        switch name {
        case "string": type = .string
        case "number": type = .number
        case "integer": type = .integer
        case "boolean": type = .boolean
        case "constant":
            guard container.contains(.value) else {
                throw ContractFileError(
                    code: .missingKey, path: jsonPath(container.codingPath + [CodingKeys.value]),
                    problem: "a constant needs a value", remedy: "add \"value\": a string, a number or a boolean")
            }
            type = .constant(try container.decode(ConstantValue.self, forKey: .value))
        case "array":
            type = .array(try container.decode(FieldType.Box.self, forKey: .items).type)
        case "object":
            type = .object(try container.decode([String: FieldSpec].self, forKey: .fields))
        default:
            throw ContractFileError(
                code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.type]),
                problem: "unknown field type \"\(name)\"",
                remedy: "use one of: \(FieldType.names.joined(separator: ", "))")
        }
        switch type {
        case .constant: try requireAbsent([.items, .fields])
        case .array: try requireAbsent([.value, .fields])
        case .object: try requireAbsent([.value, .items])
        default: try requireAbsent([.value, .items, .fields])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.name, forKey: .type)
        if optional { try container.encode(true, forKey: .optional) }
        switch type {
        case .constant(let value): try container.encode(value, forKey: .value)
        case .array(let items): try container.encode(FieldType.Box(type: items), forKey: .items)
        case .object(let fields): try container.encode(fields, forKey: .fields)
        default: break
        }
    }

    static func check(_ fields: [String: FieldSpec], path: String) throws(ContractFileError) {
        for (name, spec) in fields.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty {
                throw ContractFileError(
                    code: .invalidValue, path: path, problem: "a field name is empty", remedy: "name every field")
            }
            try spec.type.check(path: "\(path).\(name)")
        }
    }
}

/// The type a field must have; JS has one number type, so `integer` is a number with no fraction.
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
    case string
    case number
    case integer
    case boolean
    /// Exactly this value (e.g. `version: 1`).
    case constant(ConstantValue)
    /// An array whose every element has this type.
    case array(FieldType)
    /// A nested object with its own typed fields.
    case object([String: FieldSpec])

    static let names = ["string", "number", "integer", "boolean", "constant", "array", "object"]

    var name: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .integer: "integer"
        case .boolean: "boolean"
        case .constant: "constant"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The expectation as a violation states it: `String`, `Integer`, `Number 1`, `Array of String`.
    public var description: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .integer: "Integer"
        case .boolean: "Boolean"
        case .constant(let value): "\(value.typeName) \(value)"
        case .array(let items): "Array of \(items)"
        case .object: "Object"
        }
    }

    func check(path: String) throws(ContractFileError) {
        switch self {
        case .constant(.number(let value)) where !value.isFinite:
            throw ContractFileError(
                code: .invalidValue, path: "\(path).value", problem: "a constant number must be finite",
                remedy: "use a finite number")
        case .array(let items): try items.check(path: "\(path).items")
        case .object(let fields): try FieldSpec.check(fields, path: "\(path).fields")
        default: break
        }
    }

    /// An element type written as `{"type": ...}` (same shape as a field, without `optional`).
    struct Box: Codable {
        var type: FieldType
        init(type: FieldType) { self.type = type }
        init(from decoder: any Decoder) throws {
            let spec = try FieldSpec(from: decoder)
            if spec.optional {
                throw ContractFileError(
                    code: .invalidValue, path: jsonPath(decoder.codingPath + [AnyKey("optional")]),
                    problem: "array elements can't be optional", remedy: "remove \"optional\" from items")
            }
            type = spec.type
        }
        func encode(to encoder: any Encoder) throws { try FieldSpec(type).encode(to: encoder) }
    }
}

/// The value of a constant field: a JSON string, number or boolean.
public enum ConstantValue: Codable, Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case boolean(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Booleans first: some decoders would read `true` as a number.
        if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw ContractFileError(
                code: .wrongType, path: jsonPath(decoder.codingPath),
                problem: "a constant must be a string, a number or a boolean", remedy: "write a JSON scalar")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .boolean(let flag): try container.encode(flag)
        case .number(let number):
            if let integer = Int(exactly: number) {
                try container.encode(integer)
            } else {
                try container.encode(number)
            }
        }
    }

    var typeName: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .boolean: "Boolean"
        }
    }

    /// The constant as JSON text (contract data, never message data).
    public var description: String {
        switch self {
        case .string(let text):
            let data =
                (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return String(number)
        }
    }
}
