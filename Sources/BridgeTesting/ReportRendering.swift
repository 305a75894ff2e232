import BridgeContract
import Foundation
import TerminalEscape

/// Renders check reports for people (text), programs (JSON) and CI dashboards (JUnit XML).
package enum ReportRendering {
    /// A session's timeline and its verdicts, one line each: escaped, capped, and repeats grouped as `× N`.
    package static func text(session index: Int, _ report: SessionReport, timeline: Bool = true) -> String {
        var lines = ["session \(index)"]
        let verdicts = [report.load, report.pageToNative, report.nativeToPage]
        if timeline {
            // The column fits the longest label, so none is cut.
            let width = max(18, (report.timeline.map { $0.event.rawValue.count }.max() ?? 0) + 2)
            // A note that a verdict below repeats in full (a page's error) is shown once, there.
            let details = Set(verdicts.compactMap { $0.failure?.detail })
            for group in grouped(report.timeline, by: { [$0.event.rawValue, $0.note] }) {
                let entry = group.first
                let time = String(format: "%8.1f ms", entry.milliseconds)
                let event = entry.event.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                let note =
                    details.contains(entry.note) && entry.note.count > 80
                    ? "(the error below)" : TerminalText.line(entry.note, limit: TerminalText.noteLimit)
                let times = group.count > 1 ? " × \(group.count)" : ""
                lines.append("  \(time)  \(event)\(note)\(times)".trimmingTrailingSpaces())
            }
        }
        if report.load.failure != nil {
            lines.append(verdictLine("load         ", report.load))
        }
        lines.append(verdictLine("page → native", report.pageToNative))
        lines.append(verdictLine("native → page", report.nativeToPage))
        lines += perturbationLines(report)
        // A failed ready already lists what arrived instead.
        if report.pageToNative.passed {
            for group in groupedAnywhere(report.extraMessages) {
                let times = group.count > 1 ? " × \(group.count)" : ""
                lines.append("  also seen: \(TerminalText.line(group.value, limit: TerminalText.noteLimit))\(times)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A stressed session's perturbation in words, and on a failure the argument that replays it.
    static func perturbationLines(_ report: SessionReport) -> [String] {
        guard let perturbation = report.perturbation else { return [] }
        let words = StressRun.words(report, perturbation)
        var lines = ["  perturbation: \(TerminalText.line(words, limit: TerminalText.detailLimit))"]
        if !report.passed { lines.append("  replay: --replay \(perturbation.token)") }
        return lines
    }

    private static func verdictLine(_ name: String, _ verdict: DirectionVerdict) -> String {
        let status = verdict.statusText.uppercased()
        let detail = TerminalText.line(
            collapsingRepeats(verdict.failure?.description ?? verdict.note), limit: TerminalText.detailLimit)
        return "  \(name)  \(status.padding(toLength: 9, withPad: " ", startingAt: 0))\(detail)"
            .trimmingTrailingSpaces()
    }

    /// Runs of equal neighbours, each with its first element and its length.
    static func grouped<T, Key: Equatable>(_ items: [T], by key: (T) -> Key) -> [(first: T, count: Int)] {
        var groups: [(first: T, count: Int)] = []
        var lastKey: Key?
        for item in items {
            let itemKey = key(item)
            if let lastKey, lastKey == itemKey {
                groups[groups.count - 1].count += 1
            } else {
                groups.append((item, 1))
            }
            lastKey = itemKey
        }
        return groups
    }

    /// Equal strings wherever they occur, in order of first appearance, with how often each occurs.
    static func groupedAnywhere(_ items: [String]) -> [(value: String, count: Int)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for item in items {
            if counts[item] == nil { order.append(item) }
            counts[item, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }

    /// A list joined with " | " (what arrived instead of the ready) with runs of equal items shown as `× N`.
    static func collapsingRepeats(_ text: String) -> String {
        var parts = text.components(separatedBy: " | ")
        guard parts.count > 1 else { return text }
        // The first item carries the sentence before the list: compare the item alone.
        var lead = ""
        if parts[0] != parts[1], parts[0].hasSuffix(parts[1]) {
            lead = String(parts[0].dropLast(parts[1].count))
            parts[0] = parts[1]
        }
        return lead
            + grouped(parts, by: { $0 }).map { $0.count > 1 ? "\($0.first) × \($0.count)" : $0.first }
            .joined(separator: " | ")
    }

    /// The closing line: the verdict over every session and the first failure's category.
    /// (Some sessions failed and some passed: `FLAKY:`.)
    package static func summary(_ reports: [SessionReport]) -> String {
        // A session is the verdict; summing them is the tally's.
        reports.isEmpty ? "PASS: both directions of the bridge hold (0 sessions)" : summary(SessionTally(reports))
    }

    /// JUnit XML with one test case per direction per session, in one suite named `suite` (the page).
    package static func junit(_ reports: [SessionReport], suite: String = "webbridge check") -> String {
        junitDocument([junitSuite(reports.enumerated().map { ($0.offset + 1, $0.element) }, suite: suite, totals: nil)])
    }

    /// One `<testsuite>`, with the counts it adds to the root's.
    struct JUnitSuite {
        let xml: String
        let tests: Int
        let failures: Int
        let skipped: Int
        let seconds: Double
    }

    /// The document around `suites`: `<testsuites>` carrying the sums of their counts and times, as dashboards
    /// read the root. Skipped cases are counted on each `<testsuite>` only: the common schema (Jenkins xunit's
    /// junit-10.xsd) has no `skipped` on the root.
    static func junitDocument(_ suites: [JUnitSuite]) -> String {
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let seconds = suites.reduce(0) { $0 + $1.seconds }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="webbridge check" tests="\(tests)" failures="\(failures)" errors="0" time="\(junitTime(seconds))">
            \(suites.map(\.xml).joined(separator: "\n"))
            </testsuites>
            """
    }

    /// Seconds as JUnit's `time` attribute: `0.168`.
    static func junitTime(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// Each direction's own share of a session's time, so a suite's sum is the sessions' time, not twice it:
    /// page → native from the load's start until native first sends (the whole session when it never does),
    /// native → page from then to the session's last event.
    static func directionSeconds(_ report: SessionReport) -> (pageToNative: Double, nativeToPage: Double) {
        let end = report.timeline.last?.milliseconds ?? 0
        let split = report.timeline.first { $0.event == .syncSent || $0.event == .sent }?.milliseconds ?? end
        return (split / 1000, max(0, end - split) / 1000)
    }

    /// One `<testsuite>` named after the page, with the sessions' test cases (`session N: page → native`, the
    /// page as classname); a failure carries the session's timeline as its body. `totals` (tests, failures,
    /// skipped, seconds) count sessions not shown, when given.
    static func junitSuite(
        _ reports: [(Int, SessionReport)], suite: String,
        totals: (tests: Int, failures: Int, skipped: Int, seconds: Double)?, flaky: FlakyVerdict? = nil
    ) -> JUnitSuite {
        var cases: [String] = []
        var failures = 0
        var skipped = 0
        var seconds = 0.0
        for (number, report) in reports {
            let times = directionSeconds(report)
            // The failing session's timeline, as the text report prints it: structure only, never values.
            let timeline = xml(text(session: number, report))
            let directions = [
                ("page → native", report.pageToNative, times.pageToNative),
                ("native → page", report.nativeToPage, times.nativeToPage),
            ]
            // The page's own errors and console messages go with the page's direction, passing or not.
            let diagnostics = report.timeline.filter { $0.event == .pageReported }
                .map { "\($0.event.rawValue): \(TerminalText.line($0.note, limit: TerminalText.noteLimit))" }
            // A flaky page's failing session says why, beside its failure (the common schema's <system-out>).
            let why = flaky.flatMap { verdict in
                verdict.explanations.first { $0.session == number }.map {
                    "<system-out>\(ReportRendering.xml(FlakyVerdict.text($0, of: verdict)))</system-out>"
                }
            }
            for (name, verdict, time) in directions {
                seconds += time
                var body = ""
                switch verdict {
                case .pass:
                    break
                case .fail:
                    failures += 1
                    let failure = verdict.failure ?? BridgeFailure(.nativeDidNotReceive, "")
                    body =
                        "\n      <failure type=\"\(xml(failure.category.rawValue))\" message=\"\(xml(failure.description))\">\(timeline)</failure>\n    "
                case .notRun:
                    if let loadFailure = report.load.failure {
                        failures += 1
                        body =
                            "\n      <failure type=\"\(xml(loadFailure.category.rawValue))\" message=\"\(xml(loadFailure.description))\">\(timeline)</failure>\n    "
                    } else {
                        skipped += 1
                        body = "<skipped message=\"\(xml(verdict.note))\"/>"
                    }
                }
                if body.contains("<failure"), let why { body += why }
                if name == "page → native", !diagnostics.isEmpty {
                    body += "<system-out>\(xml(diagnostics.joined(separator: "\n")))</system-out>"
                }
                cases.append(
                    "    <testcase classname=\"\(xml(suite))\" name=\"session \(number): \(name)\" time=\"\(junitTime(time))\">\(body)</testcase>"
                )
            }
        }
        let tests = totals?.tests ?? cases.count
        failures = totals?.failures ?? failures
        skipped = totals?.skipped ?? skipped
        seconds = totals?.seconds ?? seconds
        let xml = """
              <testsuite name="\(xml(suite))" tests="\(tests)" failures="\(failures)" errors="0" skipped="\(skipped)" time="\(junitTime(seconds))">
                <properties>
                  <property name="webbridge.version" value="\(WebBridgeVersion.number)"/>\(flaky == nil ? "" : "\n          <property name=\"webbridge.outcome\" value=\"flaky\"/>")
                </properties>
            \(cases.joined(separator: "\n"))
              </testsuite>
            """
        return JUnitSuite(xml: xml, tests: tests, failures: failures, skipped: skipped, seconds: seconds)
    }

    static func xml(_ text: String) -> String { text.escapingForXML }
}

/// The sessions of a run, in bounded memory: counts for all, full reports for the first few and the first failures.
///
/// A run of a billion sessions keeps the same few reports a run of a hundred does, not every passing timeline.
package struct SessionTally: Sendable {
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

    package internal(set) var count = 0
    package internal(set) var failedCount = 0
    /// Every category that failed in any session, sorted.
    package internal(set) var failedCategories: [FailureCategory] = []
    /// Whether every failure of every session was a page that could not be fetched.
    package internal(set) var onlyUnreachable = true
    package internal(set) var kept: [Kept] = []
    /// JUnit's totals over every session: two test cases each, failed or skipped as `junit` renders them.
    package internal(set) var failedCases = 0
    package internal(set) var skippedCases = 0
    /// The time of every session, as JUnit's `time` sums it (each session's last event).
    package internal(set) var totalSeconds = 0.0
    /// Under --stress: the verdict over the stressed sessions.
    package var stress: StressVerdict?

    package init() {}

    package init(_ reports: [SessionReport]) {
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
        let keptFailures = kept.count(where: { !$0.report.passed && $0.session > SessionTally.keptFirst })
        // The first passing session is kept too: a flaky page's failures are explained against it.
        if count <= SessionTally.keptFirst || (!report.passed && keptFailures < SessionTally.keptFailures)
            || (report.passed && !kept.contains { $0.report.passed })
        {
            kept.append(Kept(session: count, report: report))
        }
    }

    package var passed: Bool { failedCount == 0 }
    /// Sessions counted but not kept in full.
    package var omitted: Int { count - kept.count }
}

extension ReportRendering {
    /// The closing line over a tally: the verdict, every failed category, the counts.
    package static func summary(_ tally: SessionTally) -> String {
        // A run stopped before its first session ended has no verdict; "PASS (0 sessions)" would read as one.
        guard tally.count > 0 else { return "no verdict: no session finished" }
        let sessions = tally.count == 1 ? "1 session" : "\(tally.count) sessions"
        guard !tally.passed else { return "PASS: both directions of the bridge hold (\(sessions))" }
        let categories = tally.failedCategories.map(\.rawValue).joined(separator: "; ")
        if tally.outcome == .flaky {
            let passed = tally.count - tally.failedCount
            return "FLAKY: \(categories) (\(tally.failedCount) of \(sessions) failed, \(passed) passed)"
        }
        return "FAIL: \(categories) (\(tally.failedCount) of \(sessions) failed)"
    }

    /// The tally as JUnit XML: one suite named after the page (`suite`), its kept sessions' test cases, under
    /// totals that count every session.
    package static func junit(_ tally: SessionTally, suite: String = "webbridge check") -> String {
        junitDocument([junitSuite(tally, suite: suite)])
    }

    /// One page's `<testsuite>`: the kept sessions' cases, the counts and time of every session.
    static func junitSuite(_ tally: SessionTally, suite: String) -> JUnitSuite {
        junitSuite(
            tally.kept.map { ($0.session, $0.report) }, suite: suite,
            totals: (2 * tally.count, tally.failedCases, tally.skippedCases, tally.totalSeconds), flaky: tally.flaky)
    }
}

/// Text from a page, a file or a command line made safe for a terminal: control characters escaped, length capped.
package enum TerminalText {
    /// The most characters of one timeline note shown.
    package static let noteLimit = 200
    /// The most characters of one verdict's detail shown.
    package static let detailLimit = 2_000

    /// `text` with every control character written as an escape (`\u{1B}`), so it can't move the cursor,
    /// ring the bell, or start a line that looks like the tool's own (see `escapingControlCharacters`).
    package static func escape(_ text: String) -> String { text.escapingControlCharacters }

    /// Several lines of text, each escaped: the line breaks stay, nothing else moves the cursor.
    package static func escapeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
            .joined(separator: "\n")
    }

    /// `text` escaped and cut to `limit` Unicode scalars, with a note saying how much was cut.
    ///
    /// Scalars, not characters: one base character with 500,000 combining marks is one grapheme cluster.
    package static func line(_ text: String, limit: Int = detailLimit) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return escape(text) }
        let more = scalars.distance(from: end, to: scalars.endIndex)
        return escape(String(scalars[..<end])) + " … [cut: \(more) more characters]"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
