import BridgeContract
import Foundation

/// A run's report as one value: its pages with their sessions, and what ran them (the tool, the contract, the
/// shard). The JSON report is its encoding (schema 1, `Docs/report.schema.json`); `webbridge report merge` decodes
/// it back, and the text, JUnit and HTML renderers draw from the same pages, so a merged report shows what one run
/// over every page would have shown. A single page is a suite of one.
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

        package init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        package var description: String { "\(index)/\(count)" }
    }

    package var pages: [PageTally]
    package var contract: Contract
    /// The shards the report holds: none for a whole list, one for a shard's run, several once merged.
    package var shards: [Shard]
    /// Whether a signal stopped a run before every page was checked.
    package var interrupted: Bool
    /// Pages of the list that never ran (a signal stopped the run first), in list order.
    package var notRun: [String]
    /// The version of the tool that wrote the report.
    package var webbridgeVersion: String

    package init(
        pages: [PageTally], contract: Contract, shards: [Shard] = [], interrupted: Bool = false,
        notRun: [String] = [], webbridgeVersion: String = WebBridgeVersion.number
    ) {
        self.pages = pages
        self.contract = contract
        self.shards = shards
        self.interrupted = interrupted
        self.notRun = notRun
        self.webbridgeVersion = webbridgeVersion
    }

    package var suite: SuiteTally { SuiteTally(pages, notRun: notRun) }

    /// Every page ran at least one session and passed: a run stopped before that has no verdict, never a pass.
    package var passed: Bool { suite.passed && notRun.isEmpty && pages.allSatisfy { $0.tally.count > 0 } }
}

// MARK: The JSON shape

extension RunReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case schema, webbridgeVersion, contract, shards, interrupted, notRun, passed, pageCount, passedPages
        case failedPages, failedByCategory, pages
    }

    /// A failed category and how many pages failed in it.
    private struct CategoryCount: Codable {
        let category: FailureCategory
        let categoryText: String
        let pages: Int
    }

    package func encode(to encoder: any Encoder) throws {
        let suite = suite
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schema, forKey: .schema)
        try container.encode(webbridgeVersion, forKey: .webbridgeVersion)
        try container.encode(contract, forKey: .contract)
        try container.encode(shards, forKey: .shards)
        try container.encode(interrupted, forKey: .interrupted)
        try container.encode(notRun, forKey: .notRun)
        try container.encode(passed, forKey: .passed)
        try container.encode(pages.count, forKey: .pageCount)
        try container.encode(suite.passedCount, forKey: .passedPages)
        try container.encode(suite.failedPages.count, forKey: .failedPages)
        try container.encode(
            suite.failedByCategory.map { CategoryCount(category: $0, categoryText: $0.rawValue, pages: $1.count) },
            forKey: .failedByCategory)
        try container.encode(pages, forKey: .pages)
    }

    /// Reads what `encode` wrote; the verdicts and counts are computed again from the pages, not trusted.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try container.decode(Int.self, forKey: .schema)
        guard schema == Self.schema else {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: container, debugDescription: "schema \(schema) is not schema \(Self.schema)")
        }
        self.init(
            pages: try container.decode([PageTally].self, forKey: .pages),
            contract: try container.decode(Contract.self, forKey: .contract),
            shards: try container.decode([Shard].self, forKey: .shards),
            interrupted: try container.decode(Bool.self, forKey: .interrupted),
            notRun: try container.decodeIfPresent([String].self, forKey: .notRun) ?? [],
            webbridgeVersion: try container.decode(String.self, forKey: .webbridgeVersion))
    }
}

extension PageTally: Codable {
    private enum CodingKeys: String, CodingKey {
        case page, passed, sessionCount, failedCount, omittedSessions, seconds, failedDirections, skippedDirections
        case failedCategories, sessions, stress
    }

    private struct Category: Codable {
        let category: FailureCategory
        let categoryText: String
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .page)
        try container.encode(tally.passed, forKey: .passed)
        try container.encode(tally.count, forKey: .sessionCount)
        try container.encode(tally.failedCount, forKey: .failedCount)
        try container.encode(tally.omitted, forKey: .omittedSessions)
        try container.encode(tally.totalSeconds, forKey: .seconds)
        try container.encode(tally.failedCases, forKey: .failedDirections)
        try container.encode(tally.skippedCases, forKey: .skippedDirections)
        try container.encode(
            tally.failedCategories.map { Category(category: $0, categoryText: $0.rawValue) }, forKey: .failedCategories)
        try container.encode(tally.kept, forKey: .sessions)
        try container.encodeIfPresent(tally.stress, forKey: .stress)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var tally = SessionTally()
        tally.count = try container.decode(Int.self, forKey: .sessionCount)
        tally.failedCount = try container.decode(Int.self, forKey: .failedCount)
        tally.totalSeconds = try container.decode(Double.self, forKey: .seconds)
        tally.failedCases = try container.decode(Int.self, forKey: .failedDirections)
        tally.skippedCases = try container.decode(Int.self, forKey: .skippedDirections)
        tally.failedCategories = try container.decode([Category].self, forKey: .failedCategories).map(\.category)
            .sorted { $0.rawValue < $1.rawValue }
        tally.onlyUnreachable = tally.failedCategories.allSatisfy { $0 == .pageUnreachable }
        tally.kept = try container.decode([SessionTally.Kept].self, forKey: .sessions)
        tally.stress = try container.decodeIfPresent(StressVerdict.self, forKey: .stress)
        // Counts a renderer relies on (omitted sessions, the verdict) must agree with the sessions listed.
        let failedKept = tally.kept.count { !$0.report.passed }
        guard tally.kept.count <= tally.count, failedKept <= tally.failedCount, tally.failedCount <= tally.count,
            (tally.failedCount == 0) == tally.failedCategories.isEmpty
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .sessionCount, in: container,
                debugDescription:
                    "the counts (sessionCount \(tally.count), failedCount \(tally.failedCount), \(tally.failedCategories.count) failedCategories) do not fit the \(tally.kept.count) sessions listed (\(failedKept) failed)"
            )
        }
        self.init(name: try container.decode(String.self, forKey: .page), tally: tally)
    }
}

extension SessionTally.Kept: Decodable {
    private enum KeptKeys: String, CodingKey { case session }

    package init(from decoder: any Decoder) throws {
        let session = try decoder.container(keyedBy: KeptKeys.self).decode(Int.self, forKey: .session)
        self.init(session: session, report: try SessionReport(from: decoder))
    }
}

/// In JSON a verdict that did not run is `not-run`: every status is an identifier, as categories and rules are.
extension DirectionVerdict.Status {
    private static let identifiers: [(Self, String)] = [(.pass, "pass"), (.fail, "fail"), (.notRun, "not-run")]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.identifiers.first { $0.0 == self }!.1)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let status = Self.identifiers.first(where: { $0.1 == text })?.0 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not one of pass, fail, not-run")
        }
        self = status
    }
}

extension ReportRendering {
    /// The run as the JSON report (schema 1): pretty-printed, keys sorted.
    package static func json(_ report: RunReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self)
    }
}
