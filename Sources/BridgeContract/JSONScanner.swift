import Foundation

/// One pass over JSON text for what `JSONDecoder` hides or misreports: duplicate keys (it keeps one silently),
/// numbers it can't hold and nesting it refuses (both reported as "not valid JSON"), and where a syntax error is.
struct JSONScanner {
    /// The deepest nesting a contract or lock file may use; the formats need fewer than 20 levels.
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    /// The open containers, outermost first: an object's keys so far, or an array's next index.
    private var stack: [Container] = []
    /// Paths of numbers written with a fraction or an exponent, in document order (the first few).
    private var fractionalPaths: [String] = []

    fileprivate enum Container {
        case object(keys: Set<String>, current: String?)
        case array(next: Int)
    }

    private init(_ data: Data) { bytes = Array(data) }

    /// Scans `data`; throws the first problem found, naming its JSON path (or its line and column).
    ///
    /// - Returns: the paths of numbers with a fraction or exponent, where a decoder expecting an integer fails.
    static func check(_ data: Data) throws(ContractError) -> [String] {
        var scanner = JSONScanner(data)
        try scanner.scanDocument()
        return scanner.fractionalPaths
    }

    private mutating func scanDocument() throws(ContractError) {
        // A UTF-8 byte-order mark is allowed before the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        // JSON text starts with an ASCII character: a NUL among the first two bytes, or a UTF-16 mark, is another
        // encoding, which the decoder would call "not valid JSON".
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(2).contains(0) {
            throw ContractError(
                code: .notJSON, path: "", problem: "the file is UTF-16 (or UTF-32) text, not UTF-8",
                remedy: "save it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8")
        }
        try checkUTF8()
        skipSpace()
        try scanValue()
        while true {
            skipSpace()
            guard let container = stack.last else { break }
            switch (container, peek) {
            case (.object, UInt8(ascii: ",")):
                offset += 1
                skipSpace()
                try scanMember()
            case (.array(let next), UInt8(ascii: ",")):
                offset += 1
                stack[stack.count - 1] = .array(next: next + 1)
                skipSpace()
                try scanValue()
            case (.object, UInt8(ascii: "}")), (.array, UInt8(ascii: "]")):
                offset += 1
                stack.removeLast()
            default:
                throw syntax(
                    peek == nil ? "the text ends inside an \(container.name)" : "expected , or \(container.closer)")
            }
        }
        skipSpace()
        if peek != nil { throw syntax("unexpected text after the JSON value") }
    }

    /// Scans one value; an object or array is opened here and closed by the loop in `scanDocument`.
    private mutating func scanValue() throws(ContractError) {
        guard let byte = peek else { throw syntax("the text ends where a value belongs") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if stack.count >= JSONScanner.maxDepth {
                throw ContractError(
                    code: .invalidValue, path: path,
                    problem: "the JSON nests deeper than \(JSONScanner.maxDepth) levels",
                    remedy: "flatten the structure; a contract needs far fewer levels")
            }
            offset += 1
            skipSpace()
            if byte == UInt8(ascii: "{") {
                stack.append(.object(keys: [], current: nil))
                if peek == UInt8(ascii: "}") {
                    offset += 1
                    stack.removeLast()
                } else {
                    try scanMember()
                }
            } else {
                stack.append(.array(next: 0))
                if peek == UInt8(ascii: "]") {
                    offset += 1
                    stack.removeLast()
                } else {
                    try scanValue()
                }
            }
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try scanNumber()
        default:
            for word in ["true", "false", "null"] where bytes[offset...].starts(with: word.utf8) {
                offset += word.utf8.count
                return
            }
            throw syntax("expected a value")
        }
    }

    /// Scans `"key": value` inside the innermost object, refusing a key it already has.
    private mutating func scanMember() throws(ContractError) {
        guard peek == UInt8(ascii: "\"") else { throw syntax("expected a key in double quotes") }
        let key = try scanString()
        guard case .object(var keys, _) = stack[stack.count - 1] else { return }
        if keys.contains(key) {
            stack[stack.count - 1] = .object(keys: keys, current: key)
            throw ContractError(
                code: .invalidValue, path: path, problem: "the key \"\(key)\" appears more than once in this object",
                remedy:
                    "keep one: JSON readers disagree on which copy wins (webbridge would read a different contract than JSON.parse)"
            )
        }
        keys.insert(key)
        stack[stack.count - 1] = .object(keys: keys, current: key)
        skipSpace()
        guard peek == UInt8(ascii: ":") else { throw syntax("expected : after the key") }
        offset += 1
        skipSpace()
        try scanValue()
    }

