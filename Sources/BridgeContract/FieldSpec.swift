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
