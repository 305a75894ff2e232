import Foundation

/// How a page's sessions came out over a run (`--repeat N`, `--retries N`): every one passed, every one failed, or
/// some of each: flaky.
package enum PageOutcome: String, Sendable, Codable {
    case passed, failed, flaky
}

/// Why a flaky page failed: each failing session's order of events against the page's passing sessions, and a
/// replay token (a ``Perturbation``, as `--stress` prints) that makes that order again.
package struct FlakyVerdict: Sendable, Equatable {
    /// One failing session explained.
    package struct Explanation: Sendable, Equatable {
        /// The session's number in the run (1-based).
        package let session: Int
        /// Which events came in which order, against the passing sessions, e.g. "sync was evaluated 498.1 ms before
        /// window.bridgeReceive existed; in passing sessions it came 2.3 ms after".
        package let order: String
        /// The perturbation that re-creates that order; nil when no event pair came the other way round (the
        /// failure is not an order of events the check can force).
        package let perturbation: Perturbation?

        /// The argument of `--replay` that runs the session's order again.
        package var replay: String? { perturbation?.token }
    }

    package let failedSessions: Int
    package let passedSessions: Int
    /// The failing sessions the report kept, each explained.
    package let explanations: [Explanation]

    /// Explains each failing session kept in `tally` against its kept passing sessions; nil unless the page is
    /// flaky.
    package init?(_ tally: BridgeReport) {
        guard tally.outcome == .flaky else { return nil }
        failedSessions = tally.failedCount
        passedSessions = tally.sessionCount - tally.failedCount
        let passing = tally.kept.filter(\.report.passed).map { Milestones($0.report.timeline) }
        explanations = tally.kept.filter { !$0.report.passed }.map {
            Self.explain($0.session, Milestones($0.report.timeline), against: passing)
        }
    }

    /// The verdict as the text report shows it: the count, then each failing session's order and its replay.
    package var lines: [String] {
        var lines = [
            "flaky: \(failedSessions) of \(failedSessions + passedSessions) sessions failed, \(passedSessions) passed"
        ]
        for explanation in explanations.prefix(Self.printed) {
            lines.append("  session \(explanation.session): \(TerminalText.line(explanation.order))")
            if let perturbation = explanation.perturbation, let replay = explanation.replay {
                lines.append("    replay: --replay \(replay) (\(perturbation.description))")
            }
        }
        if explanations.count > Self.printed {
            lines.append("  (\(explanations.count - Self.printed) more failing sessions explained in the JSON report)")
        }
        return lines
    }

    /// Failing sessions explained in text; the JSON report holds every kept one.
    static let printed = 10

    // MARK: Comparing orders

    /// The events of a timeline that have an order worth comparing, each by a name that is the same in every
    /// session of the page, at its first occurrence.
    struct Milestones {
        /// Name → milliseconds since the load started.
        var times: [String: Double] = [:]
        /// Names in the order they came.
        var order: [String] = []
        /// Native's actions (a send, an evaluation) before each named native milestone: the hold's index.
        var actionIndex: [String: Int] = [:]
        /// The session's last event.
        var end = 0.0

        init(_ timeline: [TimelineEntry]) {
            var lastSent = "native's message"
            var actions = 0
            end = timeline.last?.milliseconds ?? 0
            for entry in timeline {
                let name: String
                switch entry.event {
                case .syncSent:
                    lastSent = "sync"
                    name = "sent:sync"
                case .sent:
                    lastSent = String(entry.note.prefix { $0 != ":" })
                    name = "sent:" + lastSent
                case .accepted, .notAccepted: name = "evaluated:" + lastSent
                case .replied: name = "replied:" + entry.note
                case .readyReceived, .messageReceived: name = "arrived:" + entry.note.prefix { $0 != " " }
                case .receiverDefined: name = "defined:" + entry.note
                case .didFinish: name = "didFinish"
                default: continue
                }
                guard times[name] == nil else { continue }
                times[name] = entry.milliseconds
                order.append(name)
                if name.hasPrefix("sent:") || name.hasPrefix("replied:") {
                    actionIndex[name] = actions
                    actions += 1
                }
                if name.hasPrefix("evaluated:") { actionIndex[name] = actionIndex["sent:" + lastSent] }
            }
        }

        static func isNative(_ name: String) -> Bool {
            name.hasPrefix("sent:") || name.hasPrefix("evaluated:") || name.hasPrefix("replied:")
        }

        /// The milestone as the subject or object of a sentence.
        static func words(_ name: String) -> String {
            let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
            let what = parts.count > 1 ? parts[1] : ""
            switch parts[0] {
            case "sent": return "\(what) was sent"
            case "evaluated": return "\(what) was evaluated"
            case "replied": return "native replied to \(what)"
            case "arrived": return "\(what) arrived"
            case "defined": return "\(what) existed"
            default: return name
            }
        }

        /// How the object is named after "before"/"after": "window.bridgeReceive existed", "ready arrived".
        static func object(_ name: String) -> String {
            name == "didFinish" ? "didFinish" : words(name)
        }
    }

    /// The median of `values` (not empty).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func ms(_ value: Double) -> String { String(format: "%.1f ms", abs(value)) }

    /// The pair of a native milestone and a page milestone whose order in `failing` is the other way round from the
    /// passing sessions' (by their median), the one that moved most; then the perturbation that forces it.
    static func explain(_ session: Int, _ failing: Milestones, against passing: [Milestones]) -> Explanation {
        guard !passing.isEmpty else {
            return Explanation(
                session: session, order: "no passing session was kept to compare it with", perturbation: nil)
        }
        // A page event that never came in the failing session (its verdict came first) came after its end.
        let end = failing.end
        let pageEvents = (failing.order + passing[0].order).filter { !Milestones.isNative($0) }
        var best: (native: String, page: String, failing: Double, passing: Double)?
        for native in failing.order where Milestones.isNative(native) {
            for page in Set(pageEvents).sorted() {
                let gaps = passing.compactMap { run in
                    run.times[native].flatMap { n in run.times[page].map { n - $0 } }
                }
                guard gaps.count == passing.count, let n = failing.times[native] else { continue }
                let inFailing = n - (failing.times[page] ?? max(end, n + 0.1))
                let inPassing = median(gaps)
                guard inFailing != 0, inPassing != 0, (inFailing < 0) != (inPassing < 0) else { continue }
                // When the call ran in the page (its evaluation) tells more than when native sent it.
                let rank = (Self.isEvaluation(native), abs(inFailing - inPassing))
                if best.map({ rank > (Self.isEvaluation($0.native), abs($0.failing - $0.passing)) }) ?? true {
                    best = (native, page, inFailing, inPassing)
                }
            }
        }
        guard let best else { return sameOrder(session, failing, against: passing) }
        // A page event that never came has no gap to give: only its order.
        let gap = failing.times[best.page] == nil ? "" : "\(ms(best.failing)) "
        let ended = failing.times[best.page] == nil ? " (not yet when the session ended)" : ""
        let order =
            "\(Milestones.words(best.native)) \(gap)\(best.failing < 0 ? "before" : "after") "
            + "\(Milestones.object(best.page))\(ended); in passing sessions it came \(ms(best.passing)) "
            + "\(best.passing < 0 ? "before" : "after")"
        // Twice the shift seen, at least 250 ms: the replay lands on the failing side with a margin a busy machine
        // does not eat.
        let shift = max(250, (2 * abs(best.failing - best.passing)).rounded(.up))
        var perturbation = Perturbation()
        if best.failing < 0 {
            // Native came before the page's event: the page was late. Its timers, late by the shift, make it so.
            perturbation.timerDelay = min(shift, 30_000)
        } else {
            // The page's event came before native's: native was late. Hold that action by the shift.
            let index = failing.actionIndex[best.native] ?? 0
            perturbation.nativeDelays = Array(repeating: 0, count: index) + [min(shift, 30_000)]
        }
        return Explanation(session: session, order: order, perturbation: perturbation)
    }

    static func isEvaluation(_ name: String) -> Int { name.hasPrefix("evaluated:") ? 1 : 0 }

    /// No pair came the other way round: the events came in the passing order, and the one that moved most is
    /// named.
    static func sameOrder(_ session: Int, _ failing: Milestones, against passing: [Milestones]) -> Explanation {
        var moved: (name: String, failing: Double, passing: Double)?
        for name in failing.order {
            let times = passing.compactMap { $0.times[name] }
            guard !times.isEmpty, let time = failing.times[name] else { continue }
            let typical = median(times)
            if moved.map({ abs(time - typical) > abs($0.failing - $0.passing) }) ?? true {
                moved = (name, time, typical)
            }
        }
        let detail = moved.map {
            "; the most moved: \(Milestones.words($0.name)) at \(ms($0.failing)), in passing sessions at "
                + "\(ms($0.passing)) (from the load's start)"
        }
        return Explanation(
            session: session,
            order: "the events native saw came in the passing sessions' order" + (detail ?? ""),
            perturbation: nil)
    }
}

extension BridgeReport {
    /// Passed, failed, or flaky (some sessions of each); a stressed run's mixed sessions are the stress verdict's
    /// to explain, so it is failed.
    package var outcome: PageOutcome {
        if failedCount == 0 { return .passed }
        return failedCount < sessionCount && stress == nil ? .flaky : .failed
    }

    /// The flaky verdict, computed from the kept sessions (so a merged or decoded report gives the same one); nil
    /// unless the page is flaky.
    package var flaky: FlakyVerdict? { FlakyVerdict(self) }
}

extension FlakyVerdict: Encodable {
    private enum CodingKeys: String, CodingKey { case failedSessions, passedSessions, explanations }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(failedSessions, forKey: .failedSessions)
        try container.encode(passedSessions, forKey: .passedSessions)
        try container.encode(explanations, forKey: .explanations)
    }
}

extension FlakyVerdict.Explanation: Encodable {
    private enum CodingKeys: String, CodingKey { case session, order, perturbation, words, replay }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(order, forKey: .order)
        try container.encodeIfPresent(perturbation, forKey: .perturbation)
        try container.encodeIfPresent(perturbation?.description, forKey: .words)
        try container.encodeIfPresent(replay, forKey: .replay)
    }
}
