import BridgeContract
import BridgeTesting
import Foundation

/// `webbridge check`: both directions of the bridge on the real engine, each failure named.
enum CheckCommand {
    static let usage = """
        USAGE: webbridge check [--page FILE | --url URL] [--contract FILE] [--play FILE] [--user-script SCRIPT]...
                               [--value TEXT] [--lenient] [--timeout SECONDS] [--repeat N] [--format text|json|junit|html]

        Loads the page in the real WebKit engine and checks both directions of the bridge: the page's
        messages reach native code with the contract's fields, and the page accepts what native sends.
        Native's side is played as the contract's "check" section (or --play FILE) declares; without one,
        the fixture style: the page's first message (ready), then, after didFinish, native's first message
        (sync), which the page must show in document.body.dataset.received.

        OPTIONS:
          --page FILE         HTML page to load (default: the bundled BridgeFixture.html; no network)
          --url URL           a deployed page to fetch instead; exit 4 when it cannot be fetched
                              (DNS, refused, TLS, no response, HTTP status >= 400), exit 1 when it
                              loads and breaks the contract or never finishes loading
          --contract FILE     contract JSON (default: the bundled default contract)
          --play FILE         how native is played (the contract's "check" section format); overrides it
          --user-script SCRIPT
                              a native-side script the app injects, before the page's own: FILE (document
                              start, main frame), or end:FILE, start,all-frames:FILE, end,all-frames:FILE
          --value TEXT        text sent as the sync message's value in the fixture style (default: ok)
          --lenient           list unknown, invalid and duplicate page messages instead of failing on them
          --timeout SECONDS   wait for each event at most this long (default: 10, at most 86400)
          --repeat N          run N fresh sessions (default: 1, at most 1000000000); the report keeps
                              the counts, the first sessions and the first failures in full
          --format FORMAT     text (default), json, junit (JUnit XML, one test case per direction), or html
                              (one self-contained file: a summary and each session's sequence diagram)

        EXIT CODES:
          0 pass, 1 contract failure, 2 usage (also a --page or --contract file that is missing or
          unreadable), 3 environment (also a report that can't be written), 4 page not deployed /
          request failed, 130/143 stopped by SIGINT/SIGTERM after printing a partial summary
        """