    /// Scans a string and returns its value, so keys spelled with different escapes compare equal.
    private mutating func scanString() throws(ContractError) -> String {
        offset += 1
        var units: [UInt16] = []
        var start = offset
        func flush(_ end: Int) { units += String(decoding: bytes[start..<end], as: UTF8.self).utf16 }
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                flush(offset)
                offset += 1
                return String(decoding: units, as: UTF16.self)
            case UInt8(ascii: "\\"):
                flush(offset)
                offset += 1
                guard let escaped = peek else { break }
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(escaped))
                case UInt8(ascii: "b"): units.append(8)
                case UInt8(ascii: "f"): units.append(12)
                case UInt8(ascii: "n"): units.append(10)
                case UInt8(ascii: "r"): units.append(13)
                case UInt8(ascii: "t"): units.append(9)
                case UInt8(ascii: "u"):
                    let escapeStart = offset - 2
                    guard let unit = hexUnit(at: offset) else { throw syntax("expected four hex digits after \\u") }
                    offset += 4
                    // Half a surrogate pair is no character: the decoder refuses it as "not valid JSON".
                    let pairs =
                        offset + 6 <= bytes.count && bytes[offset] == UInt8(ascii: "\\")
                        && bytes[offset + 1] == UInt8(ascii: "u")
                    if (0xD800...0xDBFF).contains(unit), pairs, let low = hexUnit(at: offset + 2),
                        (0xDC00...0xDFFF).contains(low)
                    {
                        units += [unit, low]
                        offset += 6
                    } else if (0xD800...0xDFFF).contains(unit) {
                        offset = escapeStart
                        throw syntax("a \\u escape of a lone UTF-16 surrogate (half of a pair, no character)")
                    } else {
                        units.append(unit)
                    }
                default: throw syntax("unknown escape in a string")
                }
                start = offset
            case 0..<0x20:
                throw syntax("a control character inside a string must be escaped")
            default:
                offset += 1
            }
        }
        throw syntax("the text ends inside a string")
    }

    /// Four hex digits at `index`, as a UTF-16 unit.
    private func hexUnit(at index: Int) -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        return UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    }

    /// Refuses bytes that are not UTF-8, naming where the first one is.
    private mutating func checkUTF8() throws(ContractError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[offset...].makeIterator()
        var position = offset
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): position += encoded.count
            case .emptyInput: return
            case .error:
                throw ContractError(
                    code: .notJSON, path: "",
                    problem: "the file is not valid UTF-8: bytes that encode no character \(location(of: position))",
                    remedy: "save the file as UTF-8, or fix the bytes there")
            }
        }
    }

    /// Scans a number, refusing one no decoder can hold: an integer beyond 64 bits, or a value beyond `Double`.
    private mutating func scanNumber() throws(ContractError) {
        let start = offset
        var isInteger = true
        if peek == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek, first.isDigit else { throw syntax("expected a digit") }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard peek?.isDigit == true else { throw syntax("expected a digit after the decimal point") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard peek?.isDigit == true else { throw syntax("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        let fits = isInteger ? Int64(text) != nil : Double(text)?.isFinite == true
        guard fits else {
            throw ContractError(
                code: .invalidValue, path: path,
                problem: isInteger
                    ? "the integer does not fit in 64 bits (the largest is 9223372036854775807)"
                    : "the number is beyond the range of a double-precision number",
                remedy: "write a smaller number")
        }
        if !isInteger, fractionalPaths.count < 16 { fractionalPaths.append(path) }
    }

    private mutating func skipDigits() {
        while peek?.isDigit == true { offset += 1 }
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// The JSON path of the value being scanned, e.g. `messages[0].fields`.
    private var path: String {
        var text = ""
        for container in stack {
            switch container {
            case .object(_, let current?): text += text.isEmpty ? current : ".\(current)"
            case .object(_, nil): break
            case .array(let next): text += "[\(next)]"
            }
        }
        return text
    }

    /// A syntax error at the current line and column.
    private func syntax(_ problem: String) -> ContractError {
        ContractError(
            code: .notJSON, path: "", problem: "the file is not valid JSON: \(problem) \(location(of: offset))",
            remedy: "fix the JSON syntax there")
    }

    /// `at line L, column C` of the byte at `position` (columns count bytes).
    private func location(of position: Int) -> String {
        let before = bytes[..<min(position, bytes.count)]
        let line = before.count(where: { $0 == 0x0A }) + 1
        let column = position - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        return "at line \(line), column \(column)"
    }
}

extension JSONScanner.Container {
    fileprivate var name: String {
        if case .object = self { return "object" }
        return "array"
    }
    fileprivate var closer: String {
        if case .object = self { return "}" }
        return "]"
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
