import BridgeContract
import Foundation

/// Bodies for the JS/Swift parity test: each valid body, and every way of breaking it one step at a time.
enum ParityBodies {
    /// Values that are not objects, for bare messages and for the body-not-object rule.
    static let bare: [String] = [
        #""ready""#, #""READY""#, #""""#, "1", "0", "true", "null", "[]", #"["form"]"#, #"["form", 1]"#,
        #"[{"type": "x", "n": 1}]"#, #"[{"type": "x", "n": "1"}]"#, #"[{"type": "x", "n": 1, "extra": true}]"#,
        #"[{"type": "x"}]"#, "{}", "[[]]", "1.5",
    ]

    /// Field names a page may send that a log must still show safely, and that sort differently in UTF-16.
    static let hostileKeys = [
        "\u{1}k", "a\nb", "tab\there", String(repeating: "k", count: 80), "😀", "～", "__proto__", "constructor",
        "\u{2028}", "\u{85}x",
    ]

    /// The valid body, each one-step break of it (down to two levels), and a body with hostile extra keys.
    static func variants(of json: String) throws -> [String] {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        var bodies = [value] + mutations(of: value, depth: 0)
        if case .object(var fields) = value {
            for key in hostileKeys { fields[key] = .number(1) }
            bodies.append(.object(fields))
        }
        return try bodies.map(text)
    }

    static func text(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every one-step change: each field removed, nulled, given the wrong type or another value, one extra field;
    /// array elements of the wrong type; the same, one level down.
    static func mutations(of value: JSONValue, depth: Int) -> [JSONValue] {
        switch value {
        case .object(let fields):
            var result: [JSONValue] = []
            for key in fields.keys.sorted() {
                let field = fields[key]!
                var changes: [JSONValue?] = [nil, .null]
                changes += depth < 2 ? mutations(of: field, depth: depth + 1) : [wrongType(field)]
                for change in changes {
                    var copy = fields
                    copy[key] = change
                    result.append(.object(copy))
                }
            }
            var extra = fields
            extra["extra"] = .number(1)
            result.append(.object(extra))
            return result
        case .array(let items):
            var result: [JSONValue] = [.array(items + [wrongType(items.first ?? .string("x"))])]
            if !items.isEmpty { result.append(.array(Array(items.dropLast()))) }
            if let first = items.first {
                for change in depth < 2 ? mutations(of: first, depth: depth + 1) : [wrongType(first)] {
                    result.append(.array([change] + items.dropFirst()))
                }
            }
            return result
        case .string(let text):
            // JSON text of an object or an array is broken inside too: each change written back as text.
            var inside: [JSONValue] = []
            if let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), depth < 2 {
                switch parsed {
                case .object, .array:
                    inside = mutations(of: parsed, depth: depth + 1).compactMap {
                        (try? ParityBodies.text($0)).map(JSONValue.string)
                    }
                    inside += [.string("[object Object]"), .string(text + "}")]
                default: break
                }
            }
            return [.number(1), .string("zz-other"), .string(""), .array([])] + inside
        case .number(let number): return [.number(number + 0.5), .string("1"), .boolean(true), .number(1e300)]
        case .boolean(let flag): return [.boolean(!flag), .number(1), .string("true")]
        case .null: return [.string("x")]
        }
    }

    static func wrongType(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string: .number(1)
        case .number: .string("1")
        case .boolean: .number(0)
        case .array: .object([:])
        case .object: .array([])
        case .null: .boolean(false)
        }
    }
}
