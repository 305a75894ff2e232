import BridgeContract
import Foundation

/// A run's report as one value: its pages with their sessions, and what ran them (the tool, the contract, the
/// shard). The JSON report is its encoding (schema 1, `Docs/report.schema.json`); `webbridge report merge` decodes
/// it back, and the text, JUnit and HTML renderers (BridgeReports) draw from the same pages, so a merged report
/// shows what one run over every page would have shown. A single page is a suite of one.
package struct RunReport: Sendable {
    /// The version of the JSON shape; a reader refuses any other.
    package static let schema = 1

    /// The contract the pages were checked against: reports of different contracts are never merged.
    package struct Contract: Sendable, Codable, Equatable {
        package let name: String
        package let version: Int

        package init(name: String, version: Int) {
            self.name = name
            self.version = version
        }

        package init(_ contract: BridgeContract) { self.init(name: contract.displayName, version: contract.version) }

        package var description: String { "'\(name)' v\(version)" }
    }

    /// One part of a sharded page list (`--shard index/count`).
    package struct Shard: Sendable, Codable, Hashable {
        package let index: Int
        package let count: Int
        /// The most parts a list is split into (`--shard I/N` takes N up to this).
        package static let maximumCount = 10_000

        package init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// Reads a shard only when 1 <= index <= count <= `maximumCount`: a report is input, and a count of 0 or
        /// 10^18 would crash or stall the merge that counts the missing parts.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let count = try container.decode(Int.self, forKey: .count)
            guard (1...Self.maximumCount).contains(count) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .count, in: container,
                    debugDescription:
                        "\(count) is not a shard count (the rule: 1 <= count <= \(Self.maximumCount), as --shard I/N takes N)"
                )
            }
            let index = try container.decode(Int.self, forKey: .index)
            guard (1...count).contains(index) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .index, in: container,
                    debugDescription: "\(index) is not a shard of \(count) (the rule: 1 <= index <= count)")
            }
            self.init(index: index, count: count)
        }

        package var description: String { "\(index)/\(count)" }
        /// `2 of 3`, as a missing shard is named.
        package var ofCount: String { "\(index) of \(count)" }
    }

    package var pages: [BridgeReport]
    package var contract: Contract
    /// The shards the report holds: none for a whole list, one for a shard's run, several once merged.
    package var shards: [Shard]
    /// Whether a signal stopped a run before every page was checked.
    package var interrupted: Bool
    /// Pages of the list that never ran (a signal stopped the run first), in list order.
    package var notRun: [String]
    /// The version of the tool that wrote the report.
    package var webbridgeVersion: String
    /// When the run started (the earliest start once merged).
    package var startedAt: Date
    /// Each step's timeout in seconds (the longest once merged runs differ).
    package var timeout: Double
    /// The engine that ran the pages (`EngineEnvironment.engineVersion`; each distinct one once merged).
    package var engine: String
    /// Each page's position (0-based) in the whole list, for shards balanced by `--durations`, whose pages are
    /// not every n-th: the merge puts them back by it. Nil for a whole list and a modulo shard.
    package var positions: [Int]?

    package init(
        pages: [BridgeReport], contract: Contract, shards: [Shard] = [], interrupted: Bool = false,
        notRun: [String] = [], webbridgeVersion: String = WebBridgeVersion.number, startedAt: Date = Date(),
        timeout: Double = CheckConfiguration.defaultTimeout, engine: String = "", positions: [Int]? = nil
    ) {
        self.pages = pages
        self.contract = contract
        self.shards = shards
        self.interrupted = interrupted
        self.notRun = notRun
        self.webbridgeVersion = webbridgeVersion
        self.startedAt = startedAt
        self.timeout = timeout
        self.engine = engine
        self.positions = positions
    }

    /// The pages that failed, in order.
    package var failedPages: [BridgeReport] { pages.filter { !$0.passed } }
    /// How many pages passed (a page with no finished session counts as passed here; `passed` says no verdict).
    package var passedPageCount: Int { pages.count - failedPages.count }

    /// Each failed category with the pages that failed in it (a page counts in each of its categories).
    package var failedByCategory: [(category: FailureCategory, pages: [String])] {
        FailureCategory.allCases.compactMap { category in
            let names = failedPages.filter { $0.failedCategories.contains(category) }.map(\.page)
            return names.isEmpty ? nil : (category, names)
        }
    }

    /// The parts of a `--shard` split this report lacks: none for a whole list or a complete split.
    package var missingShards: [Shard] {
        guard let count = shards.first?.count else { return [] }
        let present = Set(shards.map(\.index))
        return (1...count).filter { !present.contains($0) }.map { Shard(index: $0, count: count) }
    }

    /// Every page ran at least one session and passed, and no shard is missing: a run stopped before that, or a
    /// merge that lacks a part of the list, has no verdict, never a pass.
    package var passed: Bool {
        failedPages.isEmpty && notRun.isEmpty && missingShards.isEmpty && pages.allSatisfy { $0.sessionCount > 0 }
    }
}

