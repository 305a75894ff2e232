/// JSON text for a message body, written byte by byte: the receiver call's fast encoder.
///
/// Its text is the text `JSONSerialization` writes plus the receiver call's escapes, except that object keys
/// come in Swift's string order rather than Foundation's locale-aware order. Differential tests prove JavaScript
/// parses both to the same value. Like the `JSONSerialization` path, it refuses what JSON can't carry (NaN,
/// Infinity, dates, non-JSON types, bodies nested too deep), naming the path and the type, never the value.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 128) { bytes.reserveCapacity(capacity) }

    /// What was written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends text as it is: only for text already checked to be code (a receiver name), never message data.
    mutating func append(_ code: String) {
        var code = code
        code.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Writes the value's JSON text, or refuses the first value JSON can't carry (its path built outward).
    mutating func write(_ value: BodyValue) throws(ContractError) {
        switch value {
        case .string(let text): write(string: text)
        case .number(let number):
            guard number.isFinite else { throw ContractError.notEncodable(path: "", found: "Number (not finite)") }
            write(number: number)
        case .boolean(let flag): append(flag ? "true" : "false")
        case .null: append("null")
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                do { try write(item) } catch { throw JSONWriter.inside("[\(index)]", error) }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            // Sorted by Swift's string order (code-point order for ASCII): deterministic, and cheap next to
            // Foundation's locale-aware comparison. Distinct keys never compare equal: a Swift dictionary
            // already merges canonically equivalent ones.
            try write(members: fields.count > 1 ? fields.sorted(by: { $0.key < $1.key }) : Array(fields))
        case .date, .undefined, .unsupported, .tooDeep:
            throw ContractError.notEncodable(path: "", found: value.typeName)
        }
    }

    /// Writes an object's members in the order given.
    private mutating func write(members: [(key: String, value: BodyValue)]) throws(ContractError) {
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(string: member.key)
            bytes.append(UInt8(ascii: ":"))
            do { try write(member.value) } catch { throw JSONWriter.inside(BodyValue.displayKey(member.key), error) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Prefixes a refusal's path with the step that led to it.
    private static func inside(_ step: String, _ error: ContractError) -> ContractError {
        var error = error
        error.path = error.path.isEmpty || error.path.hasPrefix("[") ? step + error.path : "\(step).\(error.path)"
        return error
    }

    private mutating func append(_ ascii: StaticString) {
        ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A finite number as `JSONSerialization` writes a double: Swift's shortest round-trip form without `.0`.
    ///
    /// Any text that reads back as the same double parses in JavaScript to that double too.
    mutating func write(number: Double) {
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            // Exact integers print as integers (`-0` keeps its sign, as JSONSerialization's `-0` does).
            if number == 0 {
                if number.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                bytes.append(UInt8(ascii: "0"))
                return
            }
            bytes.append(contentsOf: String(Int64(number)).utf8)
            return
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string literal: `"`, `\` and `/` escaped, control characters as `JSONSerialization` writes them,
    /// and U+2028, U+2029 and U+FEFF as `\u` escapes so the text is safe inside any script.
    mutating func write(string: String) {
        var text = string
        text.withUTF8 { write(utf8: $0) }
    }

    private mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            let escape: StaticString?
            var width = 1
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "/"): escape = "\\/"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20: escape = nil
            case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && utf8[index + 2] == 0xA8:
                escape = "\\u2028"
                width = 3
            case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && utf8[index + 2] == 0xA9:
                escape = "\\u2029"
                width = 3
            case 0xEF where index + 2 < count && utf8[index + 1] == 0xBB && utf8[index + 2] == 0xBF:
                escape = "\\ufeff"
                width = 3
            default:
                index += 1
                continue
            }
            if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
            if let escape {
                append(escape)
            } else {
                let hex: StaticString = "0123456789abcdef"
                append("\\u00")
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
            index += width
            start = index
        }
        if start < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
