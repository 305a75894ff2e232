import Foundation

/// The value of a constant field: a JSON string, number, boolean or null.
public enum ConstantValue: Codable, Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case boolean(Bool)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Booleans first: some decoders would read `true` as a number.
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw ContractFileError(
                code: .wrongType, path: jsonPath(decoder.codingPath),
                problem: "a constant must be a string, a number, a boolean or null",
                remedy: "write a JSON scalar or null; for an array or an object declare its type")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .boolean(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
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
        case .null: "Null"
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
        case .null: return "null"
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return String(number)
        }
    }
}
