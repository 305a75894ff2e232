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
                "run N fresh sessions; the report keeps the counts, the first sessions and the first failures in full",
                rule: .integer(1...1_000_000_000), default: .value("1")),
            .value(
                "--stress", "N",
                "run N sessions of each page, each under its own seeded perturbation of the timings a remote machine "
                    + "changes (native slow or instant, a reload, the web process starved, the page's timers and "
                    + "responses late), then a stress verdict per page: failures by category, each with its "
                    + "perturbation in words, a --replay token, and the smallest perturbation found that still fails",
                rule: .integer(1...100_000)),
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
              0 pass, 1 contract failure, 2 usage (also a --page, --pages or --contract file that is missing or
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
        if let stress = options.stress {
            let verdict = await StressRun.run(
                configuration, options: stress, record: run.record, shouldStop: { Output.standardOutputFailed })
            run.record(stress: verdict)
            return run.finish()
        }
        for _ in 1...options.repeatCount where !Output.standardOutputFailed {
            let report = await BridgeCheck.run(configuration)
            run.record(report)
        }
        return run.finish()
    }

    /// Exit 4 only when the page could not be fetched; any broken contract is exit 1.
    static func exitStatus(_ reports: [SessionReport]) -> ExitStatus {
        exitStatus(SessionTally(reports))
    }

    /// Exit 4 only when every failure was a page that could not be fetched; any broken contract is exit 1.
    static func exitStatus(_ tally: SessionTally) -> ExitStatus {
        if tally.passed { return .pass }
        return tally.onlyUnreachable ? .pageUnreachable : .contractFailure
    }
}

/// The check's options, validated with errors that name the option and the remedy.
struct CheckOptions {
    enum Format: String, CaseIterable { case text, json, junit, html }
    /// How the text report prints a page: in full, or one line when it passes.
    enum Reporter: String, CaseIterable { case compact, full, github }

    /// The pages to check, in command-line order (the bundled fixture when none is named), before `--shard`.
    let entries: [PageEntry]
    /// Whether this is a suite (several pages, a folder, a list or a shard): a block per page and a summary.
    let isSuite: Bool
    let contractPath: String?
    let playPath: String?
    let userScripts: [String]
    let lenient: Bool
    /// Whether every console level of the page is recorded (`--console`).
    let console: Bool
    let value: String?
    let timeout: Double
    let repeatCount: Int
    let format: Format
    /// Pages checked at once in a suite; nil takes `SuiteRun.defaultJobs`.
    let jobs: Int?
    let shard: Shard?
    /// Report files written beside stdout's report (`--report KIND=FILE`), in command-line order.
    let reports: [ReportTarget]
    let reporter: Reporter
    /// Stressed sessions per page (`--stress N`), the perturbation replayed (`--replay`), the folder served.
    let stress: StressOptions?
    let replay: Perturbation?
    let serve: URL?
    /// `--max-failures N`: failed pages after which a suite starts no further page.
    let maxFailures: Int?
    /// `--durations REPORT`: each listed page's measured time, for a balanced `--shard`.
    let durations: [Double?]?

