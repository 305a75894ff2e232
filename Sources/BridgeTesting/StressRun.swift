import Foundation
import LoopbackServer

/// How a stressed check runs: `sessions` sessions of each page, each under a perturbation drawn from `seed`.
package struct StressOptions: Sendable, Equatable {
    /// Stressed sessions per page (`--stress N`).
    public var sessions: Int
    /// The run's seed: the same seed draws the same perturbations, session by session.
    public var seed: UInt64
    public var bounds: Perturbation.Bounds
    /// Sessions shrinking may run for each distinct failure; 0 turns shrinking off.
    public var shrinkBudget: Int
    /// Distinct failures shrunk per page (the first ones).
    public var shrunkFailures: Int
    /// The life-cycle faults to draw, one per stressed session (``LifecycleFault``); none when empty.
    public var faults: [LifecycleFault.Kind]

    /// The seed when none is given: fixed, so a CI job stresses the same timings on every run.
    public static let defaultSeed: UInt64 = 0x5EED

    public init(
        sessions: Int, seed: UInt64 = defaultSeed, bounds: Perturbation.Bounds = Perturbation.Bounds(),
        shrinkBudget: Int = 16, shrunkFailures: Int = 3, faults: [LifecycleFault.Kind] = []
    ) {
        self.sessions = sessions
        self.seed = seed
        self.bounds = bounds
        self.shrinkBudget = shrinkBudget
        self.shrunkFailures = shrunkFailures
        self.faults = faults
    }
}

/// The verdict over a page's stressed sessions: how many failed, by category, and each distinct failure with the
/// perturbation that made it, in words and as a replay token, next to the smallest perturbation that still fails.
package struct StressVerdict: Sendable, Equatable, Codable {
    package struct CategoryCount: Sendable, Equatable, Codable {
        public let category: FailureCategory
        public let sessions: Int
    }

    /// One distinct failure (its category and its text, numbers aside) and the first perturbation that made it.
    package struct Failure: Sendable, Equatable, Codable {
        public let category: FailureCategory
        /// The failure's text in the first session that failed this way (structure, never values).
        public let detail: String
        /// Sessions that failed this way, and the first of them (1-based).
        public let sessions: Int
        public let firstSession: Int
        public var perturbation: Perturbation
        /// What the perturbation changed in that session, in words.
        public var words: String
        /// The argument of `--replay` that runs this perturbation again.
        public var replay: String
        /// The later session whose perturbation stands for this failure, when the first one's did not fail again on
        /// replay (the machine's own timing failed that session); nil when the first one's did.
        public var standsIn: Int?
        /// The smallest perturbation found that still fails in this category; nil when none smaller did.
        public var shrunk: Perturbation?
        public var shrunkWords: String?
        public var shrunkReplay: String?
        /// True when an unperturbed session of the page failed in this category too: the page is broken, and no
        /// timing is to blame (nothing is shrunk then); nil when not found.
        public var failsUnperturbed: Bool?
    }

    public let seed: UInt64
    public let sessions: Int
    public let failed: Int
    public let byCategory: [CategoryCount]
    public let failures: [Failure]
    /// Why no response was held although the page is fetched over the network (an `https:` page, which the
    /// check's loopback proxy cannot stand in for); nil otherwise.
    public var responsesNotHeld: String?

    public var passed: Bool { failed == 0 }

    /// The verdict as the text report shows it, one line per fact.
    public var lines: [String] {
        let categories = byCategory.map { "\($0.category.rawValue) × \($0.sessions)" }.joined(separator: ", ")
        var lines = [
            "stress: \(failed) of \(sessions) stressed sessions failed (seed \(seed))"
                + (categories.isEmpty ? "" : ": \(categories)")
        ]
        if let responsesNotHeld { lines.append("  responses not held: \(responsesNotHeld)") }
        for failure in failures {
            lines.append(
                "  \(failure.category.rawValue) in \(failure.sessions) session\(failure.sessions == 1 ? "" : "s") (first: session \(failure.firstSession)): \(TerminalText.line(failure.detail, limit: TerminalText.detailLimit))"
            )
            lines.append("    perturbation: \(failure.words)")
            lines.append("    replay: --replay \(failure.replay)")
            if let standsIn = failure.standsIn {
                lines.append(
                    "    (session \(standsIn)'s: session \(failure.firstSession)'s perturbation did not fail again when replayed; the machine's own timing failed it)"
                )
            }
            if failure.failsUnperturbed == true {
                lines.append(
                    "    fails without any perturbation: an unperturbed session of the page fails this way too, so no timing is to blame; fix the page first"
                )
            }
            if let shrunk = failure.shrunkWords, let replay = failure.shrunkReplay {
                lines.append("    smallest that still fails: \(shrunk)")
                lines.append("    replay: --replay \(replay)")
            }
        }
        return lines
    }
}