// MARK: The JSON shape

extension RunReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case schema, webbridgeVersion, contract, shards, interrupted, notRun, passed, pageCount, passedPages
        case failedPages, failedByCategory, pages, startedAt, timeout, engine, positions
    }

    /// `startedAt` in JSON: ISO 8601 in UTC with milliseconds (`2026-12-03T09:28:22.512Z`).
    private static func dateFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// A failed category and how many pages failed in it.
    private struct CategoryCount: Codable {
        let category: FailureCategory
        let categoryText: String
        let pages: Int
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schema, forKey: .schema)
        try container.encode(webbridgeVersion, forKey: .webbridgeVersion)
        try container.encode(Self.dateFormatter().string(from: startedAt), forKey: .startedAt)
        try container.encode(timeout, forKey: .timeout)
        try container.encode(engine, forKey: .engine)
        try container.encodeIfPresent(positions, forKey: .positions)
        try container.encode(contract, forKey: .contract)
        try container.encode(shards, forKey: .shards)
        try container.encode(interrupted, forKey: .interrupted)
        try container.encode(notRun, forKey: .notRun)
        try container.encode(passed, forKey: .passed)
        try container.encode(pages.count, forKey: .pageCount)
        try container.encode(passedPageCount, forKey: .passedPages)
        try container.encode(failedPages.count, forKey: .failedPages)
        try container.encode(
            failedByCategory.map { CategoryCount(category: $0, categoryText: $0.rawValue, pages: $1.count) },
            forKey: .failedByCategory)
        try container.encode(pages.map(PageCoding.init), forKey: .pages)
    }

    /// Reads what `encode` wrote; the verdicts and counts are computed again from the pages, not trusted.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try container.decode(Int.self, forKey: .schema)
        guard schema == Self.schema else {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: container, debugDescription: "schema \(schema) is not schema \(Self.schema)")
        }
        let started = try container.decode(String.self, forKey: .startedAt)
        guard let startedAt = Self.dateFormatter().date(from: started) ?? ISO8601DateFormatter().date(from: started)
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .startedAt, in: container,
                debugDescription: "not an ISO 8601 date and time (the rule: e.g. 2026-12-03T09:28:22.512Z)")
        }
        let timeout = try container.decode(Double.self, forKey: .timeout)
        guard timeout > 0, timeout <= Self.longestTimeout else {
            throw DecodingError.dataCorruptedError(
                forKey: .timeout, in: container,
                debugDescription:
                    "\(timeout) is not a timeout (the rule: seconds, more than 0, at most \(Int(Self.longestTimeout)))")
        }
        let shards = try container.decode([Shard].self, forKey: .shards)
        let positions = try container.decodeIfPresent([Int].self, forKey: .positions)
        if let positions, positions.contains(where: { !(0..<Self.largestList).contains($0) }) {
            throw DecodingError.dataCorruptedError(
                forKey: .positions, in: container,
                debugDescription: "a position out of range (the rule: 0 <= position < \(Self.largestList))")
        }
        self.init(
            pages: try container.decode([PageCoding].self, forKey: .pages).map(\.report),
            contract: try container.decode(Contract.self, forKey: .contract),
            shards: shards,
            interrupted: try container.decode(Bool.self, forKey: .interrupted),
            notRun: try container.decodeIfPresent([String].self, forKey: .notRun) ?? [],
            webbridgeVersion: try container.decode(String.self, forKey: .webbridgeVersion),
            startedAt: startedAt, timeout: timeout, engine: try container.decode(String.self, forKey: .engine))
        self.positions = positions
        if let positions, positions.count != pages.count {
            throw DecodingError.dataCorruptedError(
                forKey: .positions, in: container,
                debugDescription: "\(positions.count) positions for \(pages.count) pages (the rule: one a page)")
        }
    }

    /// The most pages a list holds (positions are below it).
    package static let largestList = 1_000_000

    /// The longest timeout a report may record, in seconds (a day).
    package static let longestTimeout: Double = 86_400
}

/// A page in the JSON report: its `BridgeReport`, which stays free of a public `Codable` conformance (the JSON
/// shape is the tool's, not the library's API).
private struct PageCoding: Codable {
    let report: BridgeReport

    init(_ report: BridgeReport) { self.report = report }

    func encode(to encoder: any Encoder) throws { try report.encode(to: encoder) }

    init(from decoder: any Decoder) throws { report = try BridgeReport(from: decoder) }
}

extension BridgeReport {
    /// The largest count a report may hold (10^12): merged sums of such counts can't overflow.
    package static let largestCount = 1_000_000_000_000

    private enum CodingKeys: String, CodingKey {
        case page, passed, sessionCount, failedCount, omittedSessions, seconds, failedDirections, skippedDirections
        case failedCategories, sessions, stress, outcome, flaky
    }

