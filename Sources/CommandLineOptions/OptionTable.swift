/// A command's options, written once: the parse, the usage, the help with its defaults, and every usage error
/// come from this table. No argument-parsing package can be fetched here, so this is the one parser.
///
/// The command line it reads: `--name VALUE` or `--name=VALUE` for an option with a value, `--flag`, `-h` or
/// `--help` anywhere (help is asked for, the options are still checked), and `--` before arguments that start
/// with `-`. The last value of an option given twice wins, unless the option is repeatable.
public struct OptionTable: Sendable {
    /// How the command is typed, as usage lines and errors name it: `webbridge check`.
    public let command: String
    public let positionals: [Positional]
    public let options: [Option]
    /// Pairs of options that may not be given together.
    public let exclusive: [(String, String)]

    public init(
        command: String, positionals: [Positional] = [], options: [Option], exclusive: [(String, String)] = []
    ) {
        self.command = command
        self.positionals = positionals
        self.options = options
        self.exclusive = exclusive
        var seen: Set<String> = ["--help", "-h"]
        for option in options {
            precondition(option.name.hasPrefix("-"), "\(command): option \(option.name) does not start with -")
            precondition(seen.insert(option.name).inserted, "\(command): \(option.name) is in the table twice")
            if case .value(let text) = option.defaultValue, option.rule.check(text) != .valid {
                preconditionFailure("\(command): the default of \(option.name), '\(text)', breaks its own rule")
            }
        }
        precondition(
            positionals.dropLast().allSatisfy { !$0.variadic }, "\(command): only the last positional may be variadic")
        for (first, second) in exclusive {
            precondition(seen.contains(first) && seen.contains(second), "\(command): \(first)|\(second) unknown")
        }
    }

    /// The option spelled `name`, if the table has it.
    public func option(_ name: String) -> Option? { options.first { $0.name == name } }

    /// Reads `arguments` (the words after the command's name) by the table's rules.
    public func parse(_ arguments: some Sequence<String>) throws(CommandLineError) -> ParsedOptions {
        var words = Array(arguments)[...]
        var positionals: [String] = []
        var given: [(name: String, value: String?)] = []
        var help = false
        while let word = words.popFirst() {
            if word == "--help" || word == "-h" {
                help = true
            } else if word == "--" {
                positionals += words
                words = []
            } else if word.hasPrefix("-") && word.count > 1 {
                let name = word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
                let inline = word.firstIndex(of: "=").map { String(word[word.index(after: $0)...]) }
                guard let option = option(name) else {
                    throw .unknownOption(name, suggestion: suggestion(for: name), command: command)
                }
                guard option.takesValue else {
                    if let inline { throw .valueForFlag(option, inline) }
                    given.append((name, nil))
                    continue
                }
                // A value is the next word, unless that word is one of the command's options: then the value
                // was forgotten (`--output --quick`), and `--output=--quick` says it is meant.
                if inline == nil, let next = words.first, isOptionSpelling(next) {
                    throw .missingValue(option, before: next)
                }
                guard let value = inline ?? words.popFirst() else { throw .missingValue(option, before: nil) }
                switch option.rule.check(value) {
                case .valid: given.append((name, value))
                case .invalid: throw .invalidValue(option, value)
                case .unknownWords(let unknown): throw .invalidValue(option, value, unknownWords: unknown)
                }
            } else {
                positionals.append(word)
            }
        }
        let parsed = ParsedOptions(table: self, given: given, positionals: positionals, wantsHelp: help)
        // Asking for help is never an error: what is missing is what the help explains.
        if help { return parsed }
        for (first, second) in exclusive where parsed.isGiven(first) && parsed.isGiven(second) {
            throw .conflicting(first, second)
        }
        for option in options where option.required && !parsed.isGiven(option.name) {
            throw .missingOption(option, command: command)
        }
        if positionals.count > self.positionals.count, self.positionals.last?.variadic != true {
            throw .unexpectedArgument(
                positionals[self.positionals.count], command: command, takes: self.positionals)
        }
        for (index, positional) in self.positionals.enumerated() {
            guard index < positionals.count else {
                if positional.required { throw .missingArgument(positional) }
                continue
            }
            if !positional.choices.isEmpty, !positional.choices.contains(positionals[index]) {
                throw .unknownArgument(positionals[index], positional)
            }
        }
        return parsed
    }

    /// Whether `word` is `--help`, `-h` or one of the table's options (with or without `=VALUE`).
    func isOptionSpelling(_ word: String) -> Bool {
        let name = word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
        return name == "--help" || name == "-h" || option(name) != nil
    }

    /// The option closest to a misspelt one (at most two edits, and fewer than half its letters), if any.
    func suggestion(for name: String) -> String? {
        let candidates = options.map { ($0.name, Self.editDistance($0.name, name)) }
            .filter { $0.1 <= 2 && $0.1 * 2 < name.count - 2 }
        return candidates.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
