/// The one terminal escape of WebBridge: the check's reports, the doctor and the cloud-Mac job all print text
/// that came from somewhere else (a page, a file name, a tool's output) through it.
extension String {
    /// The text with every character that can move the cursor, start a line, change colours or reorder what
    /// follows written as an escape, so a value from a page, a file or a tool prints as one inert line:
    ///
    /// - line feed, carriage return and tab as `\n`, `\r`, `\t`;
    /// - the other C0 controls, DEL and the C1 controls (U+0080–U+009F, CSI among them) as `\u{1B}`;
    /// - the line and paragraph separators (U+2028, U+2029), which some terminals and editors break lines at;
    /// - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder
    ///   the rest of the line on screen, and the marks (U+200E, U+200F);
    /// - the invisible spaces and joiners that make two names look alike (U+200B, U+2060, U+FEFF); the
    ///   joiners text needs (U+200C, U+200D, as in emoji sequences) are kept.
    ///
    /// Escapes use Swift's spelling, in upper-case hexadecimal without leading zeros (`\u{7}`, `\u{9B}`,
    /// `\u{202E}`). Every other character, printable non-ASCII text included, is kept as it is.
    public var escapingControlCharacters: String {
        var result = ""
        result.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200B, 0x200E,
                0x200F, 0x2060, 0xFEFF:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text as XML character data or an attribute value (the one XML escape of WebBridge's JUnit reports):
    /// `& < > " '` as entities, tab, line feed and carriage return kept, and the other characters XML 1.0
    /// cannot carry even escaped (C0 controls, U+FFFE, U+FFFF) as `?`.
    public var escapingForXML: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
