import TerminalEscape

/// A command line a table refuses: the option (or argument) it is about, the rule broken, and the remedy. Words
/// quoted from the command line are escaped, so the message is one line whatever they held.
public struct CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// A word starting with `-` that is no option of the command.
        case unknownOption
        /// An option that takes a value came last, or before another option.
        case missingValue
        /// A value that breaks its option's rule.
        case invalidValue
        /// A flag given a value (`--lenient=yes`).
        case valueForFlag
        /// A required option was not given.
        case missingOption
        /// Two options that exclude each other were both given.
        case conflictingOptions
        /// More arguments than the command takes.
        case unexpectedArgument
        /// A required argument (a subcommand, a path) is missing.
        case missingArgument
        /// An argument that is none of its words (an unknown subcommand).
        case unknownArgument
    }

    public let problem: Problem
    /// The option (`--timeout`) or argument (`subcommand`) the error is about, as the command line spelled it.
    public let subject: String
    /// The rule, in words.
    public let rule: String
    /// What to type instead.
    public let remedy: String
    /// One line: what is wrong, then the remedy.
    public let description: String

    init(_ problem: Problem, subject: String, rule: String, remedy: String, description: String) {
        self.problem = problem
        self.subject = subject.escapingControlCharacters
        self.rule = rule
        self.remedy = remedy
        self.description = description.escapingControlCharacters
    }

    static func unknownOption(_ word: String, suggestion: String?, command: String) -> CommandLineError {
        let remedy = suggestion.map { "did you mean \($0)?" } ?? "see '\(command) --help' for its options"
        return CommandLineError(
            .unknownOption, subject: word, rule: "\(command) has no such option", remedy: remedy,
            description: "unknown option \(word); \(remedy)")
    }

    static func missingValue(_ option: Option, before next: String?) -> CommandLineError {
        let argument = option.argument ?? "VALUE"
        var remedy = "give it as \(option.name) \(argument)"
        if next != nil { remedy += ", or \(option.name)=\(argument) for a value that starts with -" }
        let found = next.map { " (found the option \($0) instead)" } ?? ""
        return CommandLineError(
            .missingValue, subject: option.name, rule: "\(option.name) takes a value", remedy: remedy,
            description: "option \(option.name) needs a value\(found); \(remedy)")
    }

    static func invalidValue(_ option: Option, _ value: String, unknownWords: [String] = []) -> CommandLineError {
        let rule = option.rule.words
        var description = "\(option.name) must be \(rule), not '\(value)'"
        if !unknownWords.isEmpty {
            let quoted = unknownWords.map { "'\($0)'" }.joined(separator: ", ")
            description += " (\(quoted) \(unknownWords.count == 1 ? "is" : "are") not among them)"
        }
        return CommandLineError(
            .invalidValue, subject: option.name, rule: "must be \(rule)", remedy: "give \(option.name) \(rule)",
            description: description)
    }

    static func valueForFlag(_ option: Option, _ value: String) -> CommandLineError {
        CommandLineError(
            .valueForFlag, subject: option.name, rule: "\(option.name) takes no value",
            remedy: "give \(option.name) alone",
            description: "\(option.name) takes no value, not '\(value)'; give \(option.name) alone")
    }

    static func missingOption(_ option: Option, command: String) -> CommandLineError {
        CommandLineError(
            .missingOption, subject: option.name, rule: "\(command) needs \(option.name)",
            remedy: "give \(option.spelling): \(option.summary)",
            description: "missing option \(option.name); give \(option.spelling): \(option.summary)")
    }

    static func conflicting(_ first: String, _ second: String) -> CommandLineError {
        CommandLineError(
            .conflictingOptions, subject: first, rule: "\(first) and \(second) exclude each other",
            remedy: "give one of them",
            description: "\(first) and \(second) exclude each other; give one of them")
    }

    static func unexpectedArgument(_ word: String, command: String, takes positionals: [Positional])
        -> CommandLineError
    {
        let takes =
            positionals.isEmpty
            ? "\(command) takes no arguments besides its options"
            : "\(command) takes \(positionals.map(\.argument).joined(separator: " ")) besides its options"
        return CommandLineError(
            .unexpectedArgument, subject: word, rule: takes,
            remedy: "remove it, or put it after the option it belongs to",
            description: "unexpected argument '\(word)'; \(takes)")
    }

    static func missingArgument(_ positional: Positional) -> CommandLineError {
        let remedy =
            positional.choices.isEmpty
            ? "give \(positional.argument)" : "give one of \(positional.choices.joined(separator: ", "))"
        return CommandLineError(
            .missingArgument, subject: positional.noun, rule: "\(positional.argument) is required", remedy: remedy,
            description: "missing \(positional.noun); \(remedy)")
    }

    static func unknownArgument(_ word: String, _ positional: Positional) -> CommandLineError {
        let remedy = "give one of \(positional.choices.joined(separator: ", "))"
        return CommandLineError(
            .unknownArgument, subject: word, rule: "\(positional.noun) must be one of \(positional.argument)",
            remedy: remedy, description: "unknown \(positional.noun) '\(word)'; \(remedy)")
    }
}
