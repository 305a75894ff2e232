import Testing

@testable import CommandLineOptions

@Suite("ParsedOptions")
struct ParsedOptionsTests {
    @Test("an option not given reads as its default, and does not count as given")
    func defaults() throws {
        let parsed = try sample.parse([])
        #expect(parsed.seconds("--timeout") == 10)
        #expect(parsed.integer("--repeat") == 1)
        #expect(parsed.value("--format") == "text")
        #expect(!parsed.isGiven("--timeout"))
        #expect(parsed.value("--value") == nil)
        #expect(parsed.values("--page") == [])
    }

    @Test("a value given replaces the default")
    func given() throws {
        let parsed = try sample.parse(["--timeout", "3", "--repeat", "50"])
        #expect(parsed.seconds("--timeout") == 3)
        #expect(parsed.integer("--repeat") == 50)
        #expect(parsed.isGiven("--timeout"))
    }

    @Test("a list reads as its words")
    func list() throws {
        let table = OptionTable(
            command: "bench", options: [.value("--only", "LIST", "sections", rule: .list(["cold", "peer", "suite"]))])
        #expect(try table.parse(["--only", "peer,cold"]).list("--only") == ["peer", "cold"])
        #expect(try table.parse([]).list("--only") == [])
    }
}
