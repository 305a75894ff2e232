import Foundation
import TerminalEscape

/// Text from a page, a file or a command line made safe for a terminal: control characters escaped, length capped.
package enum TerminalText {
    /// The most characters of one timeline note shown.
    package static let noteLimit = 200
    /// The most characters of one verdict's detail shown.
    package static let detailLimit = 2_000

    /// `text` with every control character written as an escape (`\u{1B}`), so it can't move the cursor,
    /// ring the bell, or start a line that looks like the tool's own (see `escapingControlCharacters`).
    package static func escape(_ text: String) -> String { text.escapingControlCharacters }

    /// Several lines of text, each escaped: the line breaks stay, nothing else moves the cursor.
    package static func escapeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
            .joined(separator: "\n")
    }

    /// `text` escaped and cut to `limit` Unicode scalars, with a note saying how much was cut.
    ///
    /// Scalars, not characters: one base character with 500,000 combining marks is one grapheme cluster.
    package static func line(_ text: String, limit: Int = detailLimit) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return escape(text) }
        let more = scalars.distance(from: end, to: scalars.endIndex)
        return escape(String(scalars[..<end])) + " … [cut: \(more) more characters]"
    }
}
