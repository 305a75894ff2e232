import Testing

@testable import TerminalEscape

/// The union of what the three escapes it replaced guaranteed: `TerminalText.escape` (the check's reports),
/// `Printable.path` (the doctor) and XcodeRunner's `escapingControlCharacters`.
@Suite("escapingControlCharacters")
struct TerminalEscapeTests {
    /// Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): they reorder the line.
    static let bidiReordering: [ClosedRange<UInt32>] = [0x202A...0x202E, 0x2066...0x2069, 0x200E...0x200F]
    /// Invisible spaces that make two names look alike (U+200B, U+2060, U+FEFF).
    static let invisible: Set<UInt32> = [0x200B, 0x2060, 0xFEFF]

    /// Whether a scalar could move the cursor, start a line or reorder the line when printed raw.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return bidiReordering.contains { $0.contains(scalar.value) } || invisible.contains(scalar.value)
        }
    }

    @Test("line feed, carriage return and tab are written as \\n, \\r and \\t")
    func shortEscapes() {
        #expect("a\nb\rc\td".escapingControlCharacters == #"a\nb\rc\td"#)
    }

    @Test("other controls, C1, the separators and the bidi overrides are \\u{…}, upper case, no leading zeros")
    func scalarEscapes() {
        let forged = "Error: \u{1B}[2J\u{0}ok\u{7}\u{9B}1A\u{7F}\u{85}\u{2028}\u{2029}\u{202E}txt.exe\u{2066}\u{2069}"
        #expect(
            forged.escapingControlCharacters
                == #"Error: \u{1B}[2J\u{0}ok\u{7}\u{9B}1A\u{7F}\u{85}\u{2028}\u{2029}\u{202E}txt.exe\u{2066}\u{2069}"#)
    }

    @Test("printable text, non-ASCII and the joiners emoji need included, is kept as it is")
    func printableTextIsKept() {
        let text = "café 😀 e\u{301} 🇫🇷 \u{A0}👩\u{200D}💻 \u{200C} \\n already-escaped \\u{1B} <b>&\"'"
        #expect(text.escapingControlCharacters == text)
    }

    @Test("invisible spaces and bidi marks are escaped, so two names never print alike")
    func invisibleCharactersAreEscaped() {
        #expect(
            "A\u{200B}B\u{2060}C\u{FEFF}D\u{200E}E\u{200F}".escapingControlCharacters
                == #"A\u{200B}B\u{2060}C\u{FEFF}D\u{200E}E\u{200F}"#)
    }

    @Test("every Unicode scalar: the unsafe ones are escaped, every other one is kept")
    func everyScalar() {
        var wrong: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let escaped = String(Character(scalar)).escapingControlCharacters
            let expected: String
            if !Self.isUnsafe(scalar) {
                expected = String(Character(scalar))
            } else if let short = ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#][scalar] {
                expected = short
            } else {
                expected = "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            }
            if escaped != expected { wrong.append(value) }
        }
        #expect(wrong.isEmpty, "scalars escaped wrongly: \(wrong.prefix(20).map { String($0, radix: 16) })")
    }

    @Test("an escaped text is one line with no unsafe character, whatever it held")
    func oneInertLine() {
        let hostile = "page\u{1B}[2J\rname\n\u{9B}31m\u{2028}ok fake\u{202E}\u{2067}\u{7}"
        let escaped = hostile.escapingControlCharacters
        #expect(!escaped.unicodeScalars.contains(where: Self.isUnsafe), "\(escaped.debugDescription)")
        #expect(escaped.split(whereSeparator: \.isNewline).count == 1)
    }
}
