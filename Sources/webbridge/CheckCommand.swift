import BridgeContract
import BridgeTesting
import Foundation

/// `webbridge check`: both directions of the bridge on the real engine, each failure named.
enum CheckCommand {
    static let usage = """
        USAGE: webbridge check [--page FILE | --url URL] [--contract FILE] [--play FILE] [--user-script SCRIPT]...
                               [--value TEXT] [--lenient] [--timeout SECONDS] [--repeat N] [--format text|json|junit]

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
          --timeout SECONDS   wait for each event at most this long (default: 10)
          --repeat N          run N fresh sessions (default: 1)
          --format FORMAT     text (default), json, or junit (JUnit XML, one test case per direction)

        EXIT CODES:
          0 pass, 1 contract failure, 2 usage, 3 environment, 4 page not deployed / request failed
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
                print(usage)
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
            printError("webbridge check: \(error)")
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
        var reports: [SessionReport] = []
        let progress = ProgressLine(total: options.repeatCount)
        for index in 1...options.repeatCount {
            let report = await BridgeCheck.run(configuration)
            reports.append(report)
            reporter.session(index, report, verbose: index == 1 || !report.passed || options.repeatCount == 1)
            progress.update(done: index, failed: reports.filter { !$0.passed }.count)
        }
        progress.finish()
        reporter.end(reports)
        return exitStatus(reports)
    }

    /// Exit 4 only when the page could not be fetched; any broken contract is exit 1.
    static func exitStatus(_ reports: [SessionReport]) -> ExitStatus {
        let failures = reports.flatMap(\.failures)
        if failures.isEmpty { return .pass }
        if failures.allSatisfy({ $0.category == .pageUnreachable }) { return .pageUnreachable }
        return .contractFailure
    }
}

/// The check's options, validated with errors that name the option and the remedy.
struct CheckOptions {
    enum Format: String { case text, json, junit }

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
            throw UsageError("--format must be text, json or junit")
        }
        self.format = format
        if let text = arguments.value("--url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw UsageError("--url must be an absolute http:// or https:// URL with a host")
            }
            guard page == nil else { throw UsageError("--page and --url exclude each other: give one") }
            self.url = url
        } else {
            url = nil
        }
    }

    var pageName: String {
        if let url { return "page at \(LoadError.host(of: url))" }
        if let page { return (page as NSString).lastPathComponent }
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
            guard let html = try? String(contentsOf: fileURL, encoding: .utf8) else {
                throw UsageError("--page \(page): cannot read the file as UTF-8 text; give the path of an HTML file")
            }
            // Relative scripts and styles load from beside the page, as when the app bundles it.
            pageSource = .html(html, baseURL: fileURL.deletingLastPathComponent())
        } else {
            pageSource = .html(try BundledFixture.html(), baseURL: nil)
        }
        let configuration = CheckConfiguration(
            page: pageSource, contract: contract, value: value ?? "ok", timeout: timeout,
            mode: lenient ? .lenient : .strict, play: play)
        do {
            _ = try BridgeCheck.plan(configuration)
        } catch {
            throw UsageError("\(contractPath.map { "--contract \($0)" } ?? "the default contract"): \(error)")
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
                "--user-script \(path): the script file can't be read; give FILE or start|end[,all-frames]:FILE")
        }
        script.source = String(decoding: data, as: UTF8.self)
        return script
    }
}

/// A one-line progress counter on a terminal; silent when stderr is a file or pipe.
struct ProgressLine {
    let total: Int
    private let enabled: Bool

    init(total: Int) {
        self.total = total
        enabled = total > 1 && isatty(STDERR_FILENO) != 0
    }

    func update(done: Int, failed: Int) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\rsession \(done)/\(total), \(failed) failed".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
