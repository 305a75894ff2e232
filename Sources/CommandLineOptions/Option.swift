import Foundation

/// One option of a command: how it is spelled, what value it takes and by which rule, what it does, and its
/// default. A command's `OptionTable` lists them; its parse, usage, help and errors all come from there.
public struct Option: Sendable {
    /// The spelling, with its dashes: `--timeout`.
    public let name: String
    /// The value's placeholder in the usage (`SECONDS`); nil for a flag, which takes no value.
    public let argument: String?
    /// The rule a value must follow.
    public let rule: ValueRule
    /// What the option does, for the help.
    public let summary: String
    /// How the default is shown in the help, and whether there is one to read.
    public let defaultValue: Default
    /// Whether the option may be given several times, each value kept (`--page A --page B`).
    public let repeatable: Bool
    /// Whether the command needs it.
    public let required: Bool

    /// What happens when the option is not given.
    public enum Default: Sendable, Equatable {
        /// Nothing: the option has no value.
        case none
        /// This text, as if given on the command line; shown in the help and read by `ParsedOptions`.
        case value(String)
        /// The command decides (the bundled contract, next to this executable); shown in the help only.
        case described(String)
    }

    /// An option without a value: given or not.
    public static func flag(_ name: String, _ summary: String) -> Option {
        Option(
            name: name, argument: nil, rule: .text, summary: summary, defaultValue: .none, repeatable: false,
            required: false)
    }

    /// An option with a value that follows `rule`: `--name VALUE` or `--name=VALUE`.
    public static func value(
        _ name: String, _ argument: String, _ summary: String, rule: ValueRule = .text, default: Default = .none,
        repeatable: Bool = false, required: Bool = false
    ) -> Option {
        Option(
            name: name, argument: argument, rule: rule, summary: summary, defaultValue: `default`,
            repeatable: repeatable, required: required)
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { argument != nil }

    /// `--timeout SECONDS`, or `--lenient` for a flag.
    public var spelling: String { argument.map { "\(name) \($0)" } ?? name }
}

/// The rule an option's value follows; a value that breaks it is a usage error naming the option and the rule.
public enum ValueRule: Sendable {
    /// Any text.
    case text
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// A number of seconds, decimals allowed, above `minimum` (above 0 when nil) and at most `maximum`. The bound
    /// keeps every deadline computed from it (nanoseconds in 64 bits) far from overflow.
    case seconds(minimum: Double? = nil, maximum: Double)
    /// One of these words.
    case choice([String])
    /// A comma-separated list of these words (at least one).
    case list([String])
    /// Text `accepts` takes; `rule` says which, in words ("i/n with 1 <= i <= n").
    case pattern(rule: String, accepts: @Sendable (String) -> Bool)

    /// The rule in words, as an error says it after "must be".
    public var words: String {
        switch self {
        case .text: "text"
        case .integer(let range):
            range.lowerBound == 1
                ? "a positive integer, at most \(range.upperBound)"
                : "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .seconds(let minimum, let maximum):
            (minimum.map { "a number of seconds from \(Self.number($0)) to " }
                ?? "a positive number of seconds, at most ") + Self.number(maximum) + Self.span(maximum)
        case .choice(let words): Self.alternatives(words)
        case .list(let words): "a comma-separated list of \(words.joined(separator: ", "))"
        case .pattern(let rule, _): rule
        }
    }

    /// The rule as the help shows it beside the default, nil when the summary says it.
    var helpWords: String? {
        switch self {
        case .text, .pattern: nil
        case .integer(let range):
            range.lowerBound == 1 ? "at most \(range.upperBound)" : "\(range.lowerBound) to \(range.upperBound)"
        case .seconds(let minimum, let maximum):
            minimum.map { "\(Self.number($0)) to \(Self.number(maximum))" } ?? "at most \(Self.number(maximum))"
        case .choice(let words): "one of \(words.joined(separator: ", "))"
        case .list(let words): "comma-separated, from \(words.joined(separator: ", "))"
        }
    }

    /// Whether `text` follows the rule; the words of a list that are not among its words otherwise.
    func check(_ text: String) -> Check {
        switch self {
        case .text: return .valid
        case .integer(let range):
            guard let number = Int(text), range.contains(number) else { return .invalid }
            return .valid
        case .seconds(let minimum, let maximum):
            guard let number = Double(text), number.isFinite, number <= maximum,
                minimum.map({ number >= $0 }) ?? (number > 0)
            else { return .invalid }
            return .valid
        case .choice(let words): return words.contains(text) ? .valid : .invalid
        case .list(let words):
            let given = text.split(separator: ",").map(String.init)
            guard !given.isEmpty else { return .invalid }
            let unknown = given.filter { !words.contains($0) }
            return unknown.isEmpty ? .valid : .unknownWords(unknown)
        case .pattern(_, let accepts): return accepts(text) ? .valid : .invalid
        }
    }

    enum Check: Equatable {
        case valid, invalid
        case unknownWords([String])
    }

    /// `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// `86400`, `0.001`: whole numbers without a decimal point.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
    }

    /// ` (one day)` for the spans people know by name.
    static func span(_ seconds: Double) -> String {
        switch seconds {
        case 3_600: " (one hour)"
        case 86_400: " (one day)"
        case 604_800: " (one week)"
        default: ""
        }
    }
}

/// An argument that is not an option: a subcommand or a path.
public struct Positional: Sendable {
    /// What it is, as an error names it: `subcommand`, `the manifest path`.
    public let noun: String
    /// Its placeholder in the usage: `<print|lock|diff|js>`, `MANIFEST`.
    public let argument: String
    /// The words it may be; empty for any text.
    public let choices: [String]
    public let required: Bool
    /// Whether it takes every remaining argument (`FILE...`); only the last positional may.
    public let variadic: Bool

    public init(
        _ noun: String, _ argument: String, choices: [String] = [], required: Bool = true, variadic: Bool = false
    ) {
        self.noun = noun
        self.argument = argument
        self.choices = choices
        self.required = required
        self.variadic = variadic
    }
}
