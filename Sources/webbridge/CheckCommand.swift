import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

/// `webbridge check`: both directions of the bridge on the real engine, each failure named.
enum CheckCommand {
    /// CheckConfiguration's own defaults (the timeout, the fixture style's value), read from its initializer so
    /// the command line never states them again.
    nonisolated static let defaults = CheckConfiguration(page: .html("", baseURL: nil))

    static let options = OptionTable(
        command: "webbridge check",
        options: [
            .value(
                "--page", "FILE|DIR",
                "HTML page to load (no network); a folder checks its *.html and *.htm files, sorted by name "
                    + "(subfolders are not searched)",
                default: .described("the bundled BridgeFixture.html"), repeatable: true),
            .value(
                "--url", "URL",
                "a deployed page to fetch instead; exit 4 when it cannot be fetched (DNS, refused, TLS, no response, "
                    + "HTTP status >= 400), exit 1 when it loads and breaks the contract or never finishes loading",
                repeatable: true),
            .value(
                "--pages", "LIST",
                "a file naming one page path or http(s) URL per line; blank lines and lines starting with # are "
                    + "skipped; relative paths resolve against LIST's folder",
                repeatable: true),
            .value("--contract", "FILE", "contract JSON", default: .described("the bundled default contract")),
            .value("--play", "FILE", "how native is played (the contract's \"check\" section format); overrides it"),
            .value(
                "--user-script", "SCRIPT",
                "a native-side script the app injects, before the page's own: FILE (document start, main frame), "
                    + "or end:FILE, start,all-frames:FILE, end,all-frames:FILE",
                repeatable: true),
            .value(
                "--value", "TEXT", "text sent as the sync message's value in the fixture style",
                default: .value(defaults.value)),
            .flag(
                "--console",
                "record every console level of the page (log, info, debug too); console.error, console.warn, uncaught errors and unhandled rejections are always recorded"
            ),
            .flag(
                "--lenient",
                "list unknown, invalid and duplicate page messages instead of failing on them, and ignore fields the contract does not declare"
            ),
            .value(
                "--timeout", "SECONDS", "how long each step may take: the load, each page message, each acceptance",
                rule: .seconds(maximum: 86_400),
                default: .value(String(format: "%g", CheckConfiguration.defaultTimeout))),
            .value(
                "--repeat", "N",
                "run N fresh sessions; the report keeps the counts, the first sessions and the first failures in full; "
                    + "a page whose sessions both failed and passed is flaky (see --retries)",
                rule: .integer(1...1_000_000_000), default: .value("1")),
            .value(
                "--retries", "N",
                "run a failing page again, up to N more sessions, until one passes; a page with failing and passing "
                    + "sessions (here or under --repeat) is flaky: the report says, for each failing session, which "
                    + "events came in another order than in the passing ones, with a --replay token that makes that "
                    + "order again (flaky is still exit 1)",
                rule: .integer(0...1_000), default: .value("0")),
            .value(
                "--stress", "N",
                "run N sessions of each page, each under its own seeded perturbation of the timings a remote machine "
                    + "changes (native slow or instant, a reload, the web process starved, the page's timers and "
                    + "responses late), then a stress verdict per page: failures by category, each with its "
                    + "perturbation in words, a --replay token, and the smallest perturbation found that still fails",
                rule: .integer(1...100_000)),
            .value(
                "--faults", "LIST",
                "with --stress, each stressed session also gets one of these faults of the handler's life cycle "
                    + "(drawn from the seed): the handler registered late, removed and added again, the bridge's "
                    + "script injected twice, a message delivered twice, the web process killed mid-call, "
                    + "evaluateJavaScript during a navigation; all: each of them in turn",
                rule: .list(LifecycleFault.Kind.available.map(\.rawValue) + ["all"])),
            .value(
                "--replay", "TOKEN",
                "run the perturbation of a stress failure again (the token its report printed); with --repeat N, "
                    + "N sessions under it"),
            .value(
                "--serve", "DIR",
                "serve DIR on a loopback HTTP port of the check's own for its run (ES modules, fetch); --page pages "
                    + "under DIR load with the server's address as their base; the server stops with the check"),
            .value(
                "--jobs", "N", "pages checked at once in a suite, each job with its own web process",
                rule: .integer(1...SuiteRun.maximumJobs),
                default: .described("2, or 1 on a 1-core machine, as measured")),
            .value(
                "--max-failures", "N",
                "start no further page of a suite once N pages failed; the rest are reported as not run",
                rule: .integer(1...PageList.maximum)),
            .value(
                "--durations", "REPORT",
                "with --shard: split the list by each page's time in the JSON report REPORT (a whole run's), so "
                    + "the shards take about as long; pages without a time are spread evenly"),
            .value(
                "--last-failed", "REPORT",
                "check only the pages the JSON report REPORT (the last run's --report json=FILE) failed or did not run"),
            .value(
                "--shard", "I/N",
                "check only part I of N of the page list (1-based): the pages whose position in the list, counted "
                    + "from 0 in command-line order with folders sorted, is I-1 modulo N; the N parts cover the list "
                    + "exactly once (for CI matrices)",
                rule: .pattern(rule: Shard.rule) { Shard($0) != nil }),
            .value(
                "--format", "FORMAT",
                "the report: text; json; junit (JUnit XML, one test case per direction; in a suite, one JSON entry "
                    + "and one JUnit <testsuite> per page); or html (one self-contained file: a summary and each "
                    + "session's sequence diagram)",
                rule: .choice(CheckOptions.Format.allCases.map(\.rawValue)), default: .value("text")),
            .value(
                "--reporter", "REPORTER",
                "how the text report prints pages: full (every page's block: its first session's timeline and "
                    + "verdicts), compact (one line a passing page, a failing one in full) or github (full, and an "
                    + "::error annotation per failed page at its file and line, for GitHub Actions)",
                rule: .choice(CheckOptions.Reporter.allCases.map(\.rawValue)),
                default: .described("compact for a suite on a terminal, else full")),
            .value(
                "--report", "KIND=FILE",
                "also write the run's report to FILE, beside the --format report on stdout: KIND junit, html or json "
                    + "(repeat for several, from the same run). An existing file is overwritten; a symbolic link, a "
                    + "folder, a file the check reads, or a folder that does not exist is refused before the check "
                    + "runs (exit 2); a report "
                    + "that cannot be written at the end is exit 3",
                rule: .pattern(rule: ReportTarget.rule) { ReportTarget($0) != nil }, repeatable: true),
            Output.colourOption,
        ])

