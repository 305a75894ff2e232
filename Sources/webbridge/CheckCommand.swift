import BridgeContract
import BridgeTesting
import Foundation

/// `webbridge check`: both directions of the bridge on the real engine, each failure named.
enum CheckCommand {
    static let usage = """
        USAGE: webbridge check [--page FILE | --url URL] [--contract FILE] [--value TEXT] [--timeout SECONDS]
                               [--repeat N] [--format text|json|junit]

        Loads the page in the real WebKit engine and checks both directions of the bridge:
        the page's ready reaches native code with the contract's fields, and the page accepts
        the native sync message and shows exactly its text.

        OPTIONS:
          --page FILE         HTML page to load (default: the bundled BridgeFixture.html; no network)
          --url URL           a deployed page to fetch instead; exit 4 when it cannot be fetched
                              (DNS, refused, TLS, no response, HTTP status >= 400), exit 1 when it
                              loads and breaks the contract or never finishes loading
          --contract FILE     contract JSON (default: the bundled default contract)
          --value TEXT        text sent as the sync message's value (default: ok)
          --timeout SECONDS   wait for each event at most this long (default: 10, at most 86400)
          --repeat N          run N fresh sessions (default: 1, at most 1000000000); the report keeps
                              the counts, the first sessions and the first failures in full
          --format FORMAT     text (default), json, or junit (JUnit XML, one test case per direction)

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
                argv, options: ["--page", "--url", "--contract", "--value", "--timeout", "--repeat", "--format"])
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
    enum Format: String { case text, json, junit }

    let page: String?
    let url: URL?
    let contractPath: String?
    let value: String
    let timeout: Double
    let repeatCount: Int
    let format: Format

    init(_ arguments: Arguments) throws(UsageError) {
        page = arguments.value("--page")
        contractPath = arguments.value("--contract")
        value = arguments.value("--value") ?? "ok"
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
        let contract: BridgeContract
        if let contractPath {
            contract = try BridgeContract.load(contentsOf: URL(fileURLWithPath: contractPath))
            // The check sends {kind: "sync", value: <text>}: a contract without it would fail every run as if
            // the page had refused the message, so refuse the contract up front instead.
            if case .invalid(let violations) = contract.validate(
                ["kind": "sync", "value": value], direction: .nativeToPage, mode: .strict)
            {
                throw UsageError(
                    "--contract \(TerminalText.escape(contractPath)): the check sends the native-to-page message {kind: \"sync\", value: String}, which this contract does not accept (\(violations.map(\.path).joined(separator: ", "))); declare it in the contract's messages"
                )
            }
        } else {
            contract = .default
        }
        let pageSource: CheckConfiguration.Page
        if let url {
            pageSource = .url(url)
        } else if let page {
            pageSource = .html(try PageFile.read(page), baseURL: nil)
        } else {
            pageSource = .html(try BundledFixture.html(), baseURL: nil)
        }
        return CheckConfiguration(page: pageSource, contract: contract, value: value, timeout: timeout)
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
