import BridgeContract
import BridgeTesting
import CommandLineOptions
import Foundation

/// One page of a check: an HTML file, a deployed URL, or the bundled fixture.
enum PageEntry: Equatable {
    case file(String)
    case url(URL)
    case bundled

    /// How the page is named in every report and format: the path as given, or the URL's host and path. A query
    /// can carry tokens, so it is never shown: `?…` says there is one (`PageEntry.names` tells apart two pages
    /// that differ only in it).
    var name: String {
        switch self {
        case .file(let path): TerminalText.escape(path)
        case .url(let url):
            TerminalText.escape(
                LoadError.host(of: url)
                    + (url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true))
                    + (url.query(percentEncoded: true) == nil ? "" : "?…"))
        case .bundled: "BridgeFixture.html (bundled)"
        }
    }

    /// The names of `entries`, in order: each `name`, with ` #2`, ` #3`… on another page whose name was given
    /// before (`/ok?a` and `/ok?b` are two pages, `…/ok?…` and `…/ok?… #2`); a page listed again keeps its name.
    static func names(_ entries: [PageEntry]) -> [String] {
        var seen: [String: [PageEntry]] = [:]
        return entries.map { entry in
            let name = entry.name
            if !seen[name, default: []].contains(entry) { seen[name, default: []].append(entry) }
            let number = seen[name]!.firstIndex(of: entry)! + 1
            return number == 1 ? name : "\(name) #\(number)"
        }
    }
}

/// The pages named on the command line, in order: `--page FILE|DIR`, `--url URL`, `--pages LIST`.
enum PageList {
    /// The most pages one run takes (a list file of millions of lines is a mistake, not a suite).
    static let maximum = 100_000

    /// The pages in command-line order, folders expanded (their `*.html` and `*.htm`, sorted, not recursive).
    static func entries(_ parsed: ParsedOptions) throws(CommandError) -> [PageEntry] {
        var entries: [PageEntry] = []
        for (name, value) in parsed.values(inOrder: ["--page", "--url", "--pages"]) {
            switch name {
            case "--url": entries.append(.url(try url(value, option: "--url")))
            case "--pages": entries += try listFile(value)
            default: entries += try pageOrFolder(value, option: "--page")
            }
            guard entries.count <= maximum else {
                throw CommandError("more than \(maximum) pages; split the list, or use --shard i/n to check a part")
            }
        }
        return entries
    }

    /// A file as itself, a folder as its HTML files (sorted by name); a missing path stays, for `PageFile` to name.
    static func pageOrFolder(_ path: String, option: String) throws(CommandError) -> [PageEntry] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [.file(path)]
        }
        let shown = TerminalText.escape(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw CommandError("\(option) \(shown): the folder can't be read; check its permissions")
        }
        let pages = names.filter { ["html", "htm"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { (path as NSString).appendingPathComponent($0) }
            .filter { !isFolder($0) }
        guard !pages.isEmpty else {
            throw CommandError(
                "\(option) \(shown): the folder holds no *.html file (subfolders are not searched); give a folder of pages or a page"
            )
        }
        // Refused before any page runs: reading a FIFO would wait forever for a writer.
        for page in pages {
            if let kind = PageFile.nonRegularKind(page) {
                throw CommandError(
                    "\(option) \(shown): \(TerminalText.escape(page)) is \(kind), not a regular file; remove it from the folder or rename it so it does not end in .html"
                )
            }
        }
        return pages.map { .file($0) }
    }

    /// The pages of a list file: one path or http(s) URL per line; blank lines and `#` comments are skipped.
    static func listFile(_ path: String) throws(CommandError) -> [PageEntry] {
        let shown = TerminalText.escape(path)
        guard !isFolder(path) else {
            throw CommandError(
                "--pages \(shown): is a folder; give a list file (one page per line), or --page \(shown)")
        }
        // A pipe (`<(…)`) and /dev/null read as files do.
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch {
            throw CommandError("--pages \(shown): the list file \(error); give a file with one path or URL per line")
        }
        let folder = PathName.folder(of: path)
        var entries: [PageEntry] = []
        // A UTF-8 byte-order mark is no part of line 1; "\r\n" is one Character, so lines split on both ends.
        let text = String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data, as: UTF8.self)
        for (offset, rawLine) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let option = "--pages \(shown), line \(offset + 1)"
            if line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw CommandError(
                    "\(option): the line holds a control character (such as NUL), which no path or URL has; write one path or URL per line"
                )
            }
            if line.contains("://") {
                entries.append(.url(try url(line, option: option)))
            } else {
                // Relative paths resolve against the list's folder, so the list works from any directory.
                let resolved =
                    line.hasPrefix("/") || folder.isEmpty ? line : (folder as NSString).appendingPathComponent(line)
                guard FileManager.default.fileExists(atPath: resolved) else {
                    if let link = PageFile.brokenLink(resolved) {
                        throw CommandError("\(option): \(TerminalText.escape(resolved)) is \(link)")
                    }
                    throw CommandError(
                        "\(option): no such file \(TerminalText.escape(resolved)); relative paths resolve against the list file's folder"
                    )
                }
                entries += try pageOrFolder(resolved, option: option)
            }
            guard entries.count <= maximum else {
                throw CommandError("--pages \(shown): more than \(maximum) pages; split the list, or use --shard i/n")
            }
        }
        guard !entries.isEmpty else {
            throw CommandError("--pages \(shown): the list names no page; write one path or URL per line")
        }
        return entries
    }

    /// An absolute http(s) URL with a host, or a usage error naming `option` and the rule.
    static func url(_ text: String, option: String) throws(CommandError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CommandError("\(option) must be an absolute http:// or https:// URL with a host")
        }
        if let port = url.port, !(1...65_535).contains(port) {
            throw CommandError("\(option): port \(port) is out of range; a port is 1 to 65535")
        }
        // A %-escape in a host (such as %00) names no host any resolver can look up, and would print raw.
        let host = url.host(percentEncoded: true) ?? ""
        if host.isEmpty
            || host.unicodeScalars.contains(where: { $0 == "%" || $0.value <= 0x20 || $0.value == 0x7F })
        {
            throw CommandError(
                "\(option): the host \"\(TerminalText.escape(host))\" has %-escapes, spaces or control characters; write the host name as it is"
            )
        }
        return url
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

