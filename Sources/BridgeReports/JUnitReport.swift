import BridgeContract
import BridgeTesting
import Foundation
import JUnitXML

/// A run as JUnit XML for CI dashboards: one `<testsuite>` per page, named after it, with two test cases per kept
/// session (`session N: page → native`, `session N: native → page`, the page as classname) under counts and times
/// of every session; a page that never ran is a suite of one skipped case. The document itself is `JUnitXML`'s,
/// the one writer the cloud-Mac job's JUnit uses too.
package enum JUnitReport {
    package static func render(_ run: RunReport) -> String {
        JUnitXML.document(
            name: "webbridge check", run.pages.map(suite) + run.notRun.map(notRunSuite))
    }

    /// Each direction's own share of a session's time, so a suite's sum is the sessions' time, not twice it:
    /// page → native from the load's start until native first sends (the whole session when it never does),
    /// native → page from then to the session's last event.
    static func directionSeconds(_ report: SessionReport) -> (pageToNative: Double, nativeToPage: Double) {
        let end = report.timeline.last?.milliseconds ?? 0
        let split = report.timeline.first { $0.event == .syncSent || $0.event == .sent }?.milliseconds ?? end
        return (split / 1000, max(0, end - split) / 1000)
    }

    /// One page's suite: its kept sessions' cases, the counts and time of every session. A failure carries the
    /// session's timeline as its body (as the text report prints it: structure only, never values).
    static func suite(_ tally: BridgeReport) -> JUnitXML.Suite {
        let name = tally.page
        let flaky = tally.flaky
        var cases: [JUnitXML.Case] = []
        for kept in tally.kept {
            let (number, report) = (kept.session, kept.report)
            let times = directionSeconds(report)
            let timeline = SessionText.render(session: number, report)
            // The page's own errors and console messages go with the page's direction, passing or not.
            let diagnostics = report.timeline.filter { $0.event == .pageReported }
                .map { "\($0.event.rawValue): \(TerminalText.line($0.note, limit: TerminalText.noteLimit))" }
            // A flaky page's failing session says why, beside its failure (the common schema's <system-out>).
            let why = flaky.flatMap { verdict in
                verdict.explanations.first { $0.session == number }.map { explanation(explanation: $0, of: verdict) }
            }
            for (direction, verdict, seconds) in [
                ("page → native", report.pageToNative, times.pageToNative),
                ("native → page", report.nativeToPage, times.nativeToPage),
            ] {
                var elements: [JUnitXML.Element] = []
                let failure: BridgeFailure? =
                    switch verdict {
                    case .pass: nil
                    case .fail: verdict.failure ?? BridgeFailure(.nativeDidNotReceive, "")
                    case .notRun: report.load.failure
                    }
                if let failure {
                    elements.append(
                        .outcome(
                            .failure, type: failure.category.rawValue, message: failure.description, text: timeline))
                    if let why { elements.append(.systemOut(why)) }
                } else if case .notRun = verdict {
                    elements.append(.skipped(message: verdict.note))
                }
                if direction == "page → native", !diagnostics.isEmpty {
                    elements.append(.systemOut(diagnostics.joined(separator: "\n")))
                }
                cases.append(
                    JUnitXML.Case(
                        name: "session \(number): \(direction)", classname: name, seconds: seconds, elements: elements))
            }
        }
        var properties = [(name: "webbridge.version", value: WebBridgeVersion.number)]
        if flaky != nil { properties.append((name: "webbridge.outcome", value: "flaky")) }
        return JUnitXML.Suite(
            name: name, tests: 2 * tally.sessionCount, failures: tally.failedCases, skipped: tally.skippedCases,
            seconds: tally.totalSeconds, properties: properties, cases: cases)
    }

    /// One failing session's flaky explanation as one block of text.
    static func explanation(explanation: FlakyVerdict.Explanation, of verdict: FlakyVerdict) -> String {
        var text =
            "flaky: \(verdict.failedSessions) of \(verdict.failedSessions + verdict.passedSessions) sessions failed; "
            + "session \(explanation.session): \(explanation.order)"
        if let perturbation = explanation.perturbation, let replay = explanation.replay {
            text += "\nreplay: --replay \(replay) (\(perturbation.description))"
        }
        return text
    }

    /// A page that never ran, as a suite of one skipped case: a dashboard counts it, and says why.
    static func notRunSuite(_ page: String) -> JUnitXML.Suite {
        JUnitXML.Suite(
            name: page, tests: 1, failures: 0, skipped: 1, seconds: 0,
            cases: [
                JUnitXML.Case(
                    name: "not run", classname: page, seconds: 0,
                    elements: [.skipped(message: "not run: the run was interrupted before this page")])
            ])
    }
}
