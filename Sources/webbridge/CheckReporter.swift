import BridgeContract
import BridgeReports
import BridgeTesting
import Foundation

/// Prints the check's progress and verdict in the chosen format, unbuffered (see `Output`).
struct CheckReporter {
    let format: CheckOptions.Format
    let pageName: String
    let configuration: CheckConfiguration
    /// Where the text goes: standard output, or a suite's buffer for the page's block.
    var emit: @MainActor (String) -> Void = { Output.report($0) }
    /// The compact reporter: passing sessions are counted, not printed; failures are printed in full.
    var compact = false
    /// When the run started, for the reports' metadata.
    var startedAt = Date()
    /// `--reporter github`: the page whose failure the text report also prints as a GitHub annotation.
    var annotates: PageEntry?

    @MainActor
    func begin() {
        guard format == .text else { return }
        let contract = configuration.contract
        emit(
            "webbridge check: \(pageName), contract '\(TerminalText.escape(contract.displayName))' v\(contract.version), timeout \(BridgeCheck.seconds(configuration.timeout))\(timing), \(WebBridgeVersion.tool)"
        )
    }

    /// The header's note on a stressed or replayed run.
    private var timing: String {
        if let stress = configuration.stress { return ", \(stress.sessions) stressed sessions (seed \(stress.seed))" }
        if let replay = configuration.perturbation { return ", replaying: \(TerminalText.line(replay.description))" }
        return ""
    }

    @MainActor
    func session(_ index: Int, _ report: SessionReport, verbose: Bool) {
        guard format == .text, verbose, !(compact && report.passed) else { return }
        emit(report.text(session: index))
        // Once a run: a hidden error the engine's console could have shown, had its extension been found.
        let hidden = PageDiagnostic.Kind.uncaughtError.rawValue + ": Script error. ("
        if !Self.saidConsoleUnavailable, let unavailable = EngineConsole.unavailable,
            report.timeline.contains(where: { $0.event == .pageReported && $0.note.hasPrefix(hidden) })
        {
            Self.saidConsoleUnavailable = true
            emit("note: \(unavailable)")
        }
    }

    @MainActor private static var saidConsoleUnavailable = false

    /// The page as the list names it (its path as given, a URL's host and path), for JUnit's suite and classname.
    var pagePath: String?
    /// Report files written at the end (`--report`), beside the report on stdout.
    var reports: [ReportTarget] = []

    /// Prints the verdict and writes the report files; false when a report file could not be written.
    func end(_ tally: BridgeReport) -> Bool {
        if format == .text {
            Output.report(TextReport.render(run(tally), TextReport.Options(page: true)))
            if let entry = annotates,
                let line = GitHubAnnotations.annotation(
                    page: pagePath ?? pageName, file: entry.annotationFile, tally: tally)
            {
                Output.out(line)
            }
        } else {
            Output.out(document(format, tally))
        }
        return ReportTarget.writeAll(reports) { document($0, tally) }
    }

    /// The run of this one page as a report: a single page is a run of one, rendered as a suite's is.
    /// - Parameter named: the page's name in the report; the path as given unless named otherwise.
    func run(_ tally: BridgeReport, named: String? = nil, interrupted: Bool = false) -> RunReport {
        var page = tally
        page.page = named ?? pagePath ?? pageName
        return RunReport(
            pages: [page],
            contract: RunReport.Contract(configuration.contract), interrupted: interrupted, startedAt: startedAt,
            timeout: configuration.timeout, engine: EngineEnvironment.engineVersion)
    }

    /// The whole report over `tally` in a document format (json, junit, html), `notice` saying why it is partial.
    func document(_ format: CheckOptions.Format, _ tally: BridgeReport, notice: String? = nil) -> String {
        switch format {
        case .text: TextReport.render(run(tally), TextReport.Options(page: true, explainsFlaky: false))
        case .json: JSONReport.render(run(tally, interrupted: notice != nil))
        case .junit: JUnitReport.render(run(tally))
        case .html:
            // Named as the header names it: the file name (or a URL's host), not the path as given.
            HTMLReport.render(run(tally, named: pageName), HTMLReport.Options(title: pageName, notice: notice))
        }
    }

    /// What was done before a signal stopped the run: the sessions so far and a partial summary, and the report
    /// files with what finished.
    func interrupted(_ tally: BridgeReport, of total: Int, signal: Int32) {
        let name = SignalWatcher.name(signal)
        // No session finished: there is no verdict, and a summary of nothing would read as a pass.
        let note =
            tally.sessionCount == 0
            ? "interrupted by \(name) before the first of \(total == 1 ? "1 session" : "\(total) sessions") finished"
            : "interrupted by \(name) after \(tally.sessionCount) of \(total) sessions"
        switch format {
        case .text:
            Output.report(
                tally.sessionCount == 0
                    ? "INTERRUPTED: \(note); no verdict"
                    : "INTERRUPTED: \(note); so far: \(document(.text, tally)); did not run: \(total - tally.sessionCount) of \(total)"
            )
        case .json, .html: Output.out(document(format, tally, notice: note))
        case .junit:
            Output.out(document(format, tally, notice: note))
            printError("webbridge check: \(note); the report holds the sessions that finished")
        }
        ReportTarget.writeAll(reports) { document($0, tally, notice: note) }
    }
}

/// One run of the check: the bounded tally, the progress line, and the sessions printed in full.
@MainActor
final class CheckRun {
    /// Failed sessions after the first printed in full in text; the rest are counted in the summary.
    static let printedFailures = 20

    let reporter: CheckReporter
    let total: Int
    private(set) var tally = BridgeReport()
    private let progress: ProgressLine
    private var printedFailures = 0

    /// - Parameter showsProgress: false in a suite, whose progress line counts pages instead.
    init(reporter: CheckReporter, total: Int, showsProgress: Bool = true) {
        self.reporter = reporter
        self.total = total
        progress = ProgressLine(total: showsProgress ? total : 0, waitingOn: reporter.pageName)
    }

    /// Counts a finished session and prints it when it is the first, the only, or one of the first failures.
    func record(_ report: SessionReport) {
        // A session a signal cut short (its web process killed with us) is not a verdict.
        SignalWatcher.checkpoint()
        tally.add(report)
        let index = tally.sessionCount
        var verbose = index == 1 || total == 1
        if !report.passed && !verbose {
            printedFailures += 1
            verbose = printedFailures <= CheckRun.printedFailures
            if printedFailures == CheckRun.printedFailures + 1, reporter.format == .text {
                reporter.emit("(further failed sessions are counted in the summary, not printed)")
            }
        }
        reporter.session(index, report, verbose: verbose)
        progress.update(done: index, failed: tally.failedCount)
    }

    /// Keeps the stress verdict for every report, and prints it before the summary in text.
    func record(stress verdict: StressVerdict) {
        tally.stress = verdict
        if reporter.format == .text { reporter.emit(verdict.lines.joined(separator: "\n")) }
    }

    /// Prints the verdict over every session and returns the exit status.
    func finish() -> ExitStatus {
        SignalWatcher.checkpoint()
        progress.finish()
        // A report file that could not be written is exit 3, as a report lost on stdout is.
        guard reporter.end(tally) else { return .environment }
        return CheckCommand.exitStatus(tally)
    }

    /// Prints what was done when a signal stops the run.
    func interrupted(_ signal: Int32) {
        progress.finish()
        reporter.interrupted(tally, of: total, signal: signal)
    }
}
