import BridgeContract
import Foundation

/// One page of a suite: its name as the report shows it, and its sessions.
package struct PageTally: Sendable {
    package let name: String
    package let tally: SessionTally

    package init(name: String, tally: SessionTally) {
        self.name = name
        self.tally = tally
    }
}

/// The pages of a suite, counted: which passed, and which failed in each category.
package struct SuiteTally: Sendable {
    package let pages: [PageTally]
    /// Pages of the list that never ran (a signal stopped the suite first), in list order.
    package let notRun: [String]

    package init(_ pages: [PageTally], notRun: [String] = []) {
        self.pages = pages
        self.notRun = notRun
    }

    package var failedPages: [PageTally] { pages.filter { !$0.tally.passed } }
    package var passedCount: Int { pages.count - failedPages.count }
    package var passed: Bool { failedPages.isEmpty }

    /// Each failed category with the pages that failed in it (a page counts in each of its categories).
    package var failedByCategory: [(category: FailureCategory, pages: [String])] {
        FailureCategory.allCases.compactMap { category in
            let names = failedPages.filter { $0.tally.failedCategories.contains(category) }.map(\.name)
            return names.isEmpty ? nil : (category, names)
        }
    }
}

extension ReportRendering {
    /// The most page names listed after a category in the text summary.
    static let listedPages = 10

    /// The suite's closing lines: pages passed and failed, each failed category with its pages, the verdict.
    /// Page names come from files and reports: each is printed through the one escape.
    package static func summary(_ suite: SuiteTally) -> String {
        let count = suite.pages.count
        let pages = count == 1 ? "1 page" : "\(count) pages"
        var lines = ["pages: \(suite.passedCount) passed, \(suite.failedPages.count) failed (of \(count))"]
        for (category, names) in suite.failedByCategory {
            let shown = names.prefix(listedPages).map(TerminalText.escape).joined(separator: ", ")
            let more = names.count > listedPages ? ", and \(names.count - listedPages) more" : ""
            let counted = names.count == 1 ? "1 page" : "\(names.count) pages"
            lines.append("  \(category.rawValue): \(counted) (\(shown)\(more))")
        }
        let flaky = suite.pages.filter { $0.tally.outcome == .flaky }.map(\.name)
        if !flaky.isEmpty {
            let shown = flaky.prefix(listedPages).map(TerminalText.escape).joined(separator: ", ")
            let more = flaky.count > listedPages ? ", and \(flaky.count - listedPages) more" : ""
            let counted = flaky.count == 1 ? "1 page" : "\(flaky.count) pages"
            lines.append("  of them flaky (failed and passed): \(counted) (\(shown)\(more))")
        }
        if !suite.notRun.isEmpty {
            let shown = suite.notRun.prefix(listedPages).map(TerminalText.escape).joined(separator: ", ")
            let more = suite.notRun.count > listedPages ? ", and \(suite.notRun.count - listedPages) more" : ""
            let counted = suite.notRun.count == 1 ? "1 page" : "\(suite.notRun.count) pages"
            lines.append("NOT RUN: \(counted) (\(shown)\(more))")
        }
        if suite.pages.isEmpty, !suite.notRun.isEmpty {
            lines.append("no verdict: no page finished")
        } else if suite.pages.isEmpty {
            lines.append("PASS: no page to check (an empty shard of the list)")
        } else if suite.passed, !suite.notRun.isEmpty {
            // Pages that never ran have no verdict: the pages that did pass are not "every page".
            let listed = count + suite.notRun.count
            lines.append("no verdict: \(suite.notRun.count) of \(listed) pages did not run")
        } else if suite.passed {
            lines.append("PASS: both directions of the bridge hold on every page (\(pages))")
        } else {
            let categories = suite.failedByCategory.map(\.category.rawValue).joined(separator: "; ")
            lines.append("FAIL: \(categories) (\(suite.failedPages.count) of \(pages) failed)")
        }
        return lines.joined(separator: "\n")
    }

    /// The suite as JUnit XML: one `<testsuite>` per page, named after it, with its sessions' test cases; the
    /// root carries the sums.
    package static func junit(_ suite: SuiteTally) -> String {
        junitDocument(suite.pages.map { junitSuite($0.tally, suite: $0.name) } + suite.notRun.map(junitNotRun))
    }

    /// A page that never ran, as a suite of one skipped case: a dashboard counts it, and says why.
    static func junitNotRun(_ page: String) -> JUnitSuite {
        let xml = """
              <testsuite name="\(xml(page))" tests="1" failures="0" errors="0" skipped="1" time="0.000">
                <testcase classname="\(xml(page))" name="not run" time="0.000"><skipped message="not run: the run was interrupted before this page"/></testcase>
              </testsuite>
            """
        return JUnitSuite(xml: xml, tests: 1, failures: 0, skipped: 1, seconds: 0)
    }
}