    init(_ parsed: ParsedOptions) throws(UsageError) {
        contractPath = parsed.value("--contract")
        playPath = parsed.value("--play")
        userScripts = parsed.values("--user-script")
        lenient = parsed.has("--lenient")
        console = parsed.has("--console")
        value = parsed.isGiven("--value") ? parsed.value("--value") : nil
        // The table checked every value and holds the defaults: these have one.
        timeout = parsed.seconds("--timeout")!
        repeatCount = parsed.integer("--repeat")!
        format = Format(rawValue: parsed.value("--format")!)!
        jobs = parsed.integer("--jobs")
        maxFailures = parsed.integer("--max-failures")
        shard = parsed.value("--shard").flatMap(Shard.init)
        reports = parsed.values("--report").compactMap(ReportTarget.init)
        try ReportTarget.validate(reports)
        (stress, replay, serve) = try Self.timingOptions(parsed)
        let named = try PageList.entries(parsed)
        entries = try PageList.lastFailed(parsed.value("--last-failed"), of: named.isEmpty ? [.bundled] : named)
        durations = try PageList.durations(parsed.value("--durations"), of: entries)
        if durations != nil, shard == nil { throw UsageError("--durations balances --shard I/N: give --shard too") }
        // A report never replaces a file the check reads.
        let pages: [(option: String, path: String)] = named.compactMap {
            if case .file(let path) = $0 { return ("--page", path) }
            return nil
        }
        try ReportTarget.refuseInputs(
            reports, pages + ReportTarget.checkInputs(parsed), served: parsed.value("--serve"))
        let given = parsed.values(inOrder: ["--page", "--url", "--pages"])
        let folderGiven = given.contains { name, value in
            var isDirectory: ObjCBool = false
            return name == "--page" && FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        isSuite =
            given.count > 1 || folderGiven || given.contains { $0.name == "--pages" } || shard != nil
            || parsed.isGiven("--last-failed")
        // A suite on a terminal is read as it runs: one line a passing page keeps the failures in view.
        reporter =
            parsed.value("--reporter").flatMap(Reporter.init)
            ?? (isSuite && isatty(STDOUT_FILENO) != 0 ? .compact : .full)
        if !isSuite, maxFailures != nil {
            throw UsageError("--max-failures stops a suite after N failed pages: give several pages or a folder")
        }
        if !isSuite, jobs != nil {
            throw UsageError(
                "--jobs checks several pages at once: give several --page/--url, a folder, or --pages FILE")
        }
    }

    /// `--stress`, `--replay` and `--serve`, each checked against the others and `--repeat`.
    static func timingOptions(_ parsed: ParsedOptions) throws(UsageError) -> (StressOptions?, Perturbation?, URL?) {
        let stress = parsed.integer("--stress").map { StressOptions(sessions: $0) }
        if stress != nil, parsed.isGiven("--repeat") {
            throw UsageError("--stress N runs N stressed sessions of each page: give --stress or --repeat, not both")
        }
        var replay: Perturbation?
        if let token = parsed.value("--replay") {
            if stress != nil {
                throw UsageError("--replay runs one perturbation again and --stress draws new ones: give one of them")
            }
            do {
                replay = try Perturbation(token: token)
            } catch {
                throw UsageError("--replay: \(error)")
            }
        }
        return (stress, replay, try servedFolder(parsed))
    }

    /// The single page of a one-page check.
    var page: String? {
        if case .file(let path) = entries.first { return path }
        return nil
    }

    var url: URL? {
        if case .url(let url) = entries.first { return url }
        return nil
    }

    /// How a one-page check names its page in the header line.
    var pageName: String {
        if let url { return "page at \(TerminalText.escape(LoadError.host(of: url)))" }
        if let page { return TerminalText.escape((page as NSString).lastPathComponent) }
        return "BridgeFixture.html (bundled)"
    }

    /// The pages this run checks: the shard's part of the list, or all of it.
    var selectedEntries: [PageEntry] { selectedPositions.map { entries[$0] } }
    /// The list positions of the pages this run checks: its shard's, balanced by `--durations` when given.
    var selectedPositions: [Int] { shard?.positions(of: entries.count, durations: durations) ?? Array(entries.indices) }

    func configuration() throws -> CheckConfiguration {
        var configuration = try baseConfiguration()
        configuration.page = try pageSource(entries[0])
        return configuration
    }

    /// The contract, play, scripts and limits every page is checked with; the page itself is set per page.
    func baseConfiguration() throws -> CheckConfiguration {
        var contract: BridgeContract = .default
        if let contractPath {
            contract = try BridgeContract.load(contentsOf: URL(fileURLWithPath: contractPath))
            // The contract's own scripts resolve beside it.
            contract.check = try contract.check?.resolvingScripts(
                relativeTo: URL(fileURLWithPath: contractPath).deletingLastPathComponent())
        }
        var play = contract.check
        if let playPath {
            play = try CheckPlay.load(contentsOf: URL(fileURLWithPath: playPath), for: contract)
        }
        if value != nil, play != nil {
            throw UsageError(
                "--value sets the sync text of the fixture-style check; with a play, put the value in its steps")
        }
        let extraScripts = try userScripts.map(Self.userScript)
        if !extraScripts.isEmpty {
            // Scripts from the command line join the play's (or the fixture style's, planned from the contract).
            var base =
                try play
                ?? BridgeCheck.plan(
                    CheckConfiguration(
                        page: .html("", baseURL: nil), contract: contract, value: value ?? CheckCommand.defaults.value))
            base.userScripts += extraScripts
            play = base
        }
        var configuration = CheckConfiguration(
            page: .html("", baseURL: nil), contract: contract, value: value ?? CheckCommand.defaults.value,
            timeout: timeout,
            strictness: lenient ? .lenient : .strict, fields: lenient ? .lenient : .strict, play: play)
        configuration.console = console
        configuration.stress = stress
        configuration.perturbation = replay
        configuration.servedFolder = serve
        do {
            _ = try BridgeCheck.plan(configuration)
        } catch {
            throw UsageError(
                "\(contractPath.map { "--contract \(TerminalText.escape($0))" } ?? "the default contract"): \(error)")
        }
        return configuration
    }

    /// How `entry` is loaded: a file's text (relative scripts and styles load from beside it), a URL, or the fixture.
    func pageSource(_ entry: PageEntry) throws -> CheckConfiguration.Page {
        switch entry {
        case .url(let url): return .url(url)
        case .file(let page):
            // The page's own URL as the base: relative scripts and styles load from beside it, as when the app
            // bundles it, and its errors name the file, not its folder.
            let html = try PageFile.read(page)
            if serve == nil { try PageFile.refuseModules(html, path: page) }
            return .html(html, baseURL: URL(fileURLWithPath: page))
        case .bundled: return .html(try BundledFixture.html(), baseURL: nil)
        }
    }

    /// `FILE`, or `WHEN[,FRAMES]:FILE` with WHEN `start`/`end` and FRAMES `main-frame`/`all-frames`.
    static func userScript(_ spec: String) throws -> UserScriptSpec {
        let (path, words) = userScriptFile(spec)
        var script = UserScriptSpec()
        if words.contains("end") { script.injectionTime = .documentEnd }
        if words.contains("all-frames") { script.forMainFrameOnly = false }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                "--user-script \(TerminalText.escape(path)): the script file can't be read; give FILE or start|end[,all-frames]:FILE"
            )
        }
        script.source = String(decoding: data, as: UTF8.self)
        return script
    }
}
