import BridgeContract
import Foundation

/// Renders check reports as one self-contained HTML file: a summary table, then each session's sequence diagram.
///
/// The file loads nothing (its Content-Security-Policy forbids it) and every text from a page is escaped.
package enum HTMLReport {
    /// One page's sessions in a report.
    package struct Page: Sendable {
        package let name: String
        package let tally: SessionTally

        package init(name: String, tally: SessionTally) {
            self.name = name
            self.tally = tally
        }

        package init(name: String, sessions: [SessionReport]) {
            self.init(name: name, tally: SessionTally(sessions))
        }
    }

    /// The policy in the report's `<meta>`: nothing but its own inline styles.
    package static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'"
    /// The most characters of a timeline note shown on an arrow; the failure box shows the detail in full.
    static let labelLimit = 160

    /// The report over one page's sessions.
    package static func render(page: String, _ reports: [SessionReport], notice: String? = nil) -> String {
        render([Page(name: page, sessions: reports)], notice: notice)
    }

    /// The report over one page's tally: every count, and the sessions it kept in full.
    package static func render(page: String, _ tally: SessionTally, notice: String? = nil) -> String {
        render([Page(name: page, tally: tally)], notice: notice)
    }

    /// The report over several pages, each with its sessions.
    package static func render(_ pages: [(page: String, sessions: [SessionReport])], notice: String? = nil) -> String {
        render(pages.map { Page(name: $0.page, sessions: $0.sessions) }, notice: notice)
    }

    /// The report over several pages: the summary table, then each page's sessions.
    ///
    /// - Parameter notice: a line shown above the table (such as why the run stopped early).
    package static func render(_ pages: [Page], title: String = "webbridge check", notice: String? = nil) -> String {
        let passed = pages.allSatisfy(\.tally.passed)
        var body: [String] = []
        body.append("<header><h1>\(escape(title))</h1>")
        body.append(
            "<p class=\"verdict \(passed ? "pass" : "fail")\" data-passed=\"\(passed)\">\(passed ? "PASS" : "FAIL")</p></header>"
        )
        body.append("<p class=\"tool\" data-version=\"\(WebBridgeVersion.number)\">\(WebBridgeVersion.tool)</p>")
        if let notice { body.append("<p class=\"notice\">\(escape(notice))</p>") }
        body.append(summaryTable(pages))
        // With more than one session, passing ones start folded so the failures stand out.
        let foldPassing = pages.reduce(0) { $0 + $1.tally.kept.count } > 1
        for (index, page) in pages.enumerated() {
            body.append(pageSection(page, number: index + 1, foldPassing: foldPassing))
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(WebBridgeVersion.tool)">
            <title>\(escape(title)) report</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            </body>
            </html>
            """
    }

    // MARK: Summary

    private static func summaryTable(_ pages: [Page]) -> String {
        let categories = FailureCategory.allCases
        var rows: [String] = []
        var header = "<tr><th>Page</th><th>Sessions</th><th>Passed</th><th>Failed</th>"
        for category in categories { header += "<th class=\"category\">\(escape(category.rawValue))</th>" }
        rows.append(header + "</tr>")
        for page in pages {
            let tally = page.tally
            var row =
                "<tr class=\"page-row\" data-page=\"\(escape(page.name))\"><td>\(escape(page.name))</td>"
                + "<td class=\"num\">\(tally.count)</td><td class=\"num\">\(tally.count - tally.failedCount)</td>"
                + "<td class=\"num\(tally.failedCount > 0 ? " bad" : "")\">\(tally.failedCount)</td>"
            for category in categories {
                row +=
                    "<td class=\"num\" data-category=\"\(escape(category.rawValue))\">\(count(category, in: tally))</td>"
            }
            rows.append(row + "</tr>")
        }
        if pages.count > 1 {
            let sessions = pages.reduce(0) { $0 + $1.tally.count }
            let failed = pages.reduce(0) { $0 + $1.tally.failedCount }
            let failedPages = pages.count(where: { !$0.tally.passed })
            rows.append(
                "<tr class=\"total\"><td>\(pages.count) pages, \(failedPages) failed</td><td class=\"num\">\(sessions)</td>"
                    + "<td class=\"num\">\(sessions - failed)</td><td class=\"num\">\(failed)</td>"
                    + "<td colspan=\"\(categories.count)\"></td></tr>")
        }
        return "<table class=\"summary\">\n\(rows.joined(separator: "\n"))\n</table>"
    }

    /// Failed sessions of `category`: exact when every failure was kept in full, else a lower bound.
    private static func count(_ category: FailureCategory, in tally: SessionTally) -> String {
        let kept = tally.kept.count(where: { $0.report.failures.contains { $0.category == category } })
        let keptFailed = tally.kept.count(where: { !$0.report.passed })
        if keptFailed < tally.failedCount, tally.failedCategories.contains(category) {
            return "≥ \(max(kept, 1))"
        }
        return kept == 0 ? "" : "\(kept)"
    }

    // MARK: Pages and sessions

    private static func pageSection(_ page: Page, number: Int, foldPassing: Bool) -> String {
        let tally = page.tally
        var parts = [
            "<section class=\"page\" data-page=\"\(escape(page.name))\" data-passed=\"\(tally.passed)\">",
            "<h2>\(escape(page.name))</h2>",
            "<p class=\"page-summary\">\(escape(ReportRendering.summary(tally)))</p>",
        ]
        for kept in tally.kept {
            parts.append(sessionSection(kept.report, number: kept.session, folded: foldPassing && kept.report.passed))
        }
        if tally.omitted > 0 {
            parts.append(
                "<p class=\"omitted\">\(tally.omitted) further sessions are counted above, not shown in full.</p>")
        }
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    private static func sessionSection(_ report: SessionReport, number: Int, folded: Bool) -> String {
        var parts = [
            "<details class=\"session\" data-session=\"\(number)\" data-passed=\"\(report.passed)\"\(folded ? "" : " open")>",
            "<summary>session \(number) <span class=\"badge \(report.passed ? "pass" : "fail")\">\(report.passed ? "PASS" : "FAIL")</span></summary>",
            diagram(report),
            "<table class=\"verdicts\">",
        ]
        for (name, verdict) in [
            ("load", report.load), ("page → native", report.pageToNative), ("native → page", report.nativeToPage),
        ] {
            let status = verdict.status.rawValue
            let detail = verdict.failure?.description ?? verdict.note
            parts.append(
                "<tr><th>\(name)</th><td class=\"status \(status == "not run" ? "not-run" : status)\">\(status.uppercased())</td>"
                    + "<td>\(escape(TerminalText.line(ReportRendering.collapsingRepeats(detail))))</td></tr>")
        }
        parts.append("</table>")
        if report.pageToNative.status == .pass, !report.extraMessages.isEmpty {
            parts.append("<ul class=\"also-seen\">")
            for group in ReportRendering.groupedAnywhere(report.extraMessages) {
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

    // MARK: The sequence diagram

    /// Where a timeline event goes: an arrow from one lane to the other, or a mark on the page lane.
    enum Placement: Equatable {
        case arrow(from: Lane)
        case mark
    }

    enum Lane: String {
        case page, native
    }

    static func placement(of event: TimelineEntry.Event) -> Placement {
        switch event {
        case .readyReceived, .messageReceived, .messageRejected, .messageDropped, .acknowledged:
            .arrow(from: .page)
        case .sent, .syncSent, .replied:
            .arrow(from: .native)
        case .loadStarted, .httpResponse, .didFinish, .loadFailed, .navigated, .processTerminated, .dialog,
            .pageReported,
            .accepted, .notAccepted:
            .mark
        }
    }

    /// Which verdict a failed step belongs to, in the report's order: the load, then each direction.
    enum Direction: String {
        case load
        case pageToNative = "page-to-native"
        case nativeToPage = "native-to-page"
    }

    /// The timeline entry each failed verdict points at, or nil when what failed never happened (a missing message).
    static func failingSteps(_ report: SessionReport) -> [(direction: Direction, failure: BridgeFailure, index: Int?)] {
        let timeline = report.timeline
        func first(_ events: Set<TimelineEntry.Event>) -> Int? {
            timeline.firstIndex { events.contains($0.event) }
        }
        var steps: [(Direction, BridgeFailure, Int?)] = []
        if let failure = report.load.failure {
            steps.append((.load, failure, first([.loadFailed]) ?? first([.processTerminated, .navigated])))
        }
        if let failure = report.pageToNative.failure {
            steps.append((.pageToNative, failure, first([.messageRejected, .messageDropped])))
        }
        if let failure = report.nativeToPage.failure {
            steps.append((.nativeToPage, failure, first([.notAccepted])))
        }
        return steps
    }

    private static func diagram(_ report: SessionReport) -> String {
        let failing = failingSteps(report)
        var rows = [
            "<div class=\"diagram\">",
            "<div class=\"heads\"><span class=\"head page\">page</span><span class=\"head native\">native</span></div>",
        ]
        for (index, entry) in report.timeline.enumerated() {
            let failures = failing.filter { $0.index == index }
            rows.append(step(entry, index: index, failing: failures.first?.failure))
            rows.append(contentsOf: failures.map { failureBox($0.direction, $0.failure) })
        }
        // What failed without a step of its own (a message that never arrived, a load that never finished).
        for missing in failing where missing.index == nil {
            rows.append(missingStep(missing.direction, missing.failure))
            rows.append(failureBox(missing.direction, missing.failure))
        }
        if report.timeline.isEmpty, failing.isEmpty {
            rows.append("<p class=\"empty\">no events recorded</p>")
        }
        rows.append("</div>")
        return rows.joined(separator: "\n")
    }

    private static func step(_ entry: TimelineEntry, index: Int, failing: BridgeFailure?) -> String {
        let time = "<span class=\"time\">\(String(format: "%.1f", entry.milliseconds)) ms</span>"
        let note =
            entry.note.isEmpty
            ? "" : " <span class=\"note\">\(escape(TerminalText.line(entry.note, limit: labelLimit)))</span>"
        let label = "<span class=\"label\"><b>\(escape(entry.event.rawValue))</b>\(note)</span>"
        var classes = ["step"]
        var attributes = "data-event=\"\(escape(entry.event.rawValue))\" data-index=\"\(index)\""
        if let failing {
            classes.append("failing")
            attributes += " data-failure=\"\(escape(failing.category.rawValue))\""
        }
        switch placement(of: entry.event) {
        case .arrow(let from):
            classes.append("arrow")
            return "<div class=\"\(classes.joined(separator: " "))\" data-from=\"\(from.rawValue)\" \(attributes)>"
                + "\(time)\(label)<span class=\"line from-\(from.rawValue)\"></span></div>"
        case .mark:
            classes.append("mark")
            let kind =
                switch entry.event {
                case .accepted: " ok"
                case .notAccepted, .loadFailed, .processTerminated, .messageRejected: " bad"
                default: ""
                }
            return "<div class=\"\(classes.joined(separator: " "))\" data-lane=\"page\" \(attributes)>"
                + "\(time)<span class=\"dot\(kind)\"></span>\(label)</div>"
        }
    }

    private static func missingStep(_ direction: Direction, _ failure: BridgeFailure) -> String {
        let text: String
        let shape: String
        switch direction {
        case .load:
            text = "didFinish never came"
            shape = "<span class=\"dot bad\"></span>"
        case .pageToNative:
            text = "the expected message never arrived"
            shape = "<span class=\"line from-page\"></span>"
        case .nativeToPage:
            text = "native's message was not accepted"
            shape = "<span class=\"line from-native\"></span>"
        }
        let lane = direction == .load ? "mark" : "arrow"
        return
            "<div class=\"step missing failing \(lane)-like\" data-event=\"missing\" data-direction=\"\(direction.rawValue)\""
            + " data-failure=\"\(escape(failure.category.rawValue))\"><span class=\"time\">—</span>"
            + (direction == .load ? shape : "") + "<span class=\"label\"><b>\(text)</b></span>"
            + (direction == .load ? "" : shape) + "</div>"
    }

    private static func failureBox(_ direction: Direction, _ failure: BridgeFailure) -> String {
        let detail = ReportRendering.collapsingRepeats(failure.detail)
        return
            "<div class=\"failure\" data-category=\"\(escape(failure.category.rawValue))\" data-direction=\"\(direction.rawValue)\">"
            + "<span class=\"category\">\(escape(failure.category.rawValue))</span>"
            + "<span class=\"remedy\">\(escape(TerminalText.line(detail)))</span></div>"
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

    // Lanes sit at fixed offsets (--page from the left, --native from the right); every row spans between them.
    private static let style = """
        :root{--page:150px;--native:70px;--ink:#1d2733;--muted:#5b6876;--bad:#c0392b;--ok:#1e8449;--lane:#9aa7b4}
        *{box-sizing:border-box}
        body{margin:24px;min-width:680px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff;max-width:1100px}
        h1{font-size:20px;margin:0 12px 0 0;display:inline-block}
        header{margin-bottom:12px}
        .verdict{display:inline-block;margin:0;padding:2px 10px;border-radius:4px;font-weight:700;color:#fff}
        .verdict.pass,.badge.pass{background:var(--ok)}.verdict.fail,.badge.fail{background:var(--bad)}
        .badge{font-size:11px;color:#fff;padding:1px 6px;border-radius:3px;vertical-align:middle}
        .notice{background:#fff4d6;border:1px solid #e0b84c;padding:6px 10px}
        table{border-collapse:collapse}
        .summary{margin:8px 0 20px;font-size:13px}
        .summary th,.summary td{border:1px solid #d5dbe1;padding:4px 8px;text-align:left;vertical-align:top}
        .summary th{background:#f1f4f7}.summary th.category{max-width:150px;font-weight:600}
        .num{text-align:right!important;font-variant-numeric:tabular-nums}.bad{color:var(--bad);font-weight:700}
        .total td{font-weight:600;background:#f7f9fb}
        h2{font-size:17px;border-bottom:2px solid #d5dbe1;padding-bottom:4px;margin-top:28px;overflow-wrap:anywhere}
        summary{font-size:15px;font-weight:700;margin:18px 0 6px;cursor:pointer}
        .page-summary{color:var(--muted);margin:4px 0 8px;overflow-wrap:anywhere}
        .diagram{position:relative;padding:36px 0 10px;border:1px solid #e3e8ed;border-radius:6px;background:#fbfcfd}
        .diagram::before,.diagram::after{content:"";position:absolute;top:30px;bottom:0;width:2px;background:var(--lane)}
        .diagram::before{left:calc(var(--page) - 1px)}.diagram::after{right:calc(var(--native) - 1px)}
        .heads .head{position:absolute;top:6px;width:84px;text-align:center;font-weight:700;font-size:12px;border:2px solid var(--lane);border-radius:4px;background:#fff;padding:1px 0}
        .heads .page{left:calc(var(--page) - 42px)}.heads .native{right:calc(var(--native) - 42px)}
        .step{position:relative;min-height:30px;padding:3px 0}
        .time{position:absolute;left:0;top:6px;width:calc(var(--page) - 70px);text-align:right;font-size:11px;color:var(--muted);font-variant-numeric:tabular-nums}
        .label{display:block;font-size:12px;overflow-wrap:anywhere;position:relative}
        .label b{font-weight:600}.note{color:var(--muted);font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11px}
        .arrow .label,.arrow-like .label{margin:0 calc(var(--native) + 16px) 0 calc(var(--page) + 16px);text-align:center}
        .line{display:block;position:relative;height:2px;background:var(--ink);margin:3px var(--native) 2px var(--page)}
        .line::after{content:"";position:absolute;top:-5px;border-top:6px solid transparent;border-bottom:6px solid transparent}
        .line.from-page::after{right:0;border-left:10px solid var(--ink)}
        .line.from-native::after{left:0;border-right:10px solid var(--ink)}
        .mark .label,.mark-like .label{margin:0 calc(var(--native) + 16px) 0 calc(var(--page) + 14px);color:var(--muted)}
        .mark .label b,.mark-like .label b{color:var(--ink);font-weight:500}
        .dot{position:absolute;left:calc(var(--page) - 6px);top:8px;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid var(--lane)}
        .dot.ok{border-color:var(--ok);background:var(--ok)}.dot.bad{border-color:var(--bad);background:var(--bad)}
        .failing .label b{color:var(--bad)}
        .failing .line{background:var(--bad)}.failing .line.from-page::after{border-left-color:var(--bad)}
        .failing .line.from-native::after{border-right-color:var(--bad)}
        .missing .line{background:repeating-linear-gradient(90deg,var(--bad) 0 6px,transparent 6px 11px)}
        .failing{background:#fdecea}
        .failure{margin:2px var(--native) 8px var(--page);padding:6px 10px;border-left:4px solid var(--bad);background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.15);position:relative;font-size:12px}
        .failure .category{display:block;font-weight:700;color:var(--bad);text-transform:uppercase;letter-spacing:.02em;font-size:11px}
        .failure .remedy{display:block;overflow-wrap:anywhere;white-space:pre-wrap}
        .verdicts{margin:8px 0;font-size:12px}
        .verdicts th{text-align:left;padding:2px 12px 2px 0;white-space:nowrap;font-weight:600;vertical-align:top}
        .verdicts td{padding:2px 10px 2px 0;vertical-align:top;overflow-wrap:anywhere}
        .status{font-weight:700;white-space:nowrap}.status.pass{color:var(--ok)}.status.fail{color:var(--bad)}.status.not-run{color:var(--muted)}
        .also-seen,.omitted,.empty{color:var(--muted);font-size:12px}
        """
}

extension ReportRendering {
    /// One page's tally as a self-contained HTML report (see `HTMLReport`).
    package static func html(page: String, _ tally: SessionTally, notice: String? = nil) -> String {
        HTMLReport.render(page: page, tally, notice: notice)
    }

    /// Several pages' sessions as one self-contained HTML report (see `HTMLReport`).
    package static func html(_ pages: [(page: String, sessions: [SessionReport])]) -> String {
        HTMLReport.render(pages)
    }
}
