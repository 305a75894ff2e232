import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

/// `webbridge report merge FILE...`: the JSON reports of a `--shard` matrix (or of several runs) as one report, in
/// any format `check` writes, drawn by the same renderers from the decoded reports.
enum ReportCommand {
    static let options = OptionTable(
        command: "webbridge report",
        positionals: [
            Positional("subcommand", "<merge>", choices: ["merge"]),
            Positional("report file", "FILE", variadic: true),
        ],
        options: [
            .value(
                "--format", "FORMAT",
                "the merged report on stdout: text (the summary), json (schema 1, as check writes it), junit or html",
                rule: .choice(CheckOptions.Format.allCases.map(\.rawValue)), default: .value("text")),
            .value(
                "--report", "KIND=FILE",
                "also write the merged report to FILE: KIND junit, html or json (repeat for several). An existing "
                    + "file is overwritten; a symbolic link, a folder, one of the FILEs merged, or a folder that "
                    + "does not exist is refused before anything is read (exit 2)",
                rule: .pattern(rule: ReportTarget.rule) { ReportTarget($0) != nil }, repeatable: true),
            Output.colourOption,
        ])

    static let usage = options.help(
        """
        Merges JSON reports (`check --format json` or `--report json=FILE`) into one report, as one run
        over every page would have written it.

        SUBCOMMANDS:
          merge   The shards of one `--shard I/N` matrix, put back in list order (a missing shard is named
                  on stderr and in the report, and fails the merge), or runs of whole lists, concatenated
                  (a page checked in several runs keeps all of its sessions).

        Refused, naming the file, the field, the rule and the remedy: a file that can't be read, is not
        JSON or not a webbridge report, another schema than 1, another contract or contract version
        than the first file's, the same shard twice, shards of another split, or a shard beside a
        whole list.
        """,
        epilogue: """
            EXIT CODES:
              0 every merged page passed, 1 a page broke the contract or a shard of the split is missing,
              2 usage (also: a FILE that is missing, unreadable or refused), 3 a report that can't be
              written, 4 every failure was a page that could not be fetched.
            """)

    @MainActor
    static func run(_ argv: ArraySlice<String>) async -> ExitStatus {
        let parsed: ParsedOptions
        switch options.read(argv, help: usage) {
        case .exit(let status): return status
        case .options(let options): parsed = options
        }
        let files = Array(parsed.positionals.dropFirst())
        guard !files.isEmpty else {
            return options.usageError(
                CommandError("merge needs the JSON reports to merge: webbridge report merge FILE..."))
        }
        let format = CheckOptions.Format(rawValue: parsed.value("--format")!)!
        Output.chooseColour(parsed.value("--color"))
        let targets = parsed.values("--report").compactMap(ReportTarget.init)
        do {
            try ReportTarget.validate(targets)
            try ReportTarget.refuseInputs(targets, files.map { ("merge", $0) })
        } catch {
            return options.usageError(error)
        }
        let merged: RunReport
        do {
            merged = try RunReport.merged(files.map { (TerminalText.escape($0), try RunReport.load($0)) })
        } catch {
            printError("webbridge report merge: \(TerminalText.escapeLines("\(error)"))")
            return .usage
        }
        var notice: String?
        let missing = missingShards(merged)
        if let missing {
            notice = "INCOMPLETE: \(missing)"
            printError("webbridge report merge: \(missing)")
        }
        if merged.interrupted {
            notice = [notice, "INTERRUPTED: a merged run was stopped by a signal; it holds the pages that finished"]
                .compactMap { $0 }.joined(separator: "; ")
        }
        if format == .text { Output.out(header(merged, files: files.count)) }
        let document = merged.document(format, notice: notice)
        if format == .text { Output.report(document) } else { Output.out(document) }
        // The verdict is the last line: a merge that lacks a shard is never a pass, whatever its pages say.
        if format == .text, let missing { Output.out("INCOMPLETE: \(missing); no verdict") }
        guard ReportTarget.writeAll(targets, command: "webbridge report merge", { merged.document($0, notice: notice) })
        else { return .environment }
        let status = CheckCommand.exitStatus(merged)
        return missing != nil && status == .pass ? .contractFailure : status
    }

    /// The most missing shards named one by one; the rest are counted.
    static let namedShards = 10

    /// `shard 2 of 3 missing: …` when the merged shards of a split do not cover it; nil when they do or none is a
    /// shard.
    static func missingShards(_ report: RunReport) -> String? {
        let missing = report.missingShards
        guard let count = missing.first?.count else { return nil }
        if missing.count == 1 { return "shard \(missing[0].ofCount) missing: its pages are not in this report" }
        let named = missing.prefix(namedShards).map { String($0.index) }.joined(separator: ", ")
        let more = missing.count > namedShards ? " and \(missing.count - namedShards) more" : ""
        return "shards \(named)\(more) of \(count) missing: their pages are not in this report"
    }

    private static func header(_ report: RunReport, files: Int) -> String {
        let shards = report.shards.isEmpty ? "" : ", shards \(report.shards.map(\.description).joined(separator: ", "))"
        return
            "webbridge report merge: \(files == 1 ? "1 report" : "\(files) reports")\(shards), contract \(TerminalText.escape(report.contract.description)), \(WebBridgeVersion.tool)"
    }
}