    static let usage = options.help(
        """
        Loads the page in the real WebKit engine and checks both directions of the bridge: the page's
        messages reach native code with the contract's fields, and the page accepts what native sends.
        Native's side is played as the contract's "check" section (or --play FILE) declares; without one,
        the fixture style: the page's first message (ready), then, after didFinish, native's first message
        (sync), which the page must show in document.body.dataset.received.

        Several pages (--page and --url repeated, a folder, or a list) make a suite: one process and one
        engine, --jobs pages at once, each page in a fresh session with its own in-memory cookies, storage
        and cache (nothing is shared between pages). The contract, the play, --user-script, --value and
        --repeat apply to every page. The report has one block per page (in list order), then the pages
        passed and failed by category.
        """,
        epilogue: """
            EXIT CODES:
              0 pass, 1 contract failure (also a flaky page: some sessions failed, some passed), 2 usage (also a --page, --pages or --contract file that is missing or
              unreadable), 3 environment (also a report that can't be written), 4 page not deployed /
              request failed, 130/143/129/131 stopped by SIGINT/SIGTERM/SIGHUP/SIGQUIT after printing a partial
              summary, 141 standard output closed by its reader (`| head`).
              In a suite the worst case wins, in this order: 3 > 1 > 4 > 0 (4 only when every failure on
              every page is a page that could not be fetched).
            """)

    @MainActor
    static func run(_ argv: ArraySlice<String>) async -> ExitStatus {
        let options: CheckOptions
        switch Self.options.read(argv, help: usage) {
        case .exit(let status): return status
        case .options(let parsed):
            Output.chooseColour(parsed.value("--color"))
            do {
                options = try CheckOptions(parsed)
            } catch {
                return Self.options.usageError(error)
            }
        }

        // The display starts while the contract and the page are read.
        EngineEnvironment.beginPreparing()
        let configuration: CheckConfiguration
        var suite: SuiteRun?
        do {
            if options.isSuite {
                configuration = try options.baseConfiguration()
                suite = try SuiteRun(options: options, base: configuration)
            } else {
                configuration = try options.configuration()
            }
        } catch {
            printError("webbridge check: \(TerminalText.escapeLines("\(error)"))")
            return .usage
        }
        do {
            try EngineEnvironment.prepare()
        } catch {
            printError("webbridge check: \(error)")
            return .environment
        }
        if let suite { return await suite.run() }

        var reporter = CheckReporter(format: options.format, pageName: options.pageName, configuration: configuration)
        reporter.reports = options.reports
        reporter.pagePath = options.entries[0].name
        reporter.compact = options.reporter == .compact
        reporter.annotates = options.reporter == .github ? options.entries[0] : nil
        reporter.begin()
        let run = CheckRun(reporter: reporter, total: options.stress?.sessions ?? options.repeatCount)
        SignalWatcher.install(run.interrupted)
        // A closed or full stdout (`| head -1`, a full disk) ends the run: no one can read its report.
        let stress = await PageRun.run(
            configuration, count: options.repeatCount, retries: options.retries, record: run.record,
            shouldStop: { Output.standardOutputFailed })
        if let stress { run.record(stress: stress) }
        return run.finish()
    }

    /// Exit 4 only when the page could not be fetched; any broken contract is exit 1.
    static func exitStatus(_ reports: [SessionReport]) -> ExitStatus {
        exitStatus(BridgeReport(sessions: reports))
    }

    /// Exit 4 only when every failure was a page that could not be fetched; any broken contract is exit 1.
    static func exitStatus(_ tally: BridgeReport) -> ExitStatus {
        if tally.passed { return .pass }
        return tally.onlyUnreachable ? .pageUnreachable : .contractFailure
    }
}
