import BridgeContract
import Foundation

/// One page's report: its sessions and the verdict over them. What `verifyBridge` returns, what `assertBridge`
/// records, a page of the tool's run (`RunReport`), and what the text, JSON, JUnit and HTML reports render.
///
/// `sessions` holds the sessions kept in full. A check of a few sessions (`verifyBridge`) keeps every one, in the
/// order they ran. A long run of the tool (`--repeat`, `--stress`) keeps memory bounded: the first 10 sessions,
/// passing or not, then up to 100 failed ones (and the first passing one, which a flaky page's failures are
/// explained against); a run of a billion sessions keeps the same few a run of a hundred does. `sessionCount`
/// counts every session, kept or not, and `passed` and `failedCategories` are over every one.
public struct BridgeReport: Sendable, Equatable {
    /// Sessions kept in full from the start of a bounded run, passing or not.
    package static let keptFirst = 10
    /// Failed sessions kept in full after those.
    package static let keptFailures = 100

    /// One kept session and its number in the run (1-based).
    package struct Kept: Sendable, Equatable {
        package let session: Int
        package let report: SessionReport

        package init(session: Int, report: SessionReport) {
            self.session = session
            self.report = report
        }
    }

    /// The page's name in reports: its file name or the host of a deployed page (`verifyBridge`); in the tool's
    /// run, the path as given or a URL's host and path.
    public package(set) var page: String
    /// Why no session could run (a page or contract that cannot be read), with the remedy; nil when they ran.
    public let setupError: String?
    /// How many sessions ran, kept in full or not.
    public internal(set) var sessionCount = 0
    /// The categories that failed in any session, kept in full or not, each once, in the order they first failed
    /// (read back from a JSON report: in the report's order, by name).
    public internal(set) var failedCategories: [FailureCategory] = []
    /// The sessions kept in full, each with its number in the run.
    package internal(set) var kept: [Kept] = []
    package internal(set) var failedCount = 0
    /// JUnit's totals over every session: two test cases each, failed or skipped as the JUnit report counts them.
    package internal(set) var failedCases = 0
    package internal(set) var skippedCases = 0
    /// The time of every session, as JUnit's `time` sums it (each session's last event).
    package internal(set) var totalSeconds = 0.0
    /// Under `--stress`: how many of the stressed sessions failed, by category, each distinct failure with its
    /// perturbation and replay token.
    package var stress: StressVerdict?

    /// A report keeping every one of `sessions` in full.
    package init(
        page: String = "", sessions: [SessionReport] = [], setupError: String? = nil, stress: StressVerdict? = nil
    ) {
        self.page = page
        self.setupError = setupError
        self.stress = stress
        for session in sessions { add(session, keepingEvery: true) }
    }

    /// Counts a finished session, kept in full within the bound (or always, `keepingEvery`).
    package mutating func add(_ report: SessionReport, keepingEvery: Bool = false) {
        sessionCount += 1
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
            for failure in report.failures where !failedCategories.contains(failure.category) {
                failedCategories.append(failure.category)
            }
        }
        let keptFailures = kept.count(where: { !$0.report.passed && $0.session > Self.keptFirst })
        // The first passing session is kept too: a flaky page's failures are explained against it.
        if keepingEvery || sessionCount <= Self.keptFirst || (!report.passed && keptFailures < Self.keptFailures)
            || (report.passed && !kept.contains { $0.report.passed })
        {
            kept.append(Kept(session: sessionCount, report: report))
        }
    }

    /// The sessions kept in full, in the order they ran: every one of a check of a few sessions; of a long run the
    /// first 10 and up to 100 failed ones (`sessionCount` counts them all).
    public var sessions: [SessionReport] { kept.map(\.report) }

    /// No setup error, and no session failed (kept in full or not).
    public var passed: Bool { setupError == nil && failedCount == 0 }

    /// Every failure of every session kept in full, in the order a reader should fix them.
    public var failures: [BridgeFailure] { sessions.flatMap(\.failures) }

    /// Sessions counted but not kept in full.
    package var omitted: Int { sessionCount - kept.count }

    /// Whether every failure of every session was a page that could not be fetched.
    package var onlyUnreachable: Bool { failedCategories.allSatisfy { $0 == .pageUnreachable } }

    /// The first line of the failure text: `FAIL: ` and the first failure (category and reason); nil on a pass.
    public var verdict: String? {
        if let setupError { return "FAIL: \(setupError)" }
        return failures.first.map { "FAIL: \(TerminalText.line($0.description, limit: TerminalText.detailLimit))" }
    }

    /// The failure as a CI log should show it, nil on a pass: the verdict first (Xcode and CI annotations show the
    /// first line), then each failing session's timeline and verdicts (structure only, never values), then the
    /// count, e.g.
    /// ```
    /// FAIL: native did not receive the page's message: no valid 'ready'; what arrived instead: …
    /// session 1
    ///      0.0 ms  load started
    ///     12.4 ms  message rejected  {kind: String, version: String}: version: expected Number 1, found String …
    ///   page → native  FAIL     native did not receive the page's message: no valid 'ready'; …
    ///   native → page  PASS     document.body.dataset.received shows the sent text
    /// FAIL: native did not receive the page's message (1 of 1 session failed)
    /// ```
    public var failureText: String? {
        guard let verdict else { return nil }
        if setupError != nil { return verdict }
        let failed = kept.filter { !$0.report.passed }.map { SessionText.render(session: $0.session, $0.report) }
        return ([verdict] + failed + [summary]).joined(separator: "\n")
    }
}

extension SessionReport {
    /// This session as the text report shows it: its timeline, then each direction's verdict, one line each.
    public func text(session index: Int = 1) -> String { SessionText.render(session: index, self) }
}
