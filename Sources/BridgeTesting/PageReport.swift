import BridgeContract
import Foundation

/// One page of a run, as the tool reports it: its name and its sessions in bounded memory, counts for all, full
/// reports for the first few and the first failures; its verdict, outcome and flaky explanation are computed from
/// them. (`BridgeReport` is the library's: every session of a check, unbounded.)
///
/// A run of a billion sessions keeps the same few reports a run of a hundred does, not every passing timeline.
package struct PageReport: Sendable {
    /// Sessions kept in full from the start of the run, passing or not.
    package static let keptFirst = 10
    /// Failed sessions kept in full after those.
    package static let keptFailures = 100

    /// One kept session and its number in the run (1-based).
    package struct Kept: Sendable, Encodable {
        package let session: Int
        package let report: SessionReport

        private enum CodingKeys: String, CodingKey { case session, passed }

        package init(session: Int, report: SessionReport) {
            self.session = session
            self.report = report
        }

        // The report's own fields, plus its number and verdict (decoding reads the number and the report).
        package func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(session, forKey: .session)
            try container.encode(report.passed, forKey: .passed)
        }
    }

    /// The page's name in reports: the path as given, a URL's host and path, or a file name.
    package var name: String
    package internal(set) var count = 0
    package internal(set) var failedCount = 0
    /// Every category that failed in any session, sorted.
    package internal(set) var failedCategories: [FailureCategory] = []
    /// Whether every failure of every session was a page that could not be fetched.
    package internal(set) var onlyUnreachable = true
    package internal(set) var kept: [Kept] = []
    /// JUnit's totals over every session: two test cases each, failed or skipped as the JUnit report counts them.
    package internal(set) var failedCases = 0
    package internal(set) var skippedCases = 0
    /// The time of every session, as JUnit's `time` sums it (each session's last event).
    package internal(set) var totalSeconds = 0.0
    /// Under --stress: the verdict over the stressed sessions.
    package var stress: StressVerdict?

    package init(name: String = "", _ reports: [SessionReport] = []) {
        self.name = name
        for report in reports { add(report) }
    }

    package mutating func add(_ report: SessionReport) {
        count += 1
        totalSeconds += (report.timeline.last?.milliseconds ?? 0) / 1000
        for verdict in [report.pageToNative, report.nativeToPage] {
            switch verdict {
            case .pass: break
            case .fail: failedCases += 1
            case .notRun:
                if report.load.failure != nil { failedCases += 1 } else { skippedCases += 1 }
            }
        }
        if !report.passed {
            failedCount += 1
            for failure in report.failures {
                if !failedCategories.contains(failure.category) {
                    failedCategories.append(failure.category)
                    failedCategories.sort { $0.rawValue < $1.rawValue }
                }
                if failure.category != .pageUnreachable { onlyUnreachable = false }
            }
        }
        let keptFailures = kept.count(where: { !$0.report.passed && $0.session > PageReport.keptFirst })
        // The first passing session is kept too: a flaky page's failures are explained against it.
        if count <= PageReport.keptFirst || (!report.passed && keptFailures < PageReport.keptFailures)
            || (report.passed && !kept.contains { $0.report.passed })
        {
            kept.append(Kept(session: count, report: report))
        }
    }

    package var passed: Bool { failedCount == 0 }
    /// Sessions counted but not kept in full.
    package var omitted: Int { count - kept.count }
}
