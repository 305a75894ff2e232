import Testing

@testable import CommandLineOptions

@Suite("help text")
struct HelpTextTests {
    @Test("the synopsis: arguments, then options; optional in brackets, repeatable with ..., pairs with |")
    func synopsis() {
        let text = sample.synopsis(width: 1000)
        #expect(
            text
                == "USAGE: tool check [--page FILE]... [--url URL]... [--timeout SECONDS] [--repeat N] "
                + "[--format FORMAT] [--value TEXT] [--lenient] [--alone | --compare UDID]")
        #expect(subcommands.synopsis(lead: "  ", name: "contract") == "  contract <print|lock> --runtime R")
    }

    @Test("a long synopsis wraps under its first argument, no line over the width")
    func synopsisWraps() {
        let lines = sample.synopsis(width: 60).split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        // Under the first word after `USAGE: tool check `.
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 18) + "[") }, "\(lines)")
    }

    @Test("each option's entry shows its default and its rule; every option and -h, --help are there")
    func options() {
        let text = sample.optionsHelp()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "  --timeout SECONDS   wait at most this long (default: 10; at most 86400)"))
        #expect(lines.contains("  --format FORMAT     the report's form (default: text; one of text, json)"))
        #expect(lines.contains("  --page FILE         a page (repeatable)"))
        #expect(lines.contains("  -h, --help          show this help"))
        for option in sample.options { #expect(text.contains(option.spelling), "\(option.name)") }
        #expect(subcommands.optionsHelp().contains("the runtime (required)"))
    }

    @Test("a long summary wraps at the column; a long label puts the summary on the next line")
    func optionsWrap() {
        let table = OptionTable(
            command: "t",
            options: [
                .value("--user-script", "SCRIPT", String(repeating: "word ", count: 40), default: .described("none"))
            ])
        let lines = table.optionsHelp(width: 60).split(separator: "\n").map(String.init).dropLast()  // -h, --help
        #expect(lines.first == "  --user-script SCRIPT")
        #expect(lines.count > 3)
        #expect(
            lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 22)) && $0.count <= 60 },
            "\(lines)")
        let words = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(words.hasSuffix("word word (default: none)"), "\(lines)")
    }

    @Test("the hint after a usage error points at the help")
    func hint() {
        #expect(sample.usageHint == "Usage: tool check [options]; see 'tool check --help'.")
        #expect(
            subcommands.usageHint == "Usage: tool contract <print|lock> [options]; see 'tool contract --help'.")
    }

    @Test("the whole help: synopsis, about, options, epilogue")
    func whole() {
        let text = sample.help("Checks things.", epilogue: "EXIT CODES: 0 pass")
        #expect(text.hasPrefix("USAGE: tool check "))
        #expect(text.contains("\n\nChecks things.\n\nOPTIONS:\n  --page FILE"))
        #expect(text.hasSuffix("\n\nEXIT CODES: 0 pass"))
    }
}
