import BridgeTesting
import Foundation

/// A suite of 100 fixture-like pages: one `webbridge check` over their folder (`--jobs` 1, 2 and the default),
/// against the same pages as 100 separate runs; and resident memory over the pages of one lane.
@MainActor
enum SuiteBench {
    nonisolated static let pages = 100

    /// The fixture with its ready's version sent as text: a page strict mode fails at its first message.
    nonisolated static func broken(_ fixture: String) throws -> String {
        let version = "version: 1"
        guard fixture.contains(version) else { throw BenchFailure("the fixture's ready has no `\(version)`") }
        return fixture.replacingOccurrences(of: version, with: #"version: "1""#)
    }

    /// The pages: the fixture, each with its own comment so no two documents are the same text; with `broken`,
    /// the middle page breaks the contract.
    static func folder(fixture: String, broken: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-suite-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 1...pages {
            let page = broken && index == pages / 2 ? try Self.broken(fixture) : fixture
            try (page + "<!-- page \(index) -->\n").write(
                to: folder.appendingPathComponent(String(format: "page%03d.html", index)), atomically: true,
                encoding: .utf8)
        }
        return folder
    }

    /// Launch to exit of `webbridge check --page FOLDER` per `--jobs` (nil: the default), alternated `runs` times,
    /// DISPLAY unset as in the cold check; then the 100 pages as 100 runs. Every run must pass.
    static func wallTimes(
        webbridge: String, fixture: String, folder: URL, runs: Int, timeout: Double, into report: inout BenchReport
    ) async throws {
        var samples: [String: [Double]] = [:]
        let variants: [(String, [String])] = [
            ("jobs1", ["--jobs", "1"]), ("jobs2", ["--jobs", "2"]), ("default", []),
        ]
        for _ in 1...runs {
            for (name, extra) in variants {
                let outcome = try await ChildProcess.run(
                    webbridge, ["check", "--page", folder.path] + extra, unset: ["DISPLAY"], timeout: timeout * 10)
                guard outcome.status == 0, outcome.output.contains("pages: \(pages) passed, 0 failed") else {
                    throw BenchFailure("the suite (\(name)) exited \(outcome.status):\n\(outcome.output.suffix(2_000))")
                }
                samples[name, default: []].append(outcome.seconds)
            }
        }
        for (name, _) in variants { report["suite_\(pages)_\(name)_s"] = Statistics.median(samples[name] ?? []) }

        // The same suite with one page broken: its verdict comes at its rejection, so the suite barely slows.
        let brokenFolder = try Self.folder(fixture: fixture, broken: true)
        defer { try? FileManager.default.removeItem(at: brokenFolder) }
        var brokenSamples: [Double] = []
        for _ in 1...runs {
            let outcome = try await ChildProcess.run(
                webbridge, ["check", "--page", brokenFolder.path], unset: ["DISPLAY"], timeout: timeout * 10)
            guard outcome.status == 1, outcome.output.contains("pages: \(pages - 1) passed, 1 failed") else {
                throw BenchFailure(
                    "the suite with one broken page exited \(outcome.status):\n\(outcome.output.suffix(2_000))")
            }
            brokenSamples.append(outcome.seconds)
        }
        report["suite_\(pages)_one_broken_s"] = Statistics.median(brokenSamples)
        if let broken = report["suite_\(pages)_one_broken_s"], let passing = report["suite_\(pages)_default_s"],
            passing > 0
        {
            report["suite_one_broken_ratio"] = broken / passing
        }
        report["suite_ms_per_page"] = report["suite_\(pages)_default_s"].map { $0 * 1000 / Double(pages) }
        report.details["suite_runs_s"] = samples.mapValues { $0.map(BenchReport.rounded) }

        var separate = 0.0
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for file in files {
            let outcome = try await ChildProcess.run(
                webbridge, ["check", "--page", folder.appendingPathComponent(file).path], unset: ["DISPLAY"],
                timeout: timeout)
            guard outcome.status == 0 else {
                throw BenchFailure("the separate run of \(file) exited \(outcome.status)")
            }
            separate += outcome.seconds
        }
        report["suite_\(pages)_separate_s"] = separate
        if let suite = report["suite_\(pages)_default_s"], suite > 0 { report["suite_speedup"] = separate / suite }
    }

    /// This process's RSS after 10 pages and after 100 in one lane (what a suite's worker runs): flat when no
    /// page leaves anything behind.
    static func memory(fixture: String, timeout: Double, into report: inout BenchReport) async throws {
        let lane = CheckLane()
        var afterTen: Double?
        for index in 1...pages {
            let configuration = CheckConfiguration(
                page: .html(fixture + "<!-- page \(index) -->\n", baseURL: nil), timeout: timeout)
            let result = await lane.run(configuration)
            guard result.passed else {
                throw BenchFailure(
                    "suite page \(index) failed: " + result.failures.map(\.description).joined(separator: "; "))
            }
            if index == 10 { afterTen = ResidentMemory.megabytes() }
        }
        let end = ResidentMemory.megabytes()
        report["suite_rss_end_mb"] = end
        if let afterTen, let end { report["suite_rss_growth_mb"] = end - afterTen }
    }

    /// The table's rows for the suite figures.
    nonisolated static func rows(_ report: BenchReport) -> [String] {
        func cell(_ key: String, _ digits: Int) -> String {
            report[key].map { String(format: "%.\(digits)f", $0) } ?? "—"
        }
        return [
            "suite of \(pages) pages, launch to summary s: --jobs 1 \(cell("suite_\(pages)_jobs1_s", 2)), "
                + "--jobs 2 \(cell("suite_\(pages)_jobs2_s", 2)), default \(cell("suite_\(pages)_default_s", 2))",
            "  with one page broken (default) \(cell("suite_\(pages)_one_broken_s", 2)) s "
                + "(\(cell("suite_one_broken_ratio", 2))× the all-pass suite)",
            "  ms per page (default, amortised) \(cell("suite_ms_per_page", 1)); "
                + "\(pages) separate runs \(cell("suite_\(pages)_separate_s", 2)) s (\(cell("suite_speedup", 1))×)",
            "  RSS after \(pages) pages in one lane \(cell("suite_rss_end_mb", 1)) MB, "
                + "growth from page 10 \(cell("suite_rss_growth_mb", 2)) MB",
            "  the Selenium peer, \(pages) pages: a WebDriver session each \(cell("peer_suite_\(pages)_fresh_s", 2)) s "
                + "(\(cell("suite_vs_peer", 1))× the suite's time); one session for all "
                + "\(cell("peer_suite_\(pages)_s", 2)) s (\(cell("suite_vs_peer_reused", 1))×)",
        ]
    }
}
