import Foundation
import XCTest

/// `--generate-completion-script bash|zsh|fish` and `--generate-manual`: generated from the option tables and run
/// in the real shells and man's renderer (scripts/setup.sh installs zsh, fish and groff).
final class CompletionsCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for name in ["shard-1.json", "shard-2.json", "notes.txt"] {
            try Data().write(to: scratch.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The script for `shell`, written to the scratch folder as `name`.
    func script(_ shell: String, as name: String) throws -> String {
        let result = try CLI.run(["--generate-completion-script", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        try Data(result.stdout.utf8).write(to: scratch.appendingPathComponent(name))
        return name
    }

    /// The options `webbridge <command> --help` lists: what the parser takes.
    func helpOptions(_ command: [String]) throws -> Set<String> {
        let help = try CLI.run(command + ["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let names = help.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  --") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        return Set(names)
    }

    static let commands: [[String]] = [
        ["check"], ["contract"], ["doctor"], ["report"], ["xcode", "pin"], ["xcode", "preflight"], ["xcode", "test"],
        ["xcode", "rerun"],
    ]

    /// What bash's completion function offers for `line` (the last word is the one being completed).
    func bash(_ line: [String]) throws -> [String] {
        let name = try script("bash", as: "webbridge.bash")
        let run = try ExternalTool.run(
            [
                "bash", "-c",
                "source ./\(name); COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _webbridge; printf '%s\\n' \"${COMPREPLY[@]}\"",
                "bash", "webbridge",
            ] + line, currentDirectory: scratch)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "bash printed errors")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    func testBashCompletesSubcommandsOptionsAndTheirValues() throws {
        XCTAssertEqual(try bash(["ch"]), ["check"])
        XCTAssertEqual(try bash([""]), ["check", "contract", "doctor", "report", "xcode"])
        XCTAssertEqual(try bash(["check", "--fo"]), ["--format"])
        XCTAssertEqual(try bash(["check", "--format", ""]), ["text", "json", "junit", "html"])
        XCTAssertEqual(try bash(["contract", ""]), ["print", "lock", "diff", "js", "ts", "swift"])
        XCTAssertEqual(try bash(["contract", "diff", "--format", "j"]), ["json"])
        XCTAssertEqual(try bash(["xcode", "p"]), ["pin", "preflight"])
        XCTAssertEqual(try bash(["xcode", "pin", "--dev"]), ["--device-type"])
        XCTAssertEqual(try bash(["--generate-completion-script", "z"]), ["zsh"])
        // Paths where a file is expected, nothing where a number is.
        XCTAssertEqual(try bash(["report", "merge", "sh"]).sorted(), ["shard-1.json", "shard-2.json"])
        XCTAssertEqual(try bash(["check", "--page", "no"]), ["notes.txt"])
        XCTAssertEqual(try bash(["check", "--timeout", ""]), [])
    }

    /// A file name with spaces (and a glob character) is offered whole, one word, as bash offers it itself.
    func testBashOffersFileNamesWithSpacesWhole() throws {
        for name in ["my notes.txt", "a  b [c].json", "tab\there.html"] {
            try Data().write(to: scratch.appendingPathComponent(name))
        }
        XCTAssertEqual(try bash(["check", "--page", "my"]), ["my notes.txt"])
        XCTAssertEqual(try bash(["report", "merge", "a"]), ["a  b [c].json"])
        XCTAssertEqual(try bash(["check", "--pages", "ta"]), ["tab\there.html"])
        // Words that are not files still split as before.
        XCTAssertEqual(try bash(["check", "--format", "j"]), ["json", "junit"])
    }

    /// Every option each command's parser takes is offered after `--`, and nothing else: one source.
    func testBashOffersExactlyTheOptionsOfEveryCommand() throws {
        for command in Self.commands {
            let offered = Set(try bash(command + ["--"]))
            XCTAssertEqual(offered, try helpOptions(command).union(["--help"]), "webbridge \(command)")
        }
    }

    func testZshRunsTheScriptAndOffersTheSameWords() throws {
        let name = try script("zsh", as: "_webbridge")
        XCTAssertEqual(try ExternalTool.run(["zsh", "-n", name], currentDirectory: scratch).status, 0)
        // zsh's completion builtins exist only inside a completion; these print what the script hands them.
        let stubs = """
            compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
            _describe() { local name=${@[-1]}; print -rl -- "${(@)${(@P)name}%%:*}" }
            _files() { print -r -- "(files $*)" }
            fpath=($PWD $fpath); autoload -Uz _webbridge
            """
        func offered(_ line: [String]) throws -> [String] {
            let run = try ExternalTool.run(
                ["zsh", "-f", "-c", stubs + "\nwords=(\"$@\"); CURRENT=$#; _webbridge", "zsh", "webbridge"] + line,
                currentDirectory: scratch)
            XCTAssertEqual(run.stderr, "", "zsh printed errors")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try offered([""]), ["check", "contract", "doctor", "report", "xcode"])
        XCTAssertEqual(try offered(["check", "--format", ""]), ["text", "json", "junit", "html"])
        XCTAssertEqual(try offered(["xcode", ""]), ["pin", "preflight", "test", "rerun"])
        XCTAssertEqual(try offered(["check", "--page", ""]), ["(files )"])
        XCTAssertEqual(Set(try offered(["report", "-"])), try helpOptions(["report"]).union(["--help"]))
    }

    func testFishCompletesAsItsOwnCompleteCommandDoes() throws {
        let name = try script("fish", as: "webbridge.fish")
        func offered(_ line: String) throws -> [String] {
            let run = try ExternalTool.run(
                ["fish", "--no-config", "-c", "source \(name); complete -C '\(line)'"], currentDirectory: scratch)
            XCTAssertEqual(run.stderr, "", "fish printed errors")
            return run.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        }
        XCTAssertEqual(try offered("webbridge ch"), ["check"])
        XCTAssertEqual(try offered("webbridge check --fo"), ["--format"])
        XCTAssertEqual(try offered("webbridge check --format ").sorted(), ["html", "json", "junit", "text"])
        XCTAssertEqual(try offered("webbridge xcode p").sorted(), ["pin", "preflight"])
        XCTAssertEqual(try offered("webbridge report merge sh").sorted(), ["shard-1.json", "shard-2.json"])
        XCTAssertEqual(try offered("webbridge xcode pin --dev"), ["--device-type"])
    }

    func testAnUnknownShellIsAUsageError() throws {
        let result = try CLI.run(["--generate-completion-script", "ksh"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.hasPrefix("webbridge: --generate-completion-script must be bash, zsh or fish, not 'ksh'"),
            result.stderr)
    }

    /// The man page renders without a warning and lists every command's synopsis and options.
    func testTheManPageRendersWithoutWarningsAndListsEveryOption() throws {
        let page = try CLI.run(
            ["--generate-manual"], environment: ["SOURCE_DATE_EPOCH": "1764547200", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let file = scratch.appendingPathComponent("webbridge.1")
        try Data(page.stdout.utf8).write(to: file)
        let lint = try ExternalTool.run(["groff", "-man", "-Tutf8", "-ww", "-z", file.path])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stderr, "", "groff warned")
        let shown = try ExternalTool.run(
            ["man", "-l", file.path], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let text = shown.stdout
        XCTAssertTrue(text.contains("WEBBRIDGE(1)"), text)
        XCTAssertTrue(text.contains("2025-12-01"), "the date comes from SOURCE_DATE_EPOCH\n\(text)")
        for command in Self.commands {
            XCTAssertTrue(text.contains("webbridge \(command.joined(separator: " "))"), "\(command)")
            for option in try helpOptions(command) where option != "--help" {
                XCTAssertTrue(text.contains(option), "the man page lacks \(option) of \(command)")
            }
        }
        XCTAssertTrue(text.contains("EXIT STATUS"), text)
    }
}
