#if os(Linux)
import Foundation
import Glibc

/// Foundation values from the JSON text of a message body, as `JSValueConversion` builds them field by field.
///
/// The text comes from `JSON.stringify` in the body's own context, with every value JSON would change (NaN,
/// ±Infinity, -0, holes, non-plain objects) sent back to the exact walk first, so only plain data arrives here.
/// Anything else (a lone surrogate, which JSON escapes as `\udXXX`; nesting past the walk's limit; text that is
/// not what `JSON.stringify` writes) returns nil, and the caller walks the value instead.
enum JSONBody {
    /// The value of `text`, or nil when the exact walk must decide.
    static func foundationValue(_ text: UnsafePointer<CChar>, maximumDepth: Int) -> Any? {
        var parser = Parser(text: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), limit: maximumDepth)
        guard let value = parser.value(depth: 0), parser.text[parser.position] == 0 else { return nil }
        return value
    }

    private struct Parser {
        let text: UnsafePointer<UInt8>
        let limit: Int
        var position = 0

        init(text: UnsafePointer<UInt8>, limit: Int) {
            self.text = text
            self.limit = limit
        }

        private var byte: UInt8 { text[position] }

        /// Steps over `expected` when it is the next byte.
        private mutating func consume(_ expected: UInt8) -> Bool {
            guard byte == expected else { return false }
            position += 1
            return true
        }

        mutating func value(depth: Int) -> Any? {
            switch byte {
            case UInt8(ascii: "{"):
                guard depth < limit else { return nil }
                position += 1
                var dictionary: [String: Any] = [:]
                if consume(UInt8(ascii: "}")) { return dictionary }
                repeat {
                    guard byte == UInt8(ascii: "\""), let key = string(), consume(UInt8(ascii: ":")),
                        let member = value(depth: depth + 1)
                    else { return nil }
                    dictionary[key] = member
                } while consume(UInt8(ascii: ","))
                return consume(UInt8(ascii: "}")) ? dictionary : nil
            case UInt8(ascii: "["):
                guard depth < limit else { return nil }
                position += 1
                var array: [Any] = []
                if consume(UInt8(ascii: "]")) { return array }
                repeat {
                    guard let element = value(depth: depth + 1) else { return nil }
                    array.append(element)
                } while consume(UInt8(ascii: ","))
                return consume(UInt8(ascii: "]")) ? array : nil
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true", NSNumber(value: true))
            case UInt8(ascii: "f"): return literal("false", NSNumber(value: false))
            case UInt8(ascii: "n"): return literal("null", NSNull())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // JSON.stringify writes JavaScript's shortest round-trip form; strtod reads it back exactly.
                var end: UnsafeMutablePointer<CChar>?
                let start = UnsafeRawPointer(text + position).assumingMemoryBound(to: CChar.self)
                let number = strtod(start, &end)
                guard let end, end != UnsafeMutablePointer(mutating: start) else { return nil }
                position += UnsafeRawPointer(end) - UnsafeRawPointer(start)
                return NSNumber(value: number)
            default: return nil
            }
        }

        private mutating func literal(_ word: StaticString, _ result: Any) -> Any? {
            let count = word.utf8CodeUnitCount
            for index in 0..<count where text[position + index] != word.utf8Start[index] { return nil }
            position += count
            return result
        }

        /// A string token, the opening quote at `position`; nil for a lone surrogate's escape.
        private mutating func string() -> String? {
            position += 1
            let start = position
            while true {
                switch byte {
                case UInt8(ascii: "\""):
                    let result = String(
                        decoding: UnsafeBufferPointer(start: text + start, count: position - start), as: UTF8.self)
                    position += 1
                    return result
                case UInt8(ascii: "\\"): return escapedString(from: start)
                case 0: return nil
                default: position += 1
                }
            }
        }

        /// The rest of a string that holds escapes, written into a buffer.
        private mutating func escapedString(from start: Int) -> String? {
            var bytes = Array(UnsafeBufferPointer(start: text + start, count: position - start))
            while true {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(decoding: bytes, as: UTF8.self)
                case 0: return nil
                case UInt8(ascii: "\\"):
                    position += 1
                    let escape = byte
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
                    case UInt8(ascii: "b"): bytes.append(0x08)
                    case UInt8(ascii: "f"): bytes.append(0x0C)
                    case UInt8(ascii: "n"): bytes.append(0x0A)
                    case UInt8(ascii: "r"): bytes.append(0x0D)
                    case UInt8(ascii: "t"): bytes.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return nil }
                        // JSON.stringify escapes only control characters and lone surrogates; a surrogate pair
                        // arrives as UTF-8. A lone surrogate is the exact walk's to decide.
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        bytes.append(contentsOf: scalar.utf8)
                    default: return nil
                    }
                default:
                    bytes.append(byte)
                    position += 1
                }
            }
        }

        private mutating func hex4() -> UInt32? {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                unit = unit << 4 | digit
                position += 1
            }
            return unit
        }
    }
}
#endif