extension PageList {
    /// `--durations REPORT`: each entry's time in the JSON report (its sessions' time summed), nil for a page
    /// the report does not hold or ran no session of.
    static func durations(_ path: String?, of entries: [PageEntry]) throws(CommandError) -> [Double?]? {
        guard let path else { return nil }
        let report: RunReport
        do {
            report = try RunReport.load(path)
        } catch {
            throw CommandError("--durations: \(error)")
        }
        var seconds: [String: Double] = [:]
        for page in report.pages where page.sessionCount > 0 { seconds[page.page] = page.totalSeconds }
        return entries.map { seconds[$0.name] }
    }

    /// `--last-failed REPORT`: the pages of `entries` the JSON report failed or did not run, in list order;
    /// `entries` itself without the option.
    static func lastFailed(_ path: String?, of entries: [PageEntry]) throws(CommandError) -> [PageEntry] {
        guard let path else { return entries }
        let report: RunReport
        do {
            report = try RunReport.load(path)
        } catch {
            throw CommandError("--last-failed: \(error)")
        }
        let rerun = Set(report.pages.filter { !$0.passed || $0.sessionCount == 0 }.map(\.page) + report.notRun)
        let selected = entries.filter { rerun.contains($0.name) }
        guard !selected.isEmpty else {
            throw CommandError(
                "--last-failed \(TerminalText.escape(path)): no page failed or went unrun in that report among the pages given; nothing to check again. Remedy: run without --last-failed, or give the report of the run that failed"
            )
        }
        return selected
    }
}

/// `--shard i/n`: the pages whose position (0-based, in command-line order) modulo n is i - 1.
struct Shard: Equatable {
    let index: Int
    let count: Int

    /// What `--shard` takes, as its error says it.
    static let rule = "i/n with 1 <= i <= n <= 10000 (e.g. --shard 2/4 checks the second of four parts)"

    /// `i/n`, nil unless 1 <= i <= n <= 10000.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 10_000,
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    /// This shard's part of `items`: every n-th from the i-th, so the n shards partition the list exactly.
    func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// The list positions (0-based) of this shard's pages: every n-th from the i-th, or, with `durations` (each
    /// page's measured time, nil when unknown), the balanced split of `RunReport.Shard.balanced`.
    func positions(of total: Int, durations: [Double?]? = nil) -> [Int] {
        guard let durations else { return (0..<total).filter { $0 % count == index - 1 } }
        let shards = RunReport.Shard.balanced(count: count, durations: durations)
        return shards.indices.filter { shards[$0] == index }
    }

    var description: String { "\(index)/\(count)" }
}
