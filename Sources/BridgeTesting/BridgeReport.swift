import BridgeContract
import Foundation

/// Every session one check ran on a page and the verdict over them: what `verifyBridge` returns, what
/// `assertBridge` records, and what the text, JSON, JUnit and HTML reports render.
public struct BridgeReport: Sendable, Equatable {
    /// The page's name in reports: its file name, or the host of a deployed page.
    public let page: String
    /// Each session in the order it ran.
    public let sessions: [SessionReport]
    /// Why no session could run (a page or contract that cannot be read), with the remedy; nil when they ran.
    public let setupError: String?
    /// Under `--stress`: how many of the stressed sessions failed, by category, each distinct failure with its
    /// perturbation and replay token.
    package var stress: StressVerdict?

    package init(page: String, sessions: [SessionReport], setupError: String? = nil, stress: StressVerdict? = nil) {
        self.page = page
        self.sessions = sessions
        self.setupError = setupError
        self.stress = stress
    }

    public var passed: Bool { setupError == nil && sessions.allSatisfy(\.passed) }

    /// Every failure of every session, in the order a reader should fix them.
    public var failures: [BridgeFailure] { sessions.flatMap(\.failures) }

    /// The categories that failed, each once, in the order they first failed.
    public var failedCategories: [FailureCategory] {
        failures.map(\.category).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

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
        let failed = sessions.enumerated().filter { !$0.element.passed }.map {
            SessionText.render(session: $0.offset + 1, $0.element)
        }
        return ([verdict] + failed + [PageReport(sessions).summary]).joined(separator: "\n")
    }
}

extension SessionReport {
    /// This session as the text report shows it: its timeline, then each direction's verdict, one line each.
    public func text(session index: Int = 1) -> String { SessionText.render(session: index, self) }
}
