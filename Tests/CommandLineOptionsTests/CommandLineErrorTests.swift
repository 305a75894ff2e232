import Testing

@testable import CommandLineOptions

@Suite("CommandLineError")
struct CommandLineErrorTests {
    @Test(
        "every refusal names the option or argument, the rule and the remedy",
        arguments: [
            (["--bogus"], CommandLineError.Problem.unknownOption, "unknown option --bogus; see 'tool check --help'"),
            (["--timout", "3"], .unknownOption, "unknown option --timout; did you mean --timeout?"),
            (["--value"], .missingValue, "option --value needs a value; give it as --value TEXT"),
            (
                ["--value", "--lenient"], .missingValue,
                "option --value needs a value (found the option --lenient instead); give it as --value TEXT, or "
                    + "--value=TEXT for a value that starts with -"
            ),
            (
                ["--timeout", "-1"], .invalidValue,
                "--timeout must be a positive number of seconds, at most 86400 (one day), not '-1'"
            ),
            (["--repeat", "0"], .invalidValue, "--repeat must be a positive integer, at most 1000000000, not '0'"),
            (["--format", "xml"], .invalidValue, "--format must be text or json, not 'xml'"),
            (["--lenient=yes"], .valueForFlag, "--lenient takes no value, not 'yes'; give --lenient alone"),
            (["--alone", "--compare", "X"], .conflictingOptions, "--alone and --compare exclude each other; give one"),
            (["stray"], .unexpectedArgument, "unexpected argument 'stray'; tool check takes no arguments besides"),
        ])
    func refusals(_ arguments: [String], _ problem: CommandLineError.Problem, _ text: String) {
        let error = refusal(arguments)
        #expect(error?.problem == problem, "\(arguments)")
        #expect(error?.description.hasPrefix(text) == true, "\(arguments): \(String(describing: error))")
        #expect(error?.subject.isEmpty == false)
        #expect(error?.remedy.isEmpty == false)
    }

    @Test("arguments: a missing or unknown subcommand, a required option, one argument too many")
    func arguments() throws {
        #expect(
            refusal(["--runtime", "r"], in: subcommands)?.description == "missing subcommand; give one of print, lock")
        #expect(
            refusal(["frob", "--runtime", "r"], in: subcommands)?.description
                == "unknown subcommand 'frob'; give one of print, lock")
        #expect(
            refusal(["print", "extra", "--runtime", "r"], in: subcommands)?.description
                == "unexpected argument 'extra'; tool contract takes <print|lock> besides its options")
        #expect(
            refusal(["print"], in: subcommands)?.description
                == "missing option --runtime; give --runtime R: the runtime")
        #expect(try subcommands.parse(["lock", "--runtime=r"]).positionals == ["lock"])
    }

    @Test("words quoted from the command line are escaped: an error is one inert line")
    func escaping() {
        for arguments in [["--b\u{7}d\rPASS"], ["--format", "\u{1B}[2J\n"], ["st\u{9B}ray"]] {
            let text = refusal(arguments)?.description ?? ""
            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(text)")
            #expect(text.contains(#"\u{"#) || text.contains(#"\r"#) || text.contains(#"\n"#), "\(text)")
        }
    }
}
