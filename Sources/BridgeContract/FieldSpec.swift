import Foundation

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
        case type, optional, value, items, fields, encoding, content
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        optional = try container.decodeIfPresent(Bool.self, forKey: .optional) ?? false
        let name = try container.decode(String.self, forKey: .type)
        func requireAbsent(_ keys: [CodingKeys]) throws {
            for key in keys where container.contains(key) {
                throw ContractError(
                    code: .unknownKey, path: jsonPath(container.codingPath + [key]),
                    problem: "\"\(key.rawValue)\" does not apply to type \(name)",
                    remedy:
                        "remove it (value is for constant, items for array, fields for object, encoding and content "
                        + "for string)")
            }
        }
        switch name {
        case "string": type = try Self.string(container)
        case "number": type = .number
        case "integer": type = .integer
        case "boolean": type = .boolean
        case "constant":
            guard container.contains(.value) else {
                throw ContractError(
                    code: .missingKey, path: jsonPath(container.codingPath + [CodingKeys.value]),
                    problem: "a constant needs a value", remedy: "add \"value\": a string, a number or a boolean")
            }
            type = .constant(try container.decode(ContractConstant.self, forKey: .value).value)
        case "array":
            if (try? container.nestedUnkeyedContainer(forKey: .items)) != nil {
                throw ContractError(
                    code: .wrongType, path: jsonPath(container.codingPath + [CodingKeys.items]),
                    problem: "an array's items is the one type of every element, not a list",
                    remedy: "for a positional array write {\"type\": \"tuple\", \"items\": [{…}, {…}]}")
            }
            type = .array(try container.decode(FieldType.Box.self, forKey: .items).type)
        case "tuple":
            type = .tuple(try container.decode([FieldType.Box].self, forKey: .items).map(\.type))
        case "null": type = .null
        case "any": type = .any
        case "object":
            type = .object(try container.decode([String: FieldSpec].self, forKey: .fields))
        default:
            throw ContractError(
                code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.type]),
                problem: "unknown field type \"\(name)\"",
                remedy: "use one of: \(FieldType.names.joined(separator: ", "))")
        }
        switch type {
        case .constant: try requireAbsent([.items, .fields, .encoding, .content])
        case .array, .tuple: try requireAbsent([.value, .fields, .encoding, .content])
        case .object: try requireAbsent([.value, .items, .encoding, .content])
        case .json: try requireAbsent([.value, .items, .fields])
        default: try requireAbsent([.value, .items, .fields, .encoding, .content])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.name, forKey: .type)
        if optional { try container.encode(true, forKey: .optional) }
        switch type {
        case .constant(let value): try container.encode(value, forKey: .value)
        case .array(let items): try container.encode(FieldType.Box(type: items), forKey: .items)
        case .tuple(let items): try container.encode(items.map(FieldType.Box.init(type:)), forKey: .items)
        case .object(let fields): try container.encode(fields, forKey: .fields)
        case .json(let content):
            try container.encode("json", forKey: .encoding)
            try container.encode(FieldType.Box(type: content), forKey: .content)
        default: break
        }
    }

    /// A string, or with `"encoding": "json"` the JSON text of `content`.
    private static func string(_ container: KeyedDecodingContainer<CodingKeys>) throws -> FieldType {
        guard let encoding = try container.decodeIfPresent(String.self, forKey: .encoding) else {
            if container.contains(.content) {
                throw ContractError(
                    code: .missingKey, path: jsonPath(container.codingPath + [CodingKeys.encoding]),
                    problem: "content applies to a string of JSON text only",
                    remedy: "add \"encoding\": \"json\", or remove content")
            }
            return .string
        }
        guard encoding == "json" else {
            throw ContractError(
                code: .invalidValue, path: jsonPath(container.codingPath + [CodingKeys.encoding]),
                problem: "unknown encoding \"\(encoding)\"",
                remedy: "use \"json\" for a string that holds JSON text, or remove encoding")
        }
        guard container.contains(.content) else {
            throw ContractError(
                code: .missingKey, path: jsonPath(container.codingPath + [CodingKeys.content]),
                problem: "JSON text needs the type of what it holds",
                remedy: "add \"content\": a type such as {\"type\": \"object\", \"fields\": {…}}")
        }
        return .json(try container.decode(FieldType.Box.self, forKey: .content).type)
    }

    static func check(_ fields: [String: FieldSpec], path: String) throws(ContractError) {
        for (name, spec) in fields.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty {
                throw ContractError(
                    code: .invalidValue, path: path, problem: "a field name is empty", remedy: "name every field")
            }
            try spec.type.check(path: "\(path).\(name)")
        }
    }
}
