import BridgeContract
import BridgeTesting
import Foundation

/// Each session's sequence diagram: the page and native lanes, each timeline event as an arrow or a mark, and
/// the failing step with its category, owner and remedy.
extension HTMLReport {
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
            .accepted, .notAccepted, .perturbed, .receiverDefined:
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
            // A response with an error status (a 404) is what failed when nothing else did: not a missing didFinish.
            let response = failure.category == .pageUnreachable ? timeline.lastIndex { $0.event == .httpResponse } : nil
            steps.append(
                (.load, failure, first([.loadFailed]) ?? first([.processTerminated, .navigated]) ?? response))
        }
        if let failure = report.pageToNative.failure {
            steps.append((.pageToNative, failure, first([.messageRejected, .messageDropped])))
        }
        if let failure = report.nativeToPage.failure {
            steps.append((.nativeToPage, failure, first([.notAccepted])))
        }
        return steps
    }

    static func diagram(_ report: SessionReport) -> String {
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
            rows.append(
                missingStep(
                    missing.direction, missing.failure,
                    didFinish: report.timeline.contains { $0.event == .didFinish }))
            rows.append(failureBox(missing.direction, missing.failure))
        }
        // A stressed session's failure: the perturbation that made it, and the argument that runs it again.
        if !failing.isEmpty, let perturbation = report.perturbation {
            let words = StressRun.words(report, perturbation)
            rows.append(
                "<p class=\"replay\">perturbation: \(escape(TerminalText.line(words)))<br>replay: <code>--replay \(escape(perturbation.token))</code></p>"
            )
        }
        if report.timeline.isEmpty, failing.isEmpty {
            rows.append("<p class=\"empty\">no events recorded</p>")
        }
        rows.append("</div>")
        return rows.joined(separator: "\n")
    }

    static func step(_ entry: TimelineEntry, index: Int, failing: BridgeFailure?) -> String {
        let time = "<span class=\"time\">\(String(format: "%.1f", entry.milliseconds)) ms</span>"
        // A remedy is read to its end: a note that carries one is never cut (the detail limit still bounds it); so
        // is a count of what was left off, whose end names the last of them.
        let whole =
            entry.note.contains("Remedy")
            || (entry.event == .pageReported && PageDiagnostic.Kind(timelineNote: entry.note)?.isLeftOffCount == true)
        let limit = whole ? TerminalText.detailLimit : labelLimit
        let note =
            entry.note.isEmpty
            ? "" : " <span class=\"note\">\(escape(TerminalText.line(entry.note, limit: limit)))</span>"
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
                case .pageReported where PageDiagnostic.Kind(timelineNote: entry.note)?.isUnhandled != false: " bad"
                default: ""
                }
            return "<div class=\"\(classes.joined(separator: " "))\" data-lane=\"page\" \(attributes)>"
                + "\(time)<span class=\"dot\(kind)\"></span>\(label)</div>"
        }
    }

    static func missingStep(_ direction: Direction, _ failure: BridgeFailure, didFinish: Bool) -> String {
        let text: String
        let shape: String
        switch direction {
        case .load:
            // Only a load that never finished is drawn as a missing didFinish; any other is named as it is.
            text =
                failure.category == .pageLoadDidNotFinish && !didFinish
                ? "didFinish never came" : failure.category.rawValue
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

    static func failureBox(_ direction: Direction, _ failure: BridgeFailure) -> String {
        let detail = SessionText.collapsingRepeats(failure.detail)
        return
            "<div class=\"failure\" data-category=\"\(escape(failure.category.rawValue))\" data-direction=\"\(direction.rawValue)\">"
            + "<span class=\"category\">\(escape(failure.category.rawValue))</span>"
            + "<span class=\"owner\" data-owner=\"\(failure.category.owner.side)\">\(escape(failure.category.owner.words))</span>"
            + "<span class=\"remedy\">\(escape(TerminalText.line(detail)))</span></div>"
    }
}
