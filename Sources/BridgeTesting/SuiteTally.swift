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
