import Foundation

/// A JSON value from a contract or check file: what native sends or replies in a check, a field's constant
/// (`.constant(.number(1))`), never page data.
public enum JSONValue: Codable, Sendable, Equatable, CustomStringConvertible {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .boolean(let flag): try container.encode(flag)
        case .number(let number):
            if let integer = Int(exactly: number) {
                try container.encode(integer)
            } else {
                try container.encode(number)
            }
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }

    /// The value as Foundation hands JSON to code (`NSNull`, `Bool`, `Double`, `String`, arrays, dictionaries).
    public var foundationValue: Any {
        switch self {
        case .null: NSNull()
        case .boolean(let flag): flag
        case .number(let number): number
        case .string(let text): text
        case .array(let items): items.map(\.foundationValue)
        case .object(let fields): fields.mapValues(\.foundationValue)
        }
    }

    /// The field `name` of an object.
    public subscript(name: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[name] }
        return nil
    }

    /// The value as compact JSON text, keys sorted (what JSON text fields carry).
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A JSONValue holds only what JSON can: encoding it can't fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// The structure (`{kind: String, items: [String]}`), safe to log.
    public var structure: String { BodyValue(foundationValue).structure() }

    /// The value as JSON text: a constant as a contract writes it (contract data, never message data).
    public var description: String {
        switch self {
        case .string(let text):
            let data =
                (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        case .boolean(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return String(number)
        case .array, .object: return text
        }
    }

    /// The JS type name, as violations name it (`String`, `Number`, `Null`).
    package var typeName: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .boolean: "Boolean"
        case .null: "Null"
        case .array: "Array"
        case .object: "Object"
        }
    }

    /// Whether a field's constant may be this value: a string, a number, a boolean or null.
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}

/// A constant as a contract file writes it (a field's `value`, a `match` value): a JSON scalar or null.
struct ContractConstant: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Booleans first: some decoders would read `true` as a number.
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .boolean(flag)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else {
            throw Self.notScalar(path: jsonPath(decoder.codingPath))
        }
    }

    static func notScalar(path: String) -> ContractError {
        ContractError(
            code: .wrongType, path: path, problem: "a constant must be a string, a number, a boolean or null",
            remedy: "write a JSON scalar or null; for an array or an object declare its type")
    }
}

extension FieldType {
    /// A value of this type with only what is required: what the check sends when the play gives no value.
    public var sample: JSONValue {
        switch self {
        case .string: .string("ok")
        case .number, .integer: .number(1)
        case .boolean: .boolean(true)
        case .constant(let value): value
        case .array: .array([])
        case .object(let fields):
            .object(fields.filter { !$0.value.optional }.mapValues(\.type.sample))
        case .json(let content): .string(content.sample.text)
        case .tuple(let items): .array(items.map(\.sample))
        case .null, .any: .null
        }
    }
}

extension JSONValue {
    /// What a script's result shows as JSON, read from the value the engine handed over (`Any`), never through
    /// the page's own `JSON.stringify`; nil for `undefined`, and for what JSON cannot hold (a nesting past the
    /// limit, a value of no JS type). A Date is its ISO 8601 text and a non-finite number `null`, as JSON gives them.
    public init?(engineValue value: Any?) {
        guard let converted = Self.converted(BodyValue(value)) else { return nil }
        self = converted
    }

    static func converted(_ value: BodyValue) -> JSONValue? {
        switch value {
        case .undefined, .tooDeep, .unsupported: return nil
        case .null: return .null
        case .boolean(let flag): return .boolean(flag)
        case .number(let number): return number.isFinite ? .number(number) : .null
        case .string(let text): return .string(text)
        case .date(let date):
            let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            return .string(date.formatted(format))
        case .array(let items): return .array(items.map { converted($0) ?? .null })
        case .object(let fields): return .object(fields.compactMapValues(converted))
        }
    }
}
