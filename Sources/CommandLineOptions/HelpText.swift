/// The usage and help a table writes: the synopsis, one entry per option with its default and rule, and the line
/// that follows a usage error.
extension OptionTable {
    /// The widest a help line gets.
    public static let width = 104
    /// The column an option's summary starts at.
    static let summaryColumn = 22

    /// The whole help: the synopsis, `about`, the options, then `epilogue` (exit codes and the like).
    public func help(_ about: String, epilogue: String = "") -> String {
        var text = "\(synopsis())\n\n\(about)\n\nOPTIONS:\n\(optionsHelp())"
        if !epilogue.isEmpty { text += "\n\n\(epilogue)" }
        return text
    }

    /// `USAGE: webbridge xcode pin --runtime R [--config FILE]`, wrapped under the first argument.
    /// `name` replaces the command (`pin` in a list of subcommands), `lead` the `USAGE: ` before it.
    public func synopsis(lead: String = "USAGE: ", name: String? = nil, width: Int = OptionTable.width) -> String {
        let head = lead + (name ?? command)
        let indent = String(repeating: " ", count: head.count + 1)
        var lines = [head]
        for part in synopsisParts {
            if lines[lines.count - 1].count + 1 + part.count > width, lines[lines.count - 1] != head {
                lines.append(indent + part)
            } else {
                lines[lines.count - 1] += " " + part
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The words of the synopsis: arguments, then options, exclusive pairs as `[--a | --b B]`.
    var synopsisParts: [String] {
        var parts = positionals.map { $0.spelling }
        var done: Set<String> = []
        for option in options where !done.contains(option.name) {
            if let pair = exclusive.first(where: { $0.0 == option.name || $0.1 == option.name }),
                let first = self.option(pair.0), let second = self.option(pair.1)
            {
                parts.append("[\(first.spelling) | \(second.spelling)]")
                done.formUnion([first.name, second.name])
                continue
            }
            let word = option.required ? option.spelling : "[\(option.spelling)]"
            parts.append(option.repeatable ? word + "..." : word)
            done.insert(option.name)
        }
        return parts
    }

    /// One entry per option: `  --timeout SECONDS   what it does (default: 10; at most 86400)`, wrapped.
    public func optionsHelp(width: Int = OptionTable.width) -> String {
        let column = Self.summaryColumn
        var lines: [String] = []
        for option in options + [.flag("-h, --help", "show this help")] {
            let label = "  " + option.spelling
            let wrapped = Self.wrap(option.helpSummary, width: width - column)
            let pad = String(repeating: " ", count: column)
            if label.count + 2 > column {
                lines.append(label)
                lines += wrapped.map { pad + $0 }
            } else {
                lines.append(label + String(repeating: " ", count: column - label.count) + wrapped[0])
                lines += wrapped.dropFirst().map { pad + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The line after a usage error: `Usage: webbridge check [options]; see 'webbridge check --help'.`
    public var usageHint: String {
        let arguments = positionals.map { " " + $0.spelling }.joined()
        return "Usage: \(command)\(arguments)\(options.isEmpty ? "" : " [options]"); see '\(command) --help'."
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines
    }
}

extension Positional {
    /// `FILE`, `[FILE]`, `FILE...`: as the synopsis and the usage line show it.
    var spelling: String {
        let word = variadic ? argument + "..." : argument
        return required ? word : "[\(word)]"
    }
}

extension Option {
    /// What the option does, then its default, rule and kind in parentheses: the help's, the man page's and the
    /// completions' description.
    public var helpSummary: String {
        var notes: [String] = []
        switch defaultValue {
        case .none: break
        case .value(let text): notes.append("default: \(text.isEmpty ? "empty" : text)")
        case .described(let text): notes.append("default: \(text)")
        }
        if let words = rule.helpWords { notes.append(words) }
        if repeatable { notes.append("repeatable") }
        if required { notes.append("required") }
        return summary + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
}
