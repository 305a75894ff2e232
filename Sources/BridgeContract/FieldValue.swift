/// A field value whose type the contract checked.
///
/// Its `description` is the structure (`String`, `[Number]`), so interpolating it into a log leaks nothing.
public enum FieldValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    case string(String)
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case array([FieldValue])
    case object([String: FieldValue])
    case null

    /// The JS type name, for structure descriptions.
    package var typeName: String {
        switch self {
        case .string: "String"
        case .number, .integer: "Number"
        case .boolean: "Boolean"
        case .array: "Array"
        case .object: "Object"
        case .null: "Null"
        }
    }

    /// A JSON value as a checked value (an `any` field's): numbers stay numbers.
    init(_ json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .boolean(let flag): self = .boolean(flag)
        case .null: self = .null
        case .array(let items): self = .array(items.map(FieldValue.init))
        case .object(let fields): self = .object(fields.mapValues(FieldValue.init))
        }
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var numberValue: Double? {
        switch self {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    public var intValue: Int? { if case .integer(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .boolean(let value) = self { value } else { nil } }

    public var description: String { structure }
    public var debugDescription: String { structure }

    /// The value as JSON.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        case .integer(let integer): .number(Double(integer))
        case .boolean(let flag): .boolean(flag)
        case .array(let items): .array(items.map(\.jsonValue))
        case .object(let fields): .object(fields.mapValues(\.jsonValue))
        case .null: .null
        }
    }

    var structure: String {
        switch self {
        case .array(let items): "[" + items.map(\.structure).joined(separator: ", ") + "]"
        case .object(let fields):
            "{" + fields.keys.sorted().map { "\($0): \(fields[$0]!.structure)" }.joined(separator: ", ") + "}"
        default: typeName
        }
    }
}
