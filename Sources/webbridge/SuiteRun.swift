import BridgeContract
import BridgeReports
import BridgeTesting
import Foundation

/// A suite: many pages in one process and one engine, `jobs` at a time, each page in its own fresh session.
///
/// Blocks print in page order as pages finish, whatever order they finish in, so the output is reproducible.
@MainActor
final class SuiteRun {
    /// The most pages checked at once.
    nonisolated static let maximumJobs = 64
    /// Pages checked at once by default: two lanes on 2 cores beat one by about 15 % on a quiet machine, three
    /// gain nothing more and four lose (Docs/BENCHMARKS.md); a 1-core machine gets one.
    nonisolated static var defaultJobs: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// A page to check: its name, where it comes from, and its result once finished.
    private struct Page {
        let name: String
        let entry: PageEntry
        var tally: BridgeReport?
        var block: [String] = []
    }

    private let options: CheckOptions
    private let base: CheckConfiguration
    private let jobs: Int
    /// Pages in the whole list before `--shard`, for the header.
    private let listed: Int
    private var pages: [Page]
    private var nextToStart = 0
    private var nextToPrint = 0
    private var done = 0
    private var failed = 0
    /// Pages started and not finished, for the progress line's "waiting on".
    private var running: Set<Int> = []
    private let progress: ProgressLine
    /// When the suite started, for the reports' metadata.
    private let startedAt = Date()

    /// Reads every page first, so a missing or undecodable file is a usage error before any page runs; the text is
    /// dropped at once and read again when the page's turn comes, so memory holds one page per lane, not the list.
    init(options: CheckOptions, base: CheckConfiguration) throws {
        self.options = options
        self.base = base
        let selected = options.selectedEntries
        pages = try zip(selected, PageEntry.names(selected)).map { entry, name in
            _ = try options.pageSource(entry)
            return Page(name: name, entry: entry)
        }
        listed = options.entries.count
        jobs = max(1, min(options.jobs ?? SuiteRun.defaultJobs, selected.count))
        progress = ProgressLine(total: selected.count, unit: "page")
    }

    /// Checks every page, prints the blocks and the summary, and returns the worst page's exit status.
    func run() async -> ExitStatus {
        if options.format == .text { Output.report(header) }
        SignalWatcher.install(interrupted)
        // Workers on the main actor, as sessions are: they interleave while each waits for the engine.
        // Each worker is a lane with its own in-memory store (and so its own web process), emptied before each
        // session: pages share no cookies, storage or cache, and a page that hangs its process stops no other.
        let workers = (0..<jobs).map { _ in
            Task { @MainActor in
                let lane = CheckLane()
                while let index = self.take() { await self.check(index, lane: lane) }
            }
        }
        for worker in workers { await worker.value }
        SignalWatcher.checkpoint()
        progress.finish()
        // Pages `--max-failures` kept from starting are not run, as a signal's are.
        let suite = report()
        if options.format == .text {
            for index in nextToPrint..<pages.count { printBlock(index) }
            Output.report(suite.document(options.format))
            if let limit = options.maxFailures, !suite.notRun.isEmpty {
                Output.report(
                    "stopped after \(limit == 1 ? "1 failed page" : "\(limit) failed pages") (--max-failures \(limit)): "
                        + "\(suite.notRun.count == 1 ? "1 page" : "\(suite.notRun.count) pages") not run")
            }
            if options.reporter == .github {
                for page in pages {
                    guard let tally = page.tally,
                        let line = GitHubAnnotations.annotation(
                            page: page.name, file: page.entry.annotationFile, tally: tally)
                    else { continue }
                    Output.out(line)
                }
            }
        } else {
            Output.out(suite.document(options.format))
        }
        // A report file that could not be written is exit 3, as a report lost on stdout is.
        guard ReportTarget.writeAll(options.reports, { suite.document($0) }) else { return .environment }
        return CheckCommand.exitStatus(suite)
    }

    /// The suite as one report: the finished pages in page order, the others as not run (a signal or
    /// `--max-failures` stopped them).
    private func report(interrupted: Bool = false) -> RunReport {
        RunReport(
            pages: pages.compactMap(\.tally), contract: RunReport.Contract(base.contract),
            shards: options.shard.map { [RunReport.Shard(index: $0.index, count: $0.count)] } ?? [],
            interrupted: interrupted, notRun: pages.filter { $0.tally == nil }.map(\.name), startedAt: startedAt,
            timeout: base.timeout, engine: EngineEnvironment.engineVersion,
            // A balanced shard's pages are not every n-th: the merge places them by their list positions.
            positions: options.durations == nil
                ? nil : zip(options.selectedPositions, pages).filter { $0.1.tally != nil }.map(\.0))
    }

    private var header: String {
        let contract = base.contract
        let count = pages.count == 1 ? "1 page" : "\(pages.count) pages"
        let shard = options.shard.map { ", shard \($0.description) of \(listed)" } ?? ""
        let repeats =
            options.stress.map { ", \($0.sessions) stressed sessions each" }
            ?? (options.repeatCount > 1 ? ", \(options.repeatCount) sessions each" : "")
        return
            "webbridge check: \(count)\(shard), contract '\(TerminalText.escape(contract.displayName))' v\(contract.version), timeout \(BridgeCheck.seconds(base.timeout)), \(jobs) at once\(repeats), \(WebBridgeVersion.tool)"
    }

