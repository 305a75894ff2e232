import BridgeContract
import Foundation
import TerminalEscape

/// A session as text: its timeline and verdicts, as `SessionReport.text(session:)` and `BridgeReport.failureText`
/// show it and the report renderers (BridgeReports) reuse it.
package enum SessionText {
    /// A session's timeline and its verdicts, one line each: escaped, capped, and repeats grouped as `× N`.
    package static func render(session index: Int, _ report: SessionReport, timeline: Bool = true) -> String {
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
    package static func grouped<T, Key: Equatable>(_ items: [T], by key: (T) -> Key) -> [(first: T, count: Int)] {
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
    package static func groupedAnywhere(_ items: [String]) -> [(value: String, count: Int)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for item in items {
            if counts[item] == nil { order.append(item) }
            counts[item, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }

    /// A list joined with " | " (what arrived instead of the ready) with runs of equal items shown as `× N`.
    package static func collapsingRepeats(_ text: String) -> String {
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
}

extension BridgeReport {
    /// The closing line over the sessions: the verdict, every failed category (by name), the counts. (Some sessions
    /// failed and some passed: `FLAKY:`.)
    package var summary: String {
        // A run stopped before its first session ended has no verdict; "PASS (0 sessions)" would read as one.
        guard sessionCount > 0 else { return "no verdict: no session finished" }
        let sessions = sessionCount == 1 ? "1 session" : "\(sessionCount) sessions"
        guard failedCount > 0 else { return "PASS: both directions of the bridge hold (\(sessions))" }
        let categories = failedCategories.map(\.rawValue).sorted().joined(separator: "; ")
        if outcome == .flaky {
            return
                "FLAKY: \(categories) (\(failedCount) of \(sessions) failed, \(sessionCount - failedCount) passed)"
        }
        return "FAIL: \(categories) (\(failedCount) of \(sessions) failed)"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
