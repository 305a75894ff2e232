import Foundation

/// A message body as WebKit hands it over (`Any`), sorted into the JS types it came from.
///
/// `as? Bool` and `as? Int` both accept any `NSNumber`, so the classification looks at dynamic types
/// precisely: a JS boolean is never a number, whatever Foundation's bridging would allow.
enum BodyValue: Equatable, Sendable {
    case undefined
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case date(Date)
    case array([BodyValue])
    case object([String: BodyValue])
    /// An object or array nested deeper than `maxDepth`, left unwalked.
    case tooDeep
    /// A value no JS message can produce (e.g. a Swift struct); carries its type name, never its value.
    case unsupported(String)

    /// How deep a body may nest; deeper values are not walked, so a hostile body can't exhaust the stack.
    static let maxDepth = 64

    /// A message the native side built: its fields sorted directly, without bridging the dictionary to `Any`.
    init(message: [String: any Sendable]) {
        self = .object(message.mapValues { BodyValue($0, depth: 1) })
    }

    init(_ value: Any?, depth: Int = 0) {
        guard let value else {
            self = .undefined
            return
        }
        // The common JS types first, by cheap metatype tests: `value is NSNull` would bridge a dictionary.
        let dynamicType = type(of: value)
        if dynamicType == String.self, let string = value as? String {
            // The commonest field type, told by one metatype comparison.
            self = .string(string)
        } else if dynamicType == Bool.self, let flag = value as? Bool {
            self = .boolean(flag)
        } else if dynamicType is NSNumber.Type, let number = value as? NSNumber {
            self = Platform.isBoolean(number) ? .boolean(number.boolValue) : .number(number.doubleValue)
        } else if let string = value as? String {
            self = .string(string)
        } else if let dictionary = value as? [String: Any] {
            self =
                depth >= BodyValue.maxDepth
                ? .tooDeep : .object(dictionary.mapValues { BodyValue($0, depth: depth + 1) })
        } else if let array = value as? [Any] {
            self = depth >= BodyValue.maxDepth ? .tooDeep : .array(array.map { BodyValue($0, depth: depth + 1) })
        } else if dynamicType is NSNull.Type {
            self = .null
        } else if let date = value as? Date {
            self = .date(date)
        } else if let integer = value as? any BinaryInteger {
            self = .number(Double(integer))
        } else if let float = value as? any BinaryFloatingPoint {
            self = .number(Double(float))
        } else if value is [AnyHashable: Any] {
            self = .unsupported("Dictionary with non-string keys")
        } else {
            // An optional boxed in `Any` (an `undefined` reply can arrive as one): unwrap it.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                self = mirror.children.first.map { BodyValue($0.value, depth: depth) } ?? .undefined
            } else {
                self = .unsupported(String(describing: dynamicType))
            }
        }
    }

    /// The value of JSON text, as `JSON.parse` reads it; nil when the text is not JSON.
    init?(jsonText text: String) {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        self.init(value)
    }

    /// The JS type name used in violations and structure descriptions.
    package var typeName: String {
        switch self {
        case .undefined: "Undefined"
        case .null: "Null"
        case .boolean: "Boolean"
        case .number: "Number"
        case .string: "String"
        case .date: "Date"
        case .array: "Array"
        case .object: "Object"
        case .tooDeep: "nesting deeper than \(BodyValue.maxDepth) levels"
        case .unsupported(let name): name
        }
    }

    /// The structure (field names and types, never values), bounded so a hostile body can't flood a log.
    func structure(depth: Int = 0) -> String {
        let maxDepth = 16
        let maxItems = 32
        switch self {
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            if depth >= maxDepth { return "{…}" }
            let keys = fields.keys.sorted()
            var parts = keys.prefix(maxItems).map {
                "\(BodyValue.displayKey($0)): \(fields[$0]!.structure(depth: depth + 1))"
            }
            if keys.count > maxItems { parts.append("… \(keys.count - maxItems) more") }
            return "{" + parts.joined(separator: ", ") + "}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if depth >= maxDepth { return "[…]" }
            var parts = items.prefix(maxItems).map { $0.structure(depth: depth + 1) }
            if items.count > maxItems { parts.append("… \(items.count - maxItems) more") }
            return "[" + parts.joined(separator: ", ") + "]"
        default:
            return typeName
        }
    }

    /// A field name fit for a log line: names are structure, but a page can send any text as a key,
    /// so long or odd keys are shortened and control characters escaped.
    static func displayKey(_ key: String) -> String {
        let limit = 64
        var shown = ""
        for scalar in key.unicodeScalars.prefix(limit) {
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                shown += scalar.escaped(asASCII: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        if key.unicodeScalars.count > limit { shown += "…" }
        return shown
    }
}

/// The structure of a message body for logs: `{kind: String, version: Number}`, `[String, Number]`,
/// `Boolean`, `Null`, `Date`, nested; never a value.
public func messageStructure(_ body: Any?) -> String {
    BodyValue(body).structure()
}
