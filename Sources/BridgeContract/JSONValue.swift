import Foundation

/// A JSON value from a contract or check file: what native sends or replies in a check, never page data.
public enum JSONValue: Codable, Sendable, Equatable {
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

    /// The structure (`{kind: String, items: [String]}`), safe to log.
    public var structure: String { BodyValue(foundationValue).structure() }
}

extension FieldType {
    /// A value of this type with only what is required: what the check sends when the play gives no value.
    public var sample: JSONValue {
        switch self {
        case .string: .string("ok")
        case .number, .integer: .number(1)
        case .boolean: .boolean(true)
        case .constant(.string(let text)): .string(text)
        case .constant(.number(let number)): .number(number)
        case .constant(.boolean(let flag)): .boolean(flag)
        case .array: .array([])
        case .object(let fields):
            .object(fields.filter { !$0.value.optional }.mapValues(\.type.sample))
        }
    }
}
