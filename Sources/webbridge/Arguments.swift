import BridgeTesting
import Foundation

/// The command line, parsed by hand: no argument-parsing package can be fetched here.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    /// Every option's value in command-line order, for options whose interleaving matters (`--page`, `--url`).
    private var ordered: [(name: String, value: String)] = []
    private var flags: Set<String> = []
    let wantsHelp: Bool

    /// Parses `argv` given the options that take a value and the flags; anything else is a usage error.
    init(_ argv: some Sequence<String>, options: Set<String> = [], flags knownFlags: Set<String> = [])
        throws(UsageError)
    {
        var iterator = argv.makeIterator()
        var help = false
        while let word = iterator.next() {
            if word == "--help" || word == "-h" {
                help = true
            } else if word == "--" {
                while let rest = iterator.next() { positionals.append(rest) }
            } else if word.hasPrefix("-") && word.count > 1 {
                var name = word
                var inlineValue: String?
                if let equals = word.firstIndex(of: "=") {
                    name = String(word[..<equals])
                    inlineValue = String(word[word.index(after: equals)...])
                }
                if options.contains(name) {
                    guard let value = inlineValue ?? iterator.next() else {
                        throw UsageError("option \(name) needs a value")
                    }
                    values[name, default: []].append(value)
                    ordered.append((name, value))
                } else if knownFlags.contains(name), inlineValue == nil {
                    flags.insert(name)
                } else {
                    throw UsageError("unknown option \(name)")
                }
            } else {
                positionals.append(word)
            }
        }
        wantsHelp = help
    }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The values of the options in `names`, in the order they were given.
    func values(inOrder names: Set<String>) -> [(name: String, value: String)] {
        ordered.filter { names.contains($0.name) }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A positive integer option at most `maximum`, or a usage error naming the option and its range.
    func positiveInt(_ name: String, maximum: Int = 1_000_000_000) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number > 0, number <= maximum else {
            throw UsageError("\(name) must be a positive integer, at most \(maximum)")
        }
        return number
    }

    /// A duration in seconds (decimals allowed) at most `maximum`, or a usage error naming the option and its range.
    ///
    /// The bound keeps every deadline computed from it (nanoseconds in 64 bits) far from overflow.
    func seconds(_ name: String, maximum: Double = 86_400) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > 0, number <= maximum else {
            throw UsageError(
                "\(name) must be a positive number of seconds, at most \(Int(maximum)) (one day)")
        }
        return number
    }

    /// Refuses positionals beyond `count`.
    func expectPositionals(atMost count: Int) throws(UsageError) {
        if positionals.count > count {
            throw UsageError("unexpected argument '\(positionals[count])'")
        }
    }
}

/// A wrong command line: exit 2 with a one-line message and the usage.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    /// The message with any control characters (from the arguments it quotes) escaped.
    init(_ description: String) { self.description = TerminalText.escapeLines(description) }
}

/// The documented exit codes of `webbridge`.
enum ExitStatus: Int32 {
    case pass = 0
    case contractFailure = 1
    case usage = 2
    case environment = 3
    case pageUnreachable = 4
    /// `xcode test --timeout` stopped a run, as timeout(1) reports it.
    case timedOut = 124
    /// Stopped by SIGINT (Ctrl-C) after reporting what was done.
    case interruptedBySIGINT = 130
    /// Stopped by SIGTERM after reporting what was done.
    case interruptedBySIGTERM = 143
}
