import BridgeContract
import BridgeReports
import BridgeTesting
import CommandLineOptions
import Foundation

/// A report written to a file beside the text on stdout: `--report junit=FILE` (also `html`, `json`).
///
/// The rule, as CI users expect of a path they give: an existing regular file is overwritten (each run writes
/// its report afresh); a symbolic link is never written through, a folder is never written into, and a missing
/// folder is not created. Those are refused before the check runs (exit 2, naming the option, the rule and the
/// remedy); a report that cannot be written at the end (a full disk) is exit 3, as a failed stdout is.
struct ReportTarget: Equatable {
    /// The formats a report file can have; the text report is stdout's.
    static let kinds: [CheckOptions.Format] = [.junit, .html, .json]
    /// The value's rule in words, as the usage error says it after "must be".
    static let rule = "KIND=FILE, with KIND junit, html or json"

    let format: CheckOptions.Format
    let path: String

    /// `junit=out/junit.xml`; nil when the kind is not a report file's or the path is empty.
    init?(_ text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let kind = String(text[..<equals])
        let path = String(text[text.index(after: equals)...])
        guard let format = CheckOptions.Format(rawValue: kind), Self.kinds.contains(format), !path.isEmpty else {
            return nil
        }
        self.format = format
        self.path = path
    }

    /// How the option was given, for errors: `--report junit=out/junit.xml`.
    var spelling: String { "--report \(format.rawValue)=\(TerminalText.escape(path))" }

    /// The file name a remedy suggests for this kind.
    private var suggestedName: String {
        switch format {
        case .junit: "junit.xml"
        case .html: "report.html"
        default: "report.json"
        }
    }

    /// Refuses, before any page runs, a report path that could not be written or would be written where it must
    /// not be: the same file twice, a symbolic link, a folder, a folder that does not exist, no permission.
    static func validate(_ targets: [ReportTarget]) throws(CommandError) {
        var seen: [String: ReportTarget] = [:]
        for target in targets {
            let absolute = URL(fileURLWithPath: target.path).standardizedFileURL.path
            if let earlier = seen[absolute] {
                throw CommandError(
                    "\(earlier.spelling) and \(target.spelling) name the same file; each report needs a file of its own. Remedy: give them different paths"
                )
            }
            seen[absolute] = target
            try target.validate()
        }
    }