/// Runs a page's stressed sessions and judges them.
@MainActor
package enum StressRun {
    /// Runs `options.sessions` sessions of `configuration`'s page, each under its own drawn perturbation, through
    /// `session` (a suite's lane, or a fresh session), handing each report to `record` as it finishes; then shrinks
    /// the first distinct failures.
    public static func run(
        _ configuration: CheckConfiguration, options: StressOptions,
        session: @MainActor (CheckConfiguration) async -> SessionReport = { await BridgeCheck.run($0) },
        record: @MainActor (SessionReport) -> Void = { _ in }, shouldStop: @MainActor () -> Bool = { false }
    ) async -> StressVerdict {
        let serves = servesPage(configuration)
        var failures: [StressVerdict.Failure] = []
        var keys: [String] = []
        // Later sessions of each distinct failure, to stand for it when the first one's replay passes.
        var later: [[(session: Int, perturbation: Perturbation, words: String)]] = []
        var categories: [FailureCategory: Int] = [:]
        var order: [FailureCategory] = []
        var failed = 0
        var ran = 0
        for index in 1...max(1, options.sessions) where !shouldStop() {
            var stressed = configuration
            stressed.perturbation = Perturbation.drawn(
                seed: Perturbation.sessionSeed(options.seed, index), bounds: options.bounds, servesPage: serves,
                faults: options.faults)
            let report = await session(stressed)
            ran += 1
            record(report)
            guard let first = report.failures.first else { continue }
            failed += 1
            for category in Set(report.failures.map(\.category)) {
                if categories[category] == nil { order.append(category) }
                categories[category, default: 0] += 1
            }
            let key = failureKey(first)
            let perturbation = stressed.perturbation ?? .none
            if let known = keys.firstIndex(of: key) {
                let old = failures[known]
                failures[known] = StressVerdict.Failure(
                    category: old.category, detail: old.detail, sessions: old.sessions + 1,
                    firstSession: old.firstSession, perturbation: old.perturbation, words: old.words,
                    replay: old.replay)
                if later[known].count < Self.standIns {
                    later[known].append((index, perturbation, words(report, perturbation)))
                }
                continue
            }
            keys.append(key)
            later.append([])
            failures.append(
                StressVerdict.Failure(
                    category: first.category, detail: first.detail, sessions: 1, firstSession: index,
                    perturbation: perturbation, words: words(report, perturbation), replay: perturbation.token))
        }
        // One session without any perturbation first: a category it fails in is the page's own, and shrinking a
        // perturbation towards nothing would only blame the last timing left (`sync held 0 ms`).
        var unperturbed: Set<FailureCategory> = []
        if !failures.isEmpty, options.shrinkBudget > 0, !shouldStop() {
            var plain = configuration
            plain.perturbation = nil
            unperturbed = Set(await session(plain).failures.map(\.category))
        }
        for index in failures.indices.prefix(options.shrunkFailures) where options.shrinkBudget > 0 && !shouldStop() {
            let failure = failures[index]
            if unperturbed.contains(failure.category) {
                failures[index].failsUnperturbed = true
                continue
            }
            // The token shown must fail again: on a busy machine a session can fail by the engine's own timing, and
            // its perturbation then replays as a pass. A later session of the same failure whose replay fails stands
            // for it instead.
            var replayed = configuration
            replayed.perturbation = failure.perturbation
            if !(await session(replayed).failures.contains { $0.category == failure.category }) {
                for candidate in later[index] where !shouldStop() {
                    replayed.perturbation = candidate.perturbation
                    guard await session(replayed).failures.contains(where: { $0.category == failure.category })
                    else { continue }
                    failures[index].perturbation = candidate.perturbation
                    failures[index].words = candidate.words
                    failures[index].replay = candidate.perturbation.token
                    failures[index].standsIn = candidate.session
                    break
                }
            }
            guard
                let smaller = await shrink(
                    failure.perturbation, failing: failure.category, configuration: configuration,
                    budget: options.shrinkBudget, session: session, shouldStop: shouldStop)
            else { continue }
            failures[index].shrunk = smaller.perturbation
            failures[index].shrunkWords = words(smaller.report, smaller.perturbation)
            failures[index].shrunkReplay = smaller.perturbation.token
        }
        return StressVerdict(
            seed: options.seed, sessions: ran, failed: failed,
            byCategory: order.map { StressVerdict.CategoryCount(category: $0, sessions: categories[$0]!) },
            failures: failures, responsesNotHeld: responsesNotHeld(configuration))
    }

    /// The smallest perturbation found (greedily, within `budget` sessions) that still fails in `category`, twice
    /// in a row.
    static func shrink(
        _ perturbation: Perturbation, failing category: FailureCategory, configuration: CheckConfiguration,
        budget: Int, session: @MainActor (CheckConfiguration) async -> SessionReport,
        shouldStop: @MainActor () -> Bool
    ) async -> (perturbation: Perturbation, report: SessionReport)? {
        var current = perturbation
        var best: (perturbation: Perturbation, report: SessionReport)?
        var left = budget
        var improved = true
        while improved, left > 0, !shouldStop() {
            improved = false
            for candidate in current.shrinkCandidates() {
                guard left > 0, !shouldStop() else { break }
                left -= 1
                var trial = configuration
                trial.perturbation = candidate
                let report = await session(trial)
                guard report.failures.contains(where: { $0.category == category }) else { continue }
                // A smaller perturbation sits nearer the edge of the race: it must fail twice to count, so the
                // token reported for it replays as reliably as the original's.
                left -= 1
                let again = await session(trial)
                if again.failures.contains(where: { $0.category == category }) {
                    current = candidate
                    best = (candidate, report)
                    improved = true
                    break
                }
            }
        }
        return best
    }

    /// How many later sessions of a distinct failure are kept to stand for it.
    static let standIns = 3

    /// Whether the page has a folder the check's loopback server can serve, or an `http:` origin it can forward
    /// to (its responses can be held).
    nonisolated static func servesPage(_ configuration: CheckConfiguration) -> Bool {
        switch configuration.page {
        case .html(_, let base?): base.isFileURL
        case .url(let url): LoopbackServer.forwards(url)
        case .html(_, nil): false
        }
    }

    /// Why a page fetched over the network has no response held: an `https:` page loads directly.
    nonisolated static func responsesNotHeld(_ configuration: CheckConfiguration) -> String? {
        guard case .url(let url) = configuration.page, url.scheme?.lowercased() == "https" else { return nil }
        return
            "an https: page loads directly (the check's loopback proxy holds http: pages only); every other kind applies"
    }

    /// Failures that differ only in numbers (times, counts) are one failure, whatever the page's URL in them
    /// and where the page's error was thrown (its URL differs between a served and an unserved page).
    nonisolated package static func failureKey(_ failure: BridgeFailure) -> String {
        let located = failure.detail.replacingOccurrences(
            of: #" \((file|https?|about):[^)]*\)"#, with: "", options: .regularExpression)
        return failure.category.rawValue + ":" + String(located.map { $0.isNumber ? "#" : $0 })
    }

    /// What the perturbation changed in the session, in words; its description when nothing was applied.
    package nonisolated static func words(_ report: SessionReport, _ perturbation: Perturbation) -> String {
        let applied = report.perturbed ?? []
        return applied.isEmpty ? perturbation.description : applied.joined(separator: "; ")
    }
}
