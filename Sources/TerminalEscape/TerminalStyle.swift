/// The control sequences WebBridge writes on purpose, from one place: the progress line's erasure and the
/// verdicts' colours. Text from elsewhere never carries any (see `escapingControlCharacters`).
public enum TerminalStyle {
    /// Back to the start of the line and erase it: a progress line gives way to the next line of output.
    public static let eraseLine = "\r\u{1B}[K"

    /// The colours of verdict words (SGR foreground codes).
    public enum Colour: String, Sendable {
        case green = "32"
        case red = "31"
        case yellow = "33"
    }

    /// `text` in `colour`, the colour reset after it.
    public static func coloured(_ text: String, _ colour: Colour) -> String {
        "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m"
    }

    /// The choices of `--color WHEN`: `auto` decides from the terminal and the environment.
    public static let colourChoices = ["auto", "always", "never"]

    /// Whether output is coloured. `--color always` or `never` (`choice`) decides; otherwise (`auto`) a
    /// `FORCE_COLOR` set to anything but the empty string, `0` or `false` (force-color.org) colours even a pipe
    /// or a CI log, and on a terminal colour is used unless `NO_COLOR` is set to anything but the empty string
    /// (no-color.org) or `TERM` is `dumb`.
    public static func usesColour(isTerminal: Bool, environment: [String: String], choice: String = "auto") -> Bool {
        switch choice {
        case "always": return true
        case "never": return false
        default: break
        }
        if let force = environment["FORCE_COLOR"], !["", "0", "false"].contains(force) { return true }
        guard isTerminal else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// The verdict words of a text report in colour: a line starting with PASS, FAIL, NOT RUN or INTERRUPTED, and
    /// a direction's verdict (`  page → native  FAIL …`). Everything else is kept as it is.
    public static func colouringVerdicts(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { colouringVerdict(in: Substring($0)) }
            .joined(separator: "\n")
    }

    private static let verdicts: [(word: String, colour: Colour)] = [
        ("PASS", .green), ("FAIL", .red), ("NOT RUN", .yellow), ("INTERRUPTED", .yellow),
    ]

    private static func colouringVerdict(in line: Substring) -> String {
        // A direction's line: two spaces, the direction (or `load`) padded, two spaces, the verdict.
        var start = line.startIndex
        if line.hasPrefix("  ") {
            let rest = line.dropFirst(2)
            // The name ends at the first two spaces in a row (the standard library has no substring search).
            guard let gap = rest.indices.first(where: { rest[$0...].hasPrefix("  ") }),
                ["page → native", "native → page", "load"].contains(String(rest[..<gap]))
            else { return String(line) }
            start = gap
            while start < line.endIndex, line[start] == " " { start = line.index(after: start) }
        }
        let tail = line[start...]
        for (word, colour) in verdicts where tail.hasPrefix(word) {
            let after = tail.dropFirst(word.count)
            // The whole word only (`PASSED` is not a verdict).
            if let next = after.first, next.isLetter { continue }
            return String(line[..<start]) + coloured(word, colour) + String(after)
        }
        return String(line)
    }
}
