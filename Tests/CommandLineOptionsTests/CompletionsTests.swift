import Testing

@testable import CommandLineOptions

/// The tree the scripts and the man page are generated from, and what each option's value completes to.
@Suite("Completions and the man page")
struct CompletionsTests {
    let tree = CommandTree(
        "tool", "does things", table: OptionTable(command: "tool", options: [.flag("--version", "the version")]),
        children: [
            CommandTree("check", "checks", table: sample),
            CommandTree("contract", "contracts", table: subcommands),
        ])

    @Test("a value completes to its choices, to paths by its placeholder, else to nothing")
    func valueCompletion() {
        #expect(sample.option("--format")?.valueCompletion == .words(["text", "json"]))
        #expect(sample.option("--page")?.valueCompletion == .files)
        #expect(sample.option("--timeout")?.valueCompletion == ValueCompletion.none)
        #expect(Option.value("--package-path", "DIR", "a folder").valueCompletion == .directories)
        #expect(Option.value("--report", "KIND=FILE", "a report").valueCompletion == ValueCompletion.none)
    }

    @Test("every command is reached by its words; a subcommand's argument choices are its words")
    func paths() {
        #expect(self.tree.all.map(\.path) == [[], ["check"], ["contract"]])
        #expect(self.tree.words == ["check", "contract"])
        #expect(self.tree.children[1].words == ["print", "lock"])
    }

    @Test("the man page escapes roff: dashes, backslashes, a leading dot")
    func manEscape() {
        #expect(ManPage.escape("--page a\\b") == "\\-\\-page a\\eb")
        #expect(ManPage.escape(".hidden") == "\\&.hidden")
        let page = ManPage.render(tree, about: "About.", version: "tool 1.0", date: "2026-12-01")
        #expect(page.contains(".TH TOOL 1 \"2026-12-01\" \"tool 1.0\""))
        #expect(page.contains(".SS \"tool check\""))
        #expect(
            page.contains("\\fB\\-\\-timeout\\fR \\fISECONDS\\fR\nwait at most this long (default: 10; at most 86400)"))
    }
}
