import BridgeContract
import BridgeTesting
import Foundation

/// A run's closing text for people: one page's verdict, or a suite's pages, categories and verdict. (Each
/// session's own text is `SessionReport.text(session:)`, printed as the sessions finish.)
package enum TextReport {
    /// How much of the run to close on.
    package struct Options: Sendable {
        /// The one page's own closing lines (`webbridge check` of a page, each page's block in a suite): its flaky
        /// explanation and its verdict line, not the suite's pages and categories.
        package var page: Bool
        /// Whether a flaky page's explanation comes before its verdict line (a partial summary is one line).
        package var explainsFlaky: Bool

        package init(page: Bool = false, explainsFlaky: Bool = true) {
            self.page = page
            self.explainsFlaky = explainsFlaky
        }
    }

    /// The most page names listed after a category in the suite's summary.
    static let listedPages = 10

    /// The run's closing text. Page names come from files and reports: each is printed through the one escape.
    package static func render(_ run: RunReport, _ options: Options = Options()) -> String {
        guard options.page else { return summary(run) }
        let tally = run.pages.first ?? BridgeReport()
        let flaky = options.explainsFlaky ? tally.flaky?.lines ?? [] : []
        return (flaky + [tally.summary]).joined(separator: "\n")
    }

    /// The suite's closing lines: pages passed and failed, each failed category with its pages, the verdict.
    static func summary(_ suite: RunReport) -> String {
        let count = suite.pages.count
        let pages = count == 1 ? "1 page" : "\(count) pages"
        var lines = ["pages: \(suite.passedPageCount) passed, \(suite.failedPages.count) failed (of \(count))"]
        for (category, names) in suite.failedByCategory {
            lines.append("  \(category.rawValue): \(listed(names))")
        }
        let flaky = suite.pages.filter { $0.outcome == .flaky }.map(\.page)
        if !flaky.isEmpty { lines.append("  of them flaky (failed and passed): \(listed(flaky))") }
        if !suite.notRun.isEmpty { lines.append("NOT RUN: \(listed(suite.notRun))") }
        if suite.pages.isEmpty, !suite.notRun.isEmpty {
            lines.append("no verdict: no page finished")
        } else if suite.pages.isEmpty {
            lines.append("PASS: no page to check (an empty shard of the list)")
        } else if suite.failedPages.isEmpty, !suite.notRun.isEmpty {
            // Pages that never ran have no verdict: the pages that did pass are not "every page".
            let listed = count + suite.notRun.count
            lines.append("no verdict: \(suite.notRun.count) of \(listed) pages did not run")
        } else if suite.failedPages.isEmpty {
            lines.append("PASS: both directions of the bridge hold on every page (\(pages))")
        } else {
            let categories = suite.failedByCategory.map(\.category.rawValue).joined(separator: "; ")
            lines.append("FAIL: \(categories) (\(suite.failedPages.count) of \(pages) failed)")
        }
        return lines.joined(separator: "\n")
    }

    /// `2 pages (a.html, b.html)`: the count, then the first names, escaped, and how many more.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(listedPages).map(TerminalText.escape).joined(separator: ", ")
        let more = names.count > listedPages ? ", and \(names.count - listedPages) more" : ""
        let counted = names.count == 1 ? "1 page" : "\(names.count) pages"
        return "\(counted) (\(shown)\(more))"
    }
}
