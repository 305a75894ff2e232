/// The type a field must have; JS has one number type, so `integer` is a number with no fraction.
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
    case string
    case number
    case integer
    case boolean
    /// Exactly this value (e.g. `version: 1`).
    case constant(JSONValue)
    /// An array whose every element has this type.
    case array(FieldType)
    /// A nested object with its own typed fields.
    case object([String: FieldSpec])
    /// A string holding JSON text, whose parsed value has this type: `{"type": "string", "encoding": "json",
    /// "content": {...}}`. Violations inside it read `payload(json).version`.
    case json(FieldType)
    /// A positional array: element `i` has type `i`, no more, no fewer (`{"type": "tuple", "items": [...]}`).
    case tuple([FieldType])
    /// `null`, and nothing else.
    case null
    /// Any value that is there (an explicit "anything": Cordova's plugin arguments).
    case any

    static let names = [
        "string", "number", "integer", "boolean", "constant", "array", "object", "tuple", "null", "any",
    ]

    var name: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .integer: "integer"
        case .boolean: "boolean"
        case .constant: "constant"
        case .array: "array"
        case .object: "object"
        case .json: "string"
        case .tuple: "tuple"
        case .null: "null"
        case .any: "any"
        }
    }

    /// The expectation as a violation states it: `String`, `Integer`, `Number 1`, `Array of String`.
    public var description: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .integer: "Integer"
        case .boolean: "Boolean"
        case .constant(.null), .null: "Null"
        case .constant(let value): "\(value.typeName) \(value)"
        case .array(let items): "Array of \(items)"
        case .object: "Object"
        case .json(let content): "JSON text of \(content)"
        case .tuple(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .any: "Any"
        }
    }

    func check(path: String) throws(ContractError) {
        switch self {
        case .constant(.number(let value)) where !value.isFinite:
            throw ContractError(
                code: .invalidValue, path: "\(path).value", problem: "a constant number must be finite",
                remedy: "use a finite number")
        case .constant(let value) where !value.isScalar:
            throw ContractConstant.notScalar(path: "\(path).value")
        case .array(let items): try items.check(path: "\(path).items")
        case .object(let fields): try FieldSpec.check(fields, path: "\(path).fields")
        case .json(let content): try content.check(path: "\(path).content")
        case .tuple(let items):
            for (index, item) in items.enumerated() { try item.check(path: "\(path).items[\(index)]") }
        default: break
        }
    }

    /// The JS type of every value of this type (`Array` for arrays and tuples); nil for `any`.
    package var jsTypeName: String? {
        switch self {
        case .string, .json: "String"
        case .number, .integer: "Number"
        case .boolean: "Boolean"
        case .array, .tuple: "Array"
        case .object: "Object"
        case .null: "Null"
        case .constant(let value): value.typeName
        case .any: nil
        }
    }

    var isConstant: Bool { if case .constant = self { true } else { false } }

    /// Whether every value of `other` is a value of this type: a bare message of `other` declared after one of
    /// this type is never reached.
    func takesAll(of other: FieldType) -> Bool {
        switch (self, other) {
        case (.number, .integer), (.string, .constant(.string)), (.number, .constant(.number)),
            (.boolean, .constant(.boolean)):
            true
        case (.integer, .constant(.number(let value))): value.rounded() == value
        case (.any, _), (.null, .constant(.null)): true
        case (.array(let items), .tuple(let types)): types.allSatisfy(items.takesAll)
        case (.tuple(let types), .tuple(let others)):
            types.count == others.count && zip(types, others).allSatisfy { $0.takesAll(of: $1) }
        case (.array(let items), .array(let otherItems)): items.takesAll(of: otherItems)
        // JSON text is a string; texts of one type are tried in order, like bare messages.
        case (.string, .json): true
        case (.json(let content), .json(let other)): content.takesAll(of: other)
        default: self == other
        }
    }

    /// An element type written as `{"type": ...}` (same shape as a field, without `optional`).
    struct Box: Codable {
        var type: FieldType
        init(type: FieldType) { self.type = type }
        init(from decoder: any Decoder) throws {
            let spec = try FieldSpec(from: decoder)
            if spec.optional {
                // A Box is an array's items, a bare message's body or a reply: say which.
                let key = decoder.codingPath.last?.stringValue ?? "items"
                let what =
                    switch key {
                    case "body": "a message's body can't be optional (a message without one is another message)"
                    case "reply": "a reply can't be optional (a message that declares reply is always answered)"
                    case "content": "JSON text's content can't be optional (the text always holds a value)"
                    default: "array elements can't be optional"
                    }
                throw ContractError(
                    code: .invalidValue, path: jsonPath(decoder.codingPath + [AnyKey("optional")]),
                    problem: what, remedy: "remove \"optional\" from \(key)")
            }
            type = spec.type
        }
        func encode(to encoder: any Encoder) throws { try FieldSpec(type).encode(to: encoder) }
    }
}
