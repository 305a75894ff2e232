import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

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
    /// `--retries N`: sessions a failing page may run again until one passes.
    let retries: Int
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

    init(_ parsed: ParsedOptions) throws(CommandError) {
        contractPath = parsed.value("--contract")
        playPath = parsed.value("--play")
        userScripts = parsed.values("--user-script")
        lenient = parsed.has("--lenient")
        console = parsed.has("--console")
        value = parsed.isGiven("--value") ? parsed.value("--value") : nil
        // The table checked every value and holds the defaults: these have one.
        timeout = parsed.seconds("--timeout")!
        repeatCount = parsed.integer("--repeat")!
        retries = parsed.integer("--retries")!
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
        if durations != nil, shard == nil { throw CommandError("--durations balances --shard I/N: give --shard too") }
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
            throw CommandError("--max-failures stops a suite after N failed pages: give several pages or a folder")
        }
        if !isSuite, jobs != nil {
            throw CommandError(
                "--jobs checks several pages at once: give several --page/--url, a folder, or --pages FILE")
        }
    }

    /// `--stress`, `--replay` and `--serve`, each checked against the others and `--repeat`.
    static func timingOptions(_ parsed: ParsedOptions) throws(CommandError) -> (StressOptions?, Perturbation?, URL?) {
        var stress = parsed.integer("--stress").map { StressOptions(sessions: $0) }
        let faults = parsed.list("--faults")
        if !faults.isEmpty {
            guard stress != nil else {
                throw CommandError(
                    "--faults puts a fault of the handler's life cycle in each stressed session: give it with --stress N (a --replay token carries its own fault)"
                )
            }
            stress?.faults =
                faults.contains("all")
                ? LifecycleFault.Kind.available : LifecycleFault.Kind.available.filter { faults.contains($0.rawValue) }
        }
        if stress != nil, parsed.isGiven("--repeat") {
            throw CommandError("--stress N runs N stressed sessions of each page: give --stress or --repeat, not both")
        }
        if stress != nil, parsed.isGiven("--retries") {
            throw CommandError(
                "--stress N explains its own failures by perturbation: give --stress or --retries, not both")
        }
        var replay: Perturbation?
        if let token = parsed.value("--replay") {
            if stress != nil {
                throw CommandError("--replay runs one perturbation again and --stress draws new ones: give one of them")
            }
            do {
                replay = try Perturbation(token: token)
            } catch {
                throw CommandError("--replay: \(error)")
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
            throw CommandError(
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
        // Sessions compared with each other note when the page's receivers came to exist, to explain a flaky page.
        configuration.watchesReceivers = stress == nil && (repeatCount > 1 || retries > 0)
        configuration.servedFolder = serve
        do {
            _ = try BridgeCheck.plan(configuration)
        } catch {
            throw CommandError(
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
            throw CommandError(
                "--user-script \(TerminalText.escape(path)): the script file can't be read; give FILE or start|end[,all-frames]:FILE"
            )
        }
        script.source = String(decoding: data, as: UTF8.self)
        return script
    }
}