    private struct Category: Codable {
        let category: FailureCategory
        let categoryText: String
    }

    /// A page as schema 1 writes it (`setupError` is `verifyBridge`'s and never in a run of the tool).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page, forKey: .page)
        try container.encode(passed, forKey: .passed)
        try container.encode(sessionCount, forKey: .sessionCount)
        try container.encode(failedCount, forKey: .failedCount)
        try container.encode(omitted, forKey: .omittedSessions)
        try container.encode(totalSeconds, forKey: .seconds)
        try container.encode(failedCases, forKey: .failedDirections)
        try container.encode(skippedCases, forKey: .skippedDirections)
        try container.encode(
            failedCategories.sorted { $0.rawValue < $1.rawValue }.map {
                Category(category: $0, categoryText: $0.rawValue)
            }, forKey: .failedCategories)
        try container.encode(kept, forKey: .sessions)
        try container.encodeIfPresent(stress, forKey: .stress)
        // Computed from the sessions, so a merge keeps them; read back by computing them again.
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(flaky, forKey: .flaky)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var tally = BridgeReport(page: try container.decode(String.self, forKey: .page))
        tally.sessionCount = try container.decode(Int.self, forKey: .sessionCount)
        tally.failedCount = try container.decode(Int.self, forKey: .failedCount)
        tally.totalSeconds = try container.decode(Double.self, forKey: .seconds)
        tally.failedCases = try container.decode(Int.self, forKey: .failedDirections)
        tally.skippedCases = try container.decode(Int.self, forKey: .skippedDirections)
        tally.failedCategories = try container.decode([Category].self, forKey: .failedCategories).map(\.category)
            .sorted { $0.rawValue < $1.rawValue }
        for (key, value) in [
            (CodingKeys.sessionCount, tally.sessionCount), (.failedCount, tally.failedCount),
            (.failedDirections, tally.failedCases), (.skippedDirections, tally.skippedCases),
        ] where !(0...Self.largestCount).contains(value) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(value) is not a count (the rule: 0 <= count <= \(Self.largestCount))")
        }
        guard tally.totalSeconds >= 0, tally.totalSeconds <= Double(Self.largestCount) else {
            throw DecodingError.dataCorruptedError(
                forKey: .seconds, in: container,
                debugDescription:
                    "\(tally.totalSeconds) is not a duration (the rule: seconds, 0 to \(Self.largestCount))")
        }
        tally.kept = try container.decode([Kept].self, forKey: .sessions)
        if let kept = tally.kept.first(where: { !(1...max(1, tally.sessionCount)).contains($0.session) }) {
            throw DecodingError.dataCorruptedError(
                forKey: .sessions, in: container,
                debugDescription:
                    "session \(kept.session) is not one of the page's \(tally.sessionCount) sessions (the rule: 1 <= session <= sessionCount)"
            )
        }
        tally.stress = try container.decodeIfPresent(StressVerdict.self, forKey: .stress)
        // Counts a renderer relies on (omitted sessions, the verdict) must agree with the sessions listed.
        let failedKept = tally.kept.count { !$0.report.passed }
        guard tally.kept.count <= tally.sessionCount, failedKept <= tally.failedCount,
            tally.failedCount <= tally.sessionCount, (tally.failedCount == 0) == tally.failedCategories.isEmpty
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .sessionCount, in: container,
                debugDescription:
                    "the counts (sessionCount \(tally.sessionCount), failedCount \(tally.failedCount), \(tally.failedCategories.count) failedCategories) do not fit the \(tally.kept.count) sessions listed (\(failedKept) failed)"
            )
        }
        self = tally
    }
}

extension BridgeReport.Kept: Codable {
    private enum CodingKeys: String, CodingKey { case session, passed }

    // The report's own fields, plus its number and verdict (decoding reads the number and the report).
    package func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(report.passed, forKey: .passed)
    }

    package init(from decoder: any Decoder) throws {
        let session = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .session)
        self.init(session: session, report: try SessionReport(from: decoder))
    }
}

/// In JSON a verdict is `{status, note, failure?}`; one that did not run is `not-run`: every status is an
/// identifier, as categories and rules are.
extension DirectionVerdict: Codable {
    private enum CodingKeys: String, CodingKey { case status, note, failure }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusIdentifier, forKey: .status)
        try container.encode(note, forKey: .note)
        try container.encodeIfPresent(failure, forKey: .failure)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let status = try container.decode(String.self, forKey: .status)
        switch status {
        case "pass": self = .pass(try container.decode(String.self, forKey: .note))
        case "not-run": self = .notRun(try container.decode(String.self, forKey: .note))
        case "fail": self = .fail(try container.decode(BridgeFailure.self, forKey: .failure))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "'\(status)' is not one of pass, fail, not-run")
        }
    }
}
