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

    package init(_ pages: [PageTally]) { self.pages = pages }

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
    package static func summary(_ suite: SuiteTally) -> String {
        let count = suite.pages.count
        let pages = count == 1 ? "1 page" : "\(count) pages"
        var lines = ["pages: \(suite.passedCount) passed, \(suite.failedPages.count) failed (of \(count))"]
        for (category, names) in suite.failedByCategory {
            let shown = names.prefix(listedPages).joined(separator: ", ")
            let more = names.count > listedPages ? ", and \(names.count - listedPages) more" : ""
            let counted = names.count == 1 ? "1 page" : "\(names.count) pages"
            lines.append("  \(category.rawValue): \(counted) (\(shown)\(more))")
        }
        if suite.pages.isEmpty {
            lines.append("PASS: no page to check (an empty shard of the list)")
        } else if suite.passed {
            lines.append("PASS: both directions of the bridge hold on every page (\(pages))")
        } else {
            let categories = suite.failedByCategory.map(\.category.rawValue).joined(separator: "; ")
            lines.append("FAIL: \(categories) (\(suite.failedPages.count) of \(pages) failed)")
        }
        return lines.joined(separator: "\n")
    }

    /// The suite as JSON: the verdict, the page counts by category, and one entry per page with its sessions.
    package static func json(_ suite: SuiteTally, interrupted: Bool = false, shard: String? = nil) -> String {
        struct Page: Encodable {
            let page: String
            let passed: Bool
            let sessionCount: Int
            let failedCount: Int
            let omittedSessions: Int
            let failedCategories: [FailureCategory]
            let sessions: [SessionTally.Kept]
            let stress: StressVerdict?
        }
        struct Document: Encodable {
            let passed: Bool
            let pageCount: Int
            let passedPages: Int
            let failedPages: Int
            let failedByCategory: [String: Int]
            let interrupted: Bool?
            let shard: String?
            let pages: [Page]
            /// The tool that wrote the report (`WebBridgeVersion.number`).
            let webbridgeVersion: String
        }
        let document = Document(
            passed: suite.passed, pageCount: suite.pages.count, passedPages: suite.passedCount,
            failedPages: suite.failedPages.count,
            failedByCategory: Dictionary(
                uniqueKeysWithValues: suite.failedByCategory.map { ($0.category.rawValue, $0.pages.count) }),
            interrupted: interrupted ? true : nil, shard: shard,
            pages: suite.pages.map {
                Page(
                    page: $0.name, passed: $0.tally.passed, sessionCount: $0.tally.count,
                    failedCount: $0.tally.failedCount, omittedSessions: $0.tally.omitted,
                    failedCategories: $0.tally.failedCategories, sessions: $0.tally.kept, stress: $0.tally.stress)
            }, webbridgeVersion: WebBridgeVersion.number)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self)
    }

    /// The suite as JUnit XML: one `<testsuite>` per page, named after it, with its sessions' test cases; the
    /// root carries the sums.
    package static func junit(_ suite: SuiteTally) -> String {
        junitDocument(suite.pages.map { junitSuite($0.tally, suite: $0.name) })
    }
}
