import BridgeContract
import BridgeTesting
import Foundation

/// Renders check reports as one self-contained HTML file: a summary table, then each session's sequence diagram.
///
/// The file loads nothing (its Content-Security-Policy forbids it) and every text from a page is escaped.
package enum HTMLReport {
    /// The policy in the report's `<meta>`: nothing but its own inline styles.
    package static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'"
    /// The most characters of a timeline note shown on an arrow; the failure box shows the detail in full.
    static let labelLimit = 160

    /// What the run was: the report's title and the header's metadata (the tool's version is always there).
    struct Header {
        /// The page's name, or the suite's ("3 pages"): the title and the first heading.
        var title: String
        var contractName: String
        var contractVersion: Int
        /// Each step's timeout, in seconds.
        var timeout: Double
        /// The engine that ran the check (`EngineEnvironment.engineVersion`); nil when the report names none.
        var engine: String?
        var date: Date

        /// The run's metadata, titled `title` or "N pages" (with the shards a split report holds).
        init(_ run: RunReport, title: String?) {
            let count = run.pages.count + run.notRun.count
            let shards = run.shards.map(\.description).joined(separator: ", ")
            let shardNote = run.shards.isEmpty ? "" : ", \(run.shards.count == 1 ? "shard" : "shards") \(shards)"
            self.title = title ?? (count == 1 ? "1 page" : "\(count) pages") + shardNote
            contractName = run.contract.name
            contractVersion = run.contract.version
            timeout = run.timeout
            engine = run.engine.isEmpty ? nil : run.engine
            date = run.startedAt
        }
    }

    /// How the report reads beyond what the run holds.
    package struct Options: Sendable {
        /// The title and first heading; nil: the run's ("3 pages", with the shards a split report holds).
        package var title: String?
        /// A line shown above the table (such as why the run stopped early, or a missing shard).
        package var notice: String?

        package init(title: String? = nil, notice: String? = nil) {
            self.title = title
            self.notice = notice
        }
    }

    /// The report over a run: the header (its start, tool, contract, timeout, engine), the summary table (failed
    /// pages first, each row linking to its page's first failure), the pages that never ran, then each page's
    /// sessions, failed pages first.
    package static func render(_ run: RunReport, _ options: Options = Options()) -> String {
        let pages = run.pages
        let notRun = run.notRun
        let notice = options.notice
        let header = Header(run, title: options.title)
        let passed = pages.allSatisfy(\.passed)
        // Failed pages first, each keeping its number in the list (its anchor).
        let ordered = pages.enumerated().map { (number: $0.offset + 1, page: $0.element) }
            .sorted { ($0.page.passed ? 1 : 0, $0.number) < ($1.page.passed ? 1 : 0, $1.number) }
        var body: [String] = []
        body.append("<header><h1>\(escape(header.title))</h1>")
        // A page with no finished session (a run stopped before its first ended) has no verdict to show.
        let (verdict, word) =
            pages.contains { $0.sessionCount == 0 } && passed
            ? ("none", "NO VERDICT") : passed ? ("pass", "PASS") : ("fail", "FAIL")
        body.append(
            "<p class=\"verdict \(verdict)\" data-passed=\"\(passed && verdict != "none")\">\(word)</p></header>"
        )
        body.append(metadata(header))
        if let notice { body.append("<p class=\"notice\">\(escape(notice))</p>") }
        body.append(summaryTable(ordered))
        if !notRun.isEmpty {
            let items = notRun.map { "<li data-page=\"\(escape($0))\">\(escape($0))</li>" }.joined()
            body.append(
                "<section class=\"not-run\"><h2>Not run (\(notRun.count))</h2><p>The run was interrupted before these pages.</p><ul>\(items)</ul></section>"
            )
        }
        // With more than one session, passing ones start folded so the failures stand out.
        let foldPassing = pages.reduce(0) { $0 + $1.kept.count } > 1
        for (number, page) in ordered {
            body.append(pageSection(page, number: number, foldPassing: foldPassing))
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(WebBridgeVersion.tool)">
            <title>\(escape(header.title)) — webbridge check report</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            </body>
            </html>
            """
    }

    // MARK: Summary

    /// The header's facts: when, which tool, contract, timeout and engine.
    private static func metadata(_ header: Header) -> String {
        var facts: [(key: String, value: String)] = [
            ("date", ISO8601DateFormatter().string(from: header.date))
        ]
        facts.append(("tool", WebBridgeVersion.tool))
        facts.append(("contract", "'\(header.contractName)' v\(header.contractVersion)"))
        facts.append(("timeout", "\(String(format: "%g", header.timeout)) s"))
        if let engine = header.engine { facts.append(("engine", engine)) }
        let items = facts.map { fact in
            let version = fact.key == "tool" ? " data-version=\"\(WebBridgeVersion.number)\"" : ""
            return "<dt>\(fact.key)</dt><dd data-meta=\"\(fact.key)\"\(version)>\(escape(fact.value))</dd>"
        }
        return "<dl class=\"meta\">\(items.joined())</dl>"
    }

    /// The anchor of page `number`'s section, or of one of its sessions.
    static func anchor(page number: Int, session: Int? = nil) -> String {
        "page-\(number)" + (session.map { "-session-\($0)" } ?? "")
    }

    private static func summaryTable(_ pages: [(number: Int, page: BridgeReport)]) -> String {
        let categories = FailureCategory.allCases
        var rows: [String] = []
        var header = "<tr><th>Page</th><th>Sessions</th><th>Passed</th><th>Failed</th>"
        for category in categories { header += "<th class=\"category\">\(escape(category.rawValue))</th>" }
        rows.append(header + "</tr>")
        for (number, page) in pages {
            let tally = page
            // A failed page's row leads to its first failure's diagram, a passing one's to its section.
            let firstFailure = tally.kept.first { !$0.report.passed }?.session
            let target = anchor(page: number, session: firstFailure)
            var row =
                "<tr class=\"page-row\" data-page=\"\(escape(page.page))\" data-outcome=\"\(tally.outcome.rawValue)\"><td><a href=\"#\(target)\">\(escape(page.page))</a></td>"
                + "<td class=\"num\">\(tally.sessionCount)</td><td class=\"num\">\(tally.sessionCount - tally.failedCount)</td>"
                + "<td class=\"num\(tally.failedCount > 0 ? " bad" : "")\">\(tally.failedCount)</td>"
            for category in categories {
                row +=
                    "<td class=\"num\" data-category=\"\(escape(category.rawValue))\">\(count(category, in: tally))</td>"
            }
            rows.append(row + "</tr>")
        }
        if pages.count > 1 {
            let sessions = pages.reduce(0) { $0 + $1.page.sessionCount }
            let failed = pages.reduce(0) { $0 + $1.page.failedCount }
            let failedPages = pages.count(where: { !$0.page.passed })
            rows.append(
                "<tr class=\"total\"><td>\(pages.count) pages, \(failedPages) failed</td><td class=\"num\">\(sessions)</td>"
                    + "<td class=\"num\">\(sessions - failed)</td><td class=\"num\">\(failed)</td>"
                    + "<td colspan=\"\(categories.count)\"></td></tr>")
        }
        return "<table class=\"summary\">\n\(rows.joined(separator: "\n"))\n</table>"
    }

    /// Failed sessions of `category`: exact when every failure was kept in full, else a lower bound.
    private static func count(_ category: FailureCategory, in tally: BridgeReport) -> String {
        let kept = tally.kept.count(where: { $0.report.failures.contains { $0.category == category } })
        let keptFailed = tally.kept.count(where: { !$0.report.passed })
        if keptFailed < tally.failedCount, tally.failedCategories.contains(category) {
            return "≥ \(max(kept, 1))"
        }
        return kept == 0 ? "" : "\(kept)"
    }

    // MARK: Pages and sessions

    private static func pageSection(_ page: BridgeReport, number: Int, foldPassing: Bool) -> String {
        let tally = page
        var parts = [
            "<section class=\"page\" id=\"\(anchor(page: number))\" data-page=\"\(escape(page.page))\" data-passed=\"\(tally.passed)\" data-outcome=\"\(tally.outcome.rawValue)\">",
            "<h2>\(escape(page.page))</h2>",
            "<p class=\"page-summary\">\(escape(tally.summary))</p>",
        ]
        // A flaky page says why each failing session failed: its order of events against the passing ones.
        if let flaky = tally.flaky {
            parts.append("<ul class=\"flaky\">")
            for explanation in flaky.explanations {
                parts.append(
                    "<li data-session=\"\(explanation.session)\"><a href=\"#\(anchor(page: number, session: explanation.session))\">session \(explanation.session)</a>: "
                        + "\(escape(TerminalText.line(explanation.order)))"
                        + (explanation.replay.map { "<br><code>--replay \(escape($0))</code>" } ?? "") + "</li>")
            }
            parts.append("</ul>")
        }
        for group in sessionGroups(tally.kept) {
            parts.append(
                sessionSection(
                    group.report, numbers: group.numbers, page: number, folded: foldPassing && group.report.passed))
        }
        if tally.omitted > 0 {
            parts.append(
                "<p class=\"omitted\">\(tally.omitted) further sessions are counted above, not shown in full.</p>")
        }
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    /// Kept sessions that tell the same story (the same events, notes and verdicts; only the times differ), each
    /// drawn once with the sessions it stands for: failed ones first, then in order.
    static func sessionGroups(_ kept: [BridgeReport.Kept]) -> [(report: SessionReport, numbers: [Int])] {
        var groups: [(key: String, report: SessionReport, numbers: [Int])] = []
        for session in kept {
            let report = session.report
            let key =
                (report.timeline.map { "\($0.event.rawValue)\u{1F}\($0.note)" }
                + [report.load, report.pageToNative, report.nativeToPage].map {
                    "\($0.statusText)\u{1F}\($0.failure?.description ?? $0.note)"
                } + report.extraMessages).joined(separator: "\u{1E}")
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].numbers.append(session.session)
            } else {
                groups.append((key, report, [session.session]))
            }
        }
        let failedFirst = groups.filter { !$0.report.passed } + groups.filter(\.report.passed)
        return failedFirst.map { ($0.report, $0.numbers) }
    }

    private static func sessionSection(_ report: SessionReport, numbers: [Int], page: Int, folded: Bool) -> String {
        let number = numbers[0]
        let shown = numbers.prefix(10).map(String.init).joined(separator: ", ") + (numbers.count > 10 ? ", …" : "")
        let title = numbers.count == 1 ? "session \(number)" : "sessions \(shown) (\(numbers.count) identical)"
        var parts = [
            "<details class=\"session\" id=\"\(anchor(page: page, session: number))\" data-session=\"\(number)\" data-count=\"\(numbers.count)\" data-passed=\"\(report.passed)\"\(folded ? "" : " open")>",
            "<summary>\(title) <span class=\"badge \(report.passed ? "pass" : "fail")\">\(report.passed ? "PASS" : "FAIL")</span></summary>",
            diagram(report),
            "<table class=\"verdicts\">",
        ]
        for (name, verdict) in [
            ("load", report.load), ("page → native", report.pageToNative), ("native → page", report.nativeToPage),
        ] {
            let status = verdict.statusText
            let detail = verdict.failure?.description ?? verdict.note
            parts.append(
                "<tr><th>\(name)</th><td class=\"status \(verdict.statusIdentifier)\">\(status.uppercased())</td>"
                    + "<td>\(escape(TerminalText.line(SessionText.collapsingRepeats(detail))))</td></tr>")
        }
        parts.append("</table>")
        if report.pageToNative.passed, !report.extraMessages.isEmpty {
            parts.append("<ul class=\"also-seen\">")
            for group in SessionText.groupedAnywhere(report.extraMessages) {
                let times = group.count > 1 ? " × \(group.count)" : ""
                parts.append(
                    "<li>also seen: \(escape(TerminalText.line(group.value, limit: TerminalText.noteLimit)))\(times)</li>"
                )
            }
            parts.append("</ul>")
        }
        parts.append("</details>")
        return parts.joined(separator: "\n")
    }

    // MARK: Text

    /// `text` safe inside HTML text and double- or single-quoted attributes, control characters made visible.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in TerminalText.escape(text).unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}

extension FailureCategory {
    /// Which side must change for the check to pass, in words: the check runs the real page against native's
    /// side as the contract plays it, so what it finds broken is the page or where it is served.
    package var owner: (side: String, words: String) {
        switch self {
        case .nativeDidNotReceive:
            ("page", "Owner: the web page. The native app did not get the message the contract says the page sends.")
        case .pageDidNotAccept:
            ("page", "Owner: the web page. It did not take the native app's message as the contract says it must.")
        case .pageLoadDidNotFinish:
            ("page", "Owner: the web page. It did not finish loading, so the native app never got to talk to it.")
        case .pageUnreachable:
            ("server", "Owner: the web page's server. The page could not be fetched; the native app is not involved.")
        }
    }
}