    /// Refuses a report path that is one of the files the command reads (a page, the contract, the play, a list, a
    /// user script, a file of the served folder), whatever name reaches it: the same file is the same device and
    /// inode, so a relative path, a symbolic link to it or a hard link are all caught. Writing the report would
    /// destroy its own input.
    static func refuseInputs(
        _ targets: [ReportTarget], _ inputs: [(option: String, path: String)], served: String? = nil
    ) throws(CommandError) {
        func identity(_ path: String) -> [UInt64]? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return [UInt64(info.st_dev), UInt64(info.st_ino)]
        }
        let read = inputs.compactMap { input in identity(input.path).map { (input, $0) } }
        for target in targets {
            // A file that does not exist yet is no input.
            guard let written = identity(target.path) else { continue }
            if let (input, _) = read.first(where: { $0.1 == written }) {
                throw CommandError(
                    "\(target.spelling): the path is \(TerminalText.escape(input.path)), read as \(input.option); a report never replaces a file the command reads. Remedy: name another file for the report"
                )
            }
            if let served {
                let real = URL(fileURLWithPath: target.path).resolvingSymlinksInPath().path
                let root = URL(fileURLWithPath: served).resolvingSymlinksInPath().path
                if real.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                    throw CommandError(
                        "\(target.spelling): the path is a file of --serve \(TerminalText.escape(served)), which the page may load; a report never replaces a file the command reads. Remedy: name a file outside the served folder"
                    )
                }
            }
        }
    }

    /// Every file `check` reads besides its pages: the contract, the play, the lists, each `--user-script`, and
    /// the script files the contract's and the play's `userScripts` name (beside the file that names them).
    static func checkInputs(_ parsed: ParsedOptions) -> [(option: String, path: String)] {
        var inputs = ["--contract", "--play"].compactMap { name in parsed.value(name).map { (name, $0) } }
        inputs += parsed.values("--pages").map { ("--pages", $0) }
        inputs += parsed.values("--user-script").map { ("--user-script", CheckOptions.userScriptFile($0).path) }
        for (option, key) in [("--contract", "check"), ("--play", "")] {
            guard let file = parsed.value(option), let data = try? FileBytes.read(file),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            let play = key.isEmpty ? json : json[key] as? [String: Any]
            let scripts = (play?["userScripts"] as? [[String: Any]]) ?? []
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            for (index, script) in scripts.enumerated() {
                guard let name = script["file"] as? String else { continue }
                let path = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
                inputs.append(("userScripts[\(index)].file of \(option) \(TerminalText.escape(file))", path))
            }
        }
        return inputs
    }

    private func validate() throws(CommandError) {
        if path.hasSuffix("/") {
            throw CommandError(
                "\(spelling): the path ends in '/', which names a folder; a report is written to a file. Remedy: name a file, e.g. \(format.rawValue)=\(TerminalText.escape(path + suggestedName))"
            )
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                throw CommandError(
                    "\(spelling): the path is a symbolic link; a report is never written through one (it would overwrite the file the link points to). Remedy: name the file itself, or remove the link"
                )
            case S_IFDIR:
                throw CommandError(
                    "\(spelling): the path is a folder; a report is written to a file. Remedy: name a file in it, e.g. \(format.rawValue)=\(TerminalText.escape((path as NSString).appendingPathComponent(suggestedName)))"
                )
            default:
                if access(path, W_OK) != 0 {
                    throw CommandError(
                        "\(spelling): the file exists and can't be written (\(String(cString: strerror(errno)))). Remedy: make it writable, or name another file"
                    )
                }
            }
            return
        }
        let folder = PathName.folder(of: path)
        let parent = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(
                "\(spelling): the folder \(TerminalText.escape(parent)) does not exist; a report's folder is not created. Remedy: create it first (mkdir -p \(TerminalText.escape(parent)))"
            )
        }
        if access(parent, W_OK) != 0 {
            throw CommandError(
                "\(spelling): a file can't be created in \(TerminalText.escape(parent)) (\(String(cString: strerror(errno)))). Remedy: name a file in a folder you can write"
            )
        }
    }

    /// Writes `text` to the file, replacing what it held; never through a symbolic link (`O_NOFOLLOW`, so a link
    /// made since the check began is refused too). Prints why on failure and returns false.
    ///
    /// Opened without blocking: a FIFO that no process reads is refused at once (ENXIO), never waited on. A FIFO or
    /// device with a reader is written as it drains, and a stop signal (SIGTERM, SIGINT, …) ends the wait.
    @discardableResult
    func write(_ text: String, command: String = "webbridge check") -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { return failed(errno, command) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            // A regular file never blocks: written as before.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            if let failure = writeFully(Data((text + "\n").utf8), to: descriptor) { return failed(failure, command) }
            return true
        }
        if let failure = writeDraining(Data((text + "\n").utf8), to: descriptor) { return failed(failure, command) }
        return true
    }

    /// Writes to a non-blocking FIFO or device as its reader takes the bytes; EINTR (as errno) once a stop signal
    /// has arrived, so a reader that never reads cannot hold the process.
    private func writeDraining(_ data: Data, to descriptor: Int32) -> Int32? {
        writeFully(data, to: descriptor) {
            if SignalWatcher.stopRequested {
                // The run stops here, as at any checkpoint: what was done is reported (this report gives up
                // at once the second time), then the process exits 128 + the signal.
                if Thread.isMainThread { MainActor.assumeIsolated { SignalWatcher.checkpoint() } }
                return EINTR
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            // No deadline of its own: the reader decides, and a stop signal interrupts the poll (EINTR).
            if poll(&ready, 1, -1) < 0, errno != EINTR { return errno }
            return nil
        }
    }

    private func failed(_ code: Int32, _ command: String) -> Bool {
        let reason =
            switch code {
            case ELOOP: "the path became a symbolic link during the check; a report is never written through one"
            case ENXIO: "no process reads the FIFO; start its reader first"
            case EINTR: "stopped by a signal while the reader was not reading"
            default: String(cString: strerror(code))
            }
        printError(
            "\(command): \(spelling): the report could not be written (\(reason)); it is missing or incomplete. Remedy: free disk space, or name a file in a folder that can be written"
        )
        return false
    }

    /// Writes each report from `render` (its format's document); false when any could not be written.
    @discardableResult
    static func writeAll(
        _ targets: [ReportTarget], command: String = "webbridge check", _ render: (CheckOptions.Format) -> String
    ) -> Bool {
        var allWritten = true
        for target in targets where !target.write(render(target.format), command: command) { allWritten = false }
        return allWritten
    }
}

extension RunReport {
    /// The report in `format`: the text summary over its pages, or the whole JSON, JUnit or HTML document;
    /// `notice` says why it is partial (a signal, a missing shard).
    func document(_ format: CheckOptions.Format, notice: String? = nil) -> String {
        switch format {
        case .text: TextReport.render(self)
        case .json: JSONReport.render(self)
        case .junit: JUnitReport.render(self)
        case .html: HTMLReport.render(self, HTMLReport.Options(notice: notice))
        }
    }
}

extension CheckOptions {
    /// The file of a `--user-script` value, and the words before its colon (none for a bare FILE).
    static func userScriptFile(_ spec: String) -> (path: String, words: [String]) {
        guard let colon = spec.firstIndex(of: ":") else { return (spec, []) }
        let words = spec[..<colon].split(separator: ",").map(String.init)
        let known = ["start", "end", "main-frame", "all-frames"]
        guard !words.isEmpty, words.allSatisfy(known.contains) else { return (spec, []) }
        return (String(spec[spec.index(after: colon)...]), words)
    }
}
