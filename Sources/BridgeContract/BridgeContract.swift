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

/// The bridge contract both sides share: handler, receiver, version and every message.
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

    public init(
        version: Int, handler: String, receiver: String, messages: [MessageSpec], requestID: RequestIDSpec? = nil
    ) {
        self.version = version
        self.handler = handler
        self.receiver = receiver
        self.messages = messages
        self.requestID = requestID
    }

    /// The default contract of DESIGN.md: page→native `ready {version: 1}`, native→page `sync {value: String}`.
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

    /// The message of `kind` travelling in `direction`, if the contract declares one.
    public func message(_ kind: String, direction: Direction) -> MessageSpec? {
        messages.first { $0.kind == kind && $0.direction == direction }
    }

    /// Whether messages of `kind` carry the request id: those that acknowledge and those acknowledged.
    public func carriesRequestID(_ spec: MessageSpec) -> Bool {
        guard requestID != nil else { return false }
        return spec.acknowledges != nil || messages.contains { $0.acknowledges == spec.kind }
    }

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
        try decoded.check()
        self = decoded
    }

    /// The canonical contract file: pretty, sorted keys, a trailing newline.
    public func jsonData() -> Data {
        canonicalJSON(self)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, handler, receiver, messages, requestID
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        handler = try container.decode(String.self, forKey: .handler)
        receiver = try container.decode(String.self, forKey: .receiver)
        messages = try container.decode([MessageSpec].self, forKey: .messages)
        requestID = try container.decodeIfPresent(RequestIDSpec.self, forKey: .requestID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(handler, forKey: .handler)
        try container.encode(receiver, forKey: .receiver)
        try container.encode(messages, forKey: .messages)
        try container.encodeIfPresent(requestID, forKey: .requestID)
    }

    /// Checks what the JSON shape alone can't: names, references and uniqueness.
    func check() throws(ContractFileError) {
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
        if let requestID {
            if requestID.field.isEmpty || requestID.field == "kind" {
                throw invalid(
                    "requestID.field", "the request-id field must be a non-empty name other than kind",
                    "name it, e.g. \"id\"")
            }
        }
        var seen = Set<String>()
        for (index, message) in messages.enumerated() {
            let path = "messages[\(index)]"
            if message.kind.isEmpty {
                throw invalid("\(path).kind", "the kind is empty", "give every message a non-empty kind")
            }
            if !seen.insert(message.kind).inserted {
                throw invalid(
                    "\(path).kind", "kind \"\(message.kind)\" is declared twice", "give each message its own kind")
            }
            for name in message.fields.keys where name == "kind" || name == requestID?.field || name.isEmpty {
                throw invalid(
                    "\(path).fields.\(name)", "field \"\(name)\" is reserved or empty",
                    "kind and the request-id field are implicit; don't declare them as fields")
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
            }
        }
    }

    /// Whether `text` is a dotted JavaScript name, the only receiver form ever written into a script.
    static func isScriptPath(_ text: String) -> Bool {
        // ASCII only, scanned as bytes: it runs for every native → page call.
        var atPartStart = true
        for byte in text.utf8 {
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

/// One message either side may send: its kind, direction, typed fields and what it acknowledges.
public struct MessageSpec: Codable, Sendable, Equatable {
    /// The value of the message's `kind` field.
    public var kind: String
    public var direction: Direction
    /// The typed fields besides `kind` (and the request id, when the message carries one).
    public var fields: [String: FieldSpec]
    /// The kind of the request this message acknowledges, sent the other way.
    public var acknowledges: String?

    public init(kind: String, direction: Direction, fields: [String: FieldSpec] = [:], acknowledges: String? = nil) {
        self.kind = kind
        self.direction = direction
        self.fields = fields
        self.acknowledges = acknowledges
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, direction, fields, acknowledges
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
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(direction, forKey: .direction)
        try container.encode(fields, forKey: .fields)
        try container.encodeIfPresent(acknowledges, forKey: .acknowledges)
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
