import BridgeContract
import CommandLineOptions
import Foundation

/// Every command and its option table, as one tree: the shell completions and the man page are generated from it,
/// so they list exactly what the parsers take.
enum Manual {
    /// Each subcommand's one-line summary, in the order `webbridge --help` lists them.
    static let summaries: KeyValuePairs<String, String> = [
        "check": "Run both directions of the bridge on the real WebKit engine.",
        "contract": "Print, lock, diff or export the bridge contract.",
        "doctor": "Check WebKitGTK, Xvfb, the display and the test styles before `swift test`.",
        "report": "Merge the JSON reports of shards or runs into one JSON, JUnit or HTML report.",
        "xcode": "Pin, preflight and run the bridge tests on a cloud Mac.",
    ]

    static let tables: [String: OptionTable] = [
        "check": CheckCommand.options, "contract": ContractCommand.options, "doctor": DoctorCommand.options,
        "report": ReportCommand.options, "xcode": XcodeCommand.subcommands,
    ]

    static var tree: CommandTree {
        let xcode = XcodeCommand.entries.map { entry in
            let sentence = entry.about.replacingOccurrences(of: "\n", with: " ").split(separator: ".").first ?? ""
            return CommandTree(entry.name, sentence + ".", table: entry.options)
        }
        return CommandTree(
            "webbridge", "test the message bridge between a web page and native code as a contract", table: options,
            children: summaries.map { name, summary in
                CommandTree(name, summary, table: tables[name]!, children: name == "xcode" ? xcode : [])
            })
    }

    /// The SUBCOMMANDS block of `webbridge --help`.
    static var subcommandList: String {
        summaries.map { "  \($0.key.padding(toLength: 10, withPad: " ", startingAt: 0))  \($0.value)" }
            .joined(separator: "\n")
    }

    /// `webbridge --generate-manual`: the man page, dated from `SOURCE_DATE_EPOCH` when set (reproducible builds).
    static var page: String {
        let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.string(from: epoch.map { Date(timeIntervalSince1970: $0) } ?? Date())
        return ManPage.render(
            tree, about: description, version: WebBridgeVersion.tool, date: date,
            sections: [
                ("Exit status", exitCodes),
                (
                    "See also",
                    "README.md and Docs/ in the WebBridge package: Docs/CONTRACT.md (the contract), Docs/REPORT.md "
                        + "(the reports), Docs/CI.md (CI)."
                ),
            ])
    }
}