    /// The next page to start, or nil when all have started or the output is gone.
    private func take() -> Int? {
        // A closed or full stdout ends the run: no one can read its report.
        guard nextToStart < pages.count, !Output.standardOutputFailed else { return nil }
        if let limit = options.maxFailures, failed >= limit { return nil }
        defer { nextToStart += 1 }
        return nextToStart
    }

    /// Runs one page's sessions in fresh sessions of its own and keeps its block for printing in order.
    private func check(_ index: Int, lane: CheckLane) async {
        var configuration = base
        // Read at its turn; one that changed since the start so that it can't be read fails as a page.
        let unreadable: (any Error)?
        do {
            configuration.page = try options.pageSource(pages[index].entry)
            unreadable = nil
        } catch {
            unreadable = error
        }
        let buffer = BlockBuffer()
        var reporter = CheckReporter(format: options.format, pageName: pages[index].name, configuration: configuration)
        reporter.emit = { buffer.lines.append($0) }
        reporter.compact = options.reporter == .compact
        running.insert(index)
        showWaiting()
        let run = CheckRun(
            reporter: reporter, total: options.stress?.sessions ?? options.repeatCount, showsProgress: false)
        if let unreadable {
            run.record(.pageNotRead("the page file changed after the run started: \(unreadable)"))
        } else {
            let stress = await PageRun.run(
                configuration, count: options.repeatCount, retries: options.retries,
                session: { await lane.run($0) }, record: run.record, shouldStop: { Output.standardOutputFailed })
            if let stress { run.record(stress: stress) }
        }
        var finished = run.tally
        finished.page = pages[index].name
        pages[index].tally = finished
        pages[index].block = buffer.lines
        done += 1
        if !run.tally.passed { failed += 1 }
        running.remove(index)
        printFinishedInOrder()
        showWaiting()
        progress.update(done: done, failed: failed)
    }

    /// Names on the progress line the first running page: the one the next printed block waits for.
    private func showWaiting() {
        progress.waitingOn = running.min().map { pages[$0].name }
    }

    /// Prints every finished block that no unfinished page precedes.
    private func printFinishedInOrder() {
        while nextToPrint < pages.count, pages[nextToPrint].tally != nil {
            printBlock(nextToPrint)
            nextToPrint += 1
        }
    }

    private func printBlock(_ index: Int) {
        guard options.format == .text, let tally = pages[index].tally else { return }
        let title = "page \(index + 1) of \(pages.count): \(pages[index].name)"
        if options.reporter == .compact, tally.passed {
            // One line a passing page; a failing one is printed in full.
            let sessions = tally.sessionCount == 1 ? "1 session" : "\(tally.sessionCount) sessions"
            Output.report("PASS  \(title) (\(sessions))")
            pages[index].block = []
            return
        }
        let closing = TextReport.render(
            RunReport(pages: [tally], contract: RunReport.Contract(base.contract)), TextReport.Options(page: true))
        let lines = ["== \(title)"] + pages[index].block + [closing]
        Output.report(lines.joined(separator: "\n"))
        // Printed text is not needed again: the summary uses the tally.
        pages[index].block = []
    }

    /// What was done when a signal stops the suite: the finished pages' blocks, then a partial summary.
    private func interrupted(_ signal: Int32) {
        progress.finish()
        let name = SignalWatcher.name(signal)
        let suite = report(interrupted: true)
        let note = "interrupted by \(name) after \(suite.pages.count) of \(pages.count) pages"
        switch options.format {
        case .text:
            // Pages that finished after one still running are printed too; the running ones are not reported.
            for index in nextToPrint..<pages.count { printBlock(index) }
            // The last line says what ran and what did not: a stopped run never ends on a verdict's line.
            let failed = suite.failedPages.count
            Output.report(
                "INTERRUPTED: \(note); so far:\n\(suite.document(.text))\nINTERRUPTED by \(name): "
                    + "\(suite.pages.count) of \(pages.count) pages ran (\(suite.pages.count - failed) passed, \(failed) failed), "
                    + "\(suite.notRun.count) did not run")
        case .json, .html: Output.out(suite.document(options.format, notice: "INTERRUPTED: \(note)"))
        case .junit:
            Output.out(suite.document(options.format, notice: "INTERRUPTED: \(note)"))
            printError("webbridge check: \(note); the report holds the pages that finished")
        }
        ReportTarget.writeAll(options.reports) { suite.document($0, notice: "INTERRUPTED: \(note)") }
    }
}

/// A page's text block, filled while its sessions run.
@MainActor
private final class BlockBuffer {
    var lines: [String] = []
}

extension CheckCommand {
    /// The worst page wins: any broken contract is 1; 4 only when every failure on every page is unreachable.
    static func exitStatus(_ suite: RunReport) -> ExitStatus {
        let statuses = suite.pages.map { exitStatus($0) }
        if statuses.contains(.contractFailure) { return .contractFailure }
        if statuses.contains(.pageUnreachable) { return .pageUnreachable }
        return .pass
    }
}