    @MainActor
    static func run(_ argv: ArraySlice<String>) async -> ExitStatus {
        let arguments: Arguments
        let options: CheckOptions
        do {
            arguments = try Arguments(
                argv,
                options: [
                    "--page", "--url", "--contract", "--play", "--user-script", "--value", "--timeout", "--repeat",
                    "--format",
                ], flags: ["--lenient"])
            if arguments.wantsHelp {
                Output.out(usage)
                return .pass
            }
            try arguments.expectPositionals(atMost: 0)
            options = try CheckOptions(arguments)
        } catch {
            printError("webbridge check: \(error)")
            printError("Usage: webbridge check [--page FILE | --url URL] [options]; see 'webbridge check --help'.")
            return .usage
        }

        // The display starts while the contract and the page are read.
        EngineEnvironment.beginPreparing()
        let configuration: CheckConfiguration
        do {
            configuration = try options.configuration()
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

        let reporter = CheckReporter(format: options.format, pageName: options.pageName, configuration: configuration)
        reporter.begin()
        let run = CheckRun(reporter: reporter, total: options.repeatCount)
        SignalWatcher.install(run.interrupted)
        // A closed or full stdout (`| head -1`, a full disk) ends the run: no one can read its report.
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
    enum Format: String { case text, json, junit, html }

    let page: String?
    let url: URL?
    let contractPath: String?
    let playPath: String?
    let userScripts: [String]
    let lenient: Bool
    let value: String?
    let timeout: Double
    let repeatCount: Int
    let format: Format

    init(_ arguments: Arguments) throws(UsageError) {
        page = arguments.value("--page")
        contractPath = arguments.value("--contract")
        playPath = arguments.value("--play")
        userScripts = arguments.values("--user-script")
        lenient = arguments.has("--lenient")
        value = arguments.value("--value")
        timeout = try arguments.seconds("--timeout") ?? 10
        repeatCount = try arguments.positiveInt("--repeat") ?? 1
        let formatText = arguments.value("--format") ?? "text"
        guard let format = Format(rawValue: formatText) else {
            throw UsageError("--format must be text, json, junit or html")
        }
        self.format = format
        if let text = arguments.value("--url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw UsageError("--url must be an absolute http:// or https:// URL with a host")
            }
            if let port = url.port, !(1...65_535).contains(port) {
                throw UsageError("--url: port \(port) is out of range; a port is 1 to 65535")
            }
            // A %-escape in a host (such as %00) names no host any resolver can look up, and would print raw.
            let host = url.host(percentEncoded: true) ?? ""
            if host.isEmpty
                || host.unicodeScalars.contains(where: { $0 == "%" || $0.value <= 0x20 || $0.value == 0x7F })
            {
                throw UsageError(
                    "--url: the host \"\(TerminalText.escape(host))\" has %-escapes, spaces or control characters; write the host name as it is"
                )
            }
            guard page == nil else { throw UsageError("--page and --url exclude each other: give one") }
            self.url = url
        } else {
            url = nil
        }
    }

    var pageName: String {
        if let url { return "page at \(TerminalText.escape(LoadError.host(of: url)))" }
        if let page { return TerminalText.escape((page as NSString).lastPathComponent) }
        return "BridgeFixture.html (bundled)"
    }

    func configuration() throws -> CheckConfiguration {
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
            var base = try play ?? BridgeCheck.plan(CheckConfiguration(page: .html("", baseURL: nil), contract: contract, value: value ?? "ok"))
            base.userScripts += extraScripts
            play = base
        }
        let pageSource: CheckConfiguration.Page
        if let url {
            pageSource = .url(url)
        } else if let page {
            let fileURL = URL(fileURLWithPath: page)
            // Relative scripts and styles load from beside the page, as when the app bundles it.
            pageSource = .html(try PageFile.read(page), baseURL: fileURL.deletingLastPathComponent())
        } else {
            pageSource = .html(try BundledFixture.html(), baseURL: nil)
        }
        let configuration = CheckConfiguration(
            page: pageSource, contract: contract, value: value ?? "ok", timeout: timeout,
            mode: lenient ? .lenient : .strict, play: play)
        do {
            _ = try BridgeCheck.plan(configuration)
        } catch {
            throw UsageError("\(contractPath.map { "--contract \(TerminalText.escape($0))" } ?? "the default contract"): \(error)")
        }
        return configuration
    }

    /// `FILE`, or `WHEN[,FRAMES]:FILE` with WHEN `start`/`end` and FRAMES `main-frame`/`all-frames`.
    static func userScript(_ spec: String) throws -> UserScriptSpec {
        var path = spec
        var script = UserScriptSpec()
        if let colon = spec.firstIndex(of: ":") {
            let words = spec[..<colon].split(separator: ",").map(String.init)
            let known = ["start", "end", "main-frame", "all-frames"]
            if !words.isEmpty, words.allSatisfy(known.contains) {
                path = String(spec[spec.index(after: colon)...])
                if words.contains("end") { script.injectionTime = .documentEnd }
                if words.contains("all-frames") { script.forMainFrameOnly = false }
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                "--user-script \(TerminalText.escape(path)): the script file can't be read; give FILE or start|end[,all-frames]:FILE")
        }
        script.source = String(decoding: data, as: UTF8.self)
        return script
    }
}

/// A one-line progress counter on a terminal; silent when stderr is a file or pipe.
struct ProgressLine {
    let total: Int
    let enabled: Bool

    init(total: Int) {
        self.total = total
        enabled = total > 1 && isatty(STDERR_FILENO) != 0
    }

    func update(done: Int, failed: Int) {
        guard enabled else { return }
        Output.progress("\rsession \(done)/\(total), \(failed) failed")
    }

    func finish() {
        guard enabled else { return }
        Output.progress("\n")
    }
}
