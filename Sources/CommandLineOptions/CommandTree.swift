/// A command and its subcommands, each with its option table: what shell completions and the man page are
/// generated from, so they never list an option the parser does not take (or miss one it does).
public struct CommandTree: Sendable {
    /// The word typed for it (`check`); the root's is the program's name.
    public let name: String
    /// One line: what it does.
    public let summary: String
    public let table: OptionTable
    public let children: [CommandTree]

    public init(_ name: String, _ summary: String, table: OptionTable, children: [CommandTree] = []) {
        self.name = name
        self.summary = summary
        self.table = table
        self.children = children
    }

    /// Every command under this one (itself first) with the words typed after the program's name to reach it.
    public var all: [(path: [String], command: CommandTree)] {
        func walk(_ node: CommandTree, _ path: [String]) -> [(path: [String], command: CommandTree)] {
            [(path, node)] + node.children.flatMap { walk($0, path + [$0.name]) }
        }
        return walk(self, [])
    }

    /// The words that may come next without a dash: subcommands, or the first argument's choices.
    var words: [String] { children.isEmpty ? choices : children.map(\.name) }

    /// The first argument's words when it is not a subcommand of the tree (`contract print|lock|diff|js`).
    var choices: [String] { children.isEmpty ? table.positionals.first?.choices ?? [] : [] }

    /// Whether an argument is a path (a positional without choices, such as `FILE...`).
    var takesPaths: Bool { table.positionals.contains { $0.choices.isEmpty } }

    /// Every option, `--help` included, as completions offer them.
    var optionNames: [String] { table.options.map(\.name) + ["--help"] }
}

/// What a shell offers after an option that takes a value.
enum ValueCompletion: Equatable {
    /// Nothing to offer: a number, a name, free text.
    case none
    case files
    case directories
    case words([String])
}

extension Option {
    /// The value's completion, from its rule (choices) or its placeholder (`FILE`, `DIR`, `PATH`, `LIST`).
    var valueCompletion: ValueCompletion {
        guard let argument else { return .none }
        switch rule {
        case .choice(let words), .list(let words): return .words(words)
        default: break
        }
        if argument == "DIR" { return .directories }
        let pathWords = ["FILE", "DIR", "PATH", "LIST", "MANIFEST", "SCRIPT"]
        return argument != "KIND=FILE" && pathWords.contains(where: argument.contains) ? .files : .none
    }

    /// The summary's first clause, for a shell's one-line description.
    var shortSummary: String {
        let first = summary.split(separator: ";", maxSplits: 1).first.map(String.init) ?? summary
        let clause = first.count < 30 ? summary : first
        return clause.count > 70 ? String(clause.prefix(69)) + "…" : clause
    }
}
