import Testing

@testable import CommandLineOptions

@Suite("ValueRule")
struct OptionTests {
    @Test(
        "integers: whole numbers in the range, nothing else",
        arguments: [
            ("1", true), ("1000000000", true), ("0", false), ("-1", false), ("1000000001", false),
            ("99999999999999999999", false), ("1.5", false), ("", false), ("ten", false), (" 5", false),
        ])
    func integers(_ text: String, _ valid: Bool) {
        #expect((ValueRule.integer(1...1_000_000_000).check(text) == .valid) == valid, "\(text)")
    }

    @Test(
        "positive seconds: finite, above 0, at most the maximum",
        arguments: [
            ("0.5", true), ("10", true), ("86400", true), ("0", false), ("-1", false), ("86400.5", false),
            ("1e19", false), ("inf", false), ("nan", false), ("soon", false),
        ])
    func positiveSeconds(_ text: String, _ valid: Bool) {
        #expect((ValueRule.seconds(maximum: 86_400).check(text) == .valid) == valid, "\(text)")
    }

    @Test(
        "seconds with a minimum: from it, inclusive, to the maximum",
        arguments: [
            ("0.001", true), ("604800", true), ("1e-7", false), ("0", false), ("604801", false), ("9.3e18", false),
            ("nan", false), ("-1", false),
        ])
    func boundedSeconds(_ text: String, _ valid: Bool) {
        #expect((ValueRule.seconds(minimum: 0.001, maximum: 604_800).check(text) == .valid) == valid, "\(text)")
    }

    @Test("choices and lists take only their words; a list names the words it does not know")
    func words() {
        let choice = ValueRule.choice(["text", "json"])
        #expect(choice.check("json") == .valid)
        #expect(choice.check("xml") == .invalid)
        #expect(choice.check("JSON") == .invalid)
        let list = ValueRule.list(["cold", "peer", "suite"])
        #expect(list.check("cold") == .valid)
        #expect(list.check("suite,cold") == .valid)
        #expect(list.check("cold,frob,peer,x") == .unknownWords(["frob", "x"]))
        #expect(list.check("") == .invalid)
        #expect(list.check(",") == .invalid)
    }

    @Test("a pattern is what its closure accepts")
    func pattern() {
        let rule = ValueRule.pattern(rule: "i/n") { $0.contains("/") }
        #expect(rule.check("1/2") == .valid)
        #expect(rule.check("12") == .invalid)
    }

    @Test("each rule in words, as its errors say it after 'must be'")
    func ruleWords() {
        #expect(ValueRule.integer(1...1_000_000_000).words == "a positive integer, at most 1000000000")
        #expect(ValueRule.integer(0...9).words == "an integer from 0 to 9")
        #expect(ValueRule.seconds(maximum: 86_400).words == "a positive number of seconds, at most 86400 (one day)")
        #expect(
            ValueRule.seconds(minimum: 0.001, maximum: 604_800).words
                == "a number of seconds from 0.001 to 604800 (one week)")
        #expect(ValueRule.seconds(maximum: 30.5).words == "a positive number of seconds, at most 30.5")
        #expect(ValueRule.choice(["text", "json", "junit", "html"]).words == "text, json, junit or html")
        #expect(ValueRule.choice(["raw"]).words == "raw")
        #expect(ValueRule.list(["a", "b"]).words == "a comma-separated list of a, b")
    }

    @Test("an option's spelling shows its placeholder; a flag has none")
    func spelling() {
        #expect(Option.value("--timeout", "SECONDS", "wait").spelling == "--timeout SECONDS")
        #expect(Option.flag("--lenient", "tolerate").spelling == "--lenient")
        #expect(!Option.flag("--lenient", "tolerate").takesValue)
    }
}
