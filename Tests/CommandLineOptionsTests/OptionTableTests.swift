import Testing

@testable import CommandLineOptions

/// A table with one option of each kind, as the commands use them.
let sample = OptionTable(
    command: "tool check",
    options: [
        .value("--page", "FILE", "a page", repeatable: true),
        .value("--url", "URL", "a deployed page", repeatable: true),
        .value(
            "--timeout", "SECONDS", "wait at most this long", rule: .seconds(maximum: 86_400), default: .value("10")),
        .value("--repeat", "N", "sessions", rule: .integer(1...1_000_000_000), default: .value("1")),
        .value("--format", "FORMAT", "the report's form", rule: .choice(["text", "json"]), default: .value("text")),
        .value("--value", "TEXT", "the text sent"),
        .flag("--lenient", "tolerate unknown messages"),
        .flag("--alone", "one run"),
        .value("--compare", "UDID", "a second run"),
    ],
    exclusive: [("--alone", "--compare")])

let subcommands = OptionTable(
    command: "tool contract",
    positionals: [Positional("subcommand", "<print|lock>", choices: ["print", "lock"])],
    options: [.value("--runtime", "R", "the runtime", required: true)])

/// The error `arguments` get from `table`, nil when they parse.
func refusal(_ arguments: [String], in table: OptionTable = sample) -> CommandLineError? {
    do {
        _ = try table.parse(arguments)
        return nil
    } catch {
        return error
    }
}

@Suite("OptionTable.parse")
struct OptionTableTests {
    @Test("a variadic last positional takes every remaining argument; without one, an extra is an error")
    func variadicPositional() throws {
        let merge = OptionTable(
            command: "tool report",
            positionals: [
                Positional("subcommand", "<merge>", choices: ["merge"]), Positional("file", "FILE", variadic: true),
            ],
            options: [.value("--format", "FORMAT", "the form")])
        let parsed = try merge.parse(["merge", "a.json", "--format", "json", "b.json", "c.json"])
        #expect(parsed.positionals == ["merge", "a.json", "b.json", "c.json"])
        #expect(merge.synopsis() == "USAGE: tool report <merge> FILE... [--format FORMAT]")
        #expect(merge.usageHint == "Usage: tool report <merge> FILE... [options]; see 'tool report --help'.")
        #expect(refusal(["merge"], in: merge)?.problem == .missingArgument)
        #expect(refusal(["print", "extra", "--runtime", "R"], in: subcommands)?.problem == .unexpectedArgument)
    }

    @Test("a value follows its option as the next word or after =; a flag stands alone")
    func valuesAndFlags() throws {
        let parsed = try sample.parse(["--timeout", "2.5", "--format=json", "--lenient"])
        #expect(parsed.seconds("--timeout") == 2.5)
        #expect(parsed.value("--format") == "json")
        #expect(parsed.has("--lenient"))
        #expect(!parsed.has("--alone"))
        #expect(parsed.positionals == [])
    }

    @Test("the last value of an option given twice wins; a repeatable option keeps each, in order")
    func repeats() throws {
        let parsed = try sample.parse(["--value", "a", "--page", "1", "--url", "u", "--value", "b", "--page=2"])
        #expect(parsed.value("--value") == "b")
        #expect(parsed.values("--page") == ["1", "2"])
        let ordered = parsed.values(inOrder: ["--page", "--url"])
        #expect(ordered.map(\.name) == ["--page", "--url", "--page"])
        #expect(ordered.map(\.value) == ["1", "u", "2"])
    }

    @Test("a value may start with a dash, or even two after =; -- ends the options")
    func dashes() throws {
        #expect(try sample.parse(["--value", "-x"]).value("--value") == "-x")
        #expect(try sample.parse(["--value=--lenient"]).value("--value") == "--lenient")
        #expect(try sample.parse(["--value=a=b"]).value("--value") == "a=b")
        #expect(try subcommands.parse(["--runtime", "r", "--", "print"]).positionals == ["print"])
        let error = refusal(["--runtime", "r", "--", "--print"], in: subcommands)
        #expect(error?.problem == .unknownArgument)
    }

    @Test("-h and --help are asked for anywhere; the options are still checked, but nothing is required")
    func help() throws {
        #expect(try sample.parse(["--format", "json", "-h"]).wantsHelp)
        #expect(try subcommands.parse(["--help"]).wantsHelp)
        #expect(!(try sample.parse([]).wantsHelp))
        #expect(refusal(["--help", "--bogus"])?.problem == .unknownOption)
    }

    @Test("a misspelt option gets the closest one; a word unlike any gets none")
    func suggestions() {
        #expect(sample.suggestion(for: "--lenent") == "--lenient")
        #expect(sample.suggestion(for: "--formats") == "--format")
        #expect(sample.suggestion(for: "--bogus") == nil)
        #expect(sample.suggestion(for: "-x") == nil)
        #expect(OptionTable.editDistance("kitten", "sitting") == 3)
    }
}
