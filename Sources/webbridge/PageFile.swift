import BridgeTesting
import Foundation

/// Reads a `--page` file as a browser would: the byte-order mark, else the charset the page declares, else UTF-8,
/// else windows-1252 (what browsers assume for undeclared Latin-1), said on stderr.
enum PageFile {
    /// The page's text, or a usage error that says whether the file is missing, unreadable or undecodable.
    static func read(_ path: String) throws(CommandError) -> String {
        let shown = TerminalText.escape(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if let link = brokenLink(path) {
                throw CommandError("--page \(shown) is \(link); give the path of an HTML file")
            }
            throw CommandError("--page \(shown): no such file; give the path of an HTML file")
        }
        guard !isDirectory.boolValue else {
            throw CommandError("--page \(shown): is a directory; give the path of an HTML file")
        }
        // Non-blocking, so a FIFO is refused at once instead of waiting forever for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandError("--page \(shown): the file can't be read (\(reason)); check its permissions")
        }
        var info = stat()
        let described = fstat(descriptor, &info) == 0 ? kind(info.st_mode) : "not a regular file"
        close(descriptor)
        if let described {
            throw CommandError("--page \(shown): is \(described), not a regular file; give the path of an HTML file")
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw CommandError("--page \(shown): the file can't be read; check that it is a regular file")
        }
        if let (encoding, skip) = byteOrderMark(data) {
            guard let text = String(data: data.dropFirst(skip), encoding: encoding) else {
                throw CommandError(
                    "--page \(shown): the text does not match its byte-order mark; save the page as UTF-8")
            }
            return text
        }
        if let label = declaredCharset(data) {
            guard let encoding = encoding(forLabel: label) else {
                throw CommandError(
                    "--page \(shown): the page declares charset \"\(TerminalText.escape(label))\", which webbridge can't decode; save the page as UTF-8"
                )
            }
            guard let text = String(data: data, encoding: encoding) else {
                throw CommandError(
                    "--page \(shown): the text is not valid \(TerminalText.escape(label)) as the page declares; fix the declaration or save the page as UTF-8"
                )
            }
            return text
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        // Every byte sequence decodes in windows-1252, so this fallback cannot fail.
        printError(
            "webbridge check: note: --page \(shown) is not UTF-8 and declares no charset; read as windows-1252 (Latin-1). Remedy: add <meta charset=\"...\"> or save it as UTF-8"
        )
        return String(data: data, encoding: .windowsCP1252) ?? String(decoding: data, as: UTF8.self)
    }

    /// What a file of `mode` is when it is not a regular file ("a FIFO"), nil for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }

    /// What the file at `path` is when it exists and is not a regular file (symlinks followed), else nil.
    static func nonRegularKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return brokenLink(path) }
        return kind(info.st_mode)
    }

    /// What a symbolic link at `path` is when following it finds no file: a loop, or a link to nothing.
    static func brokenLink(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) != 0 else { return nil }
        return errno == ELOOP
            ? "a symbolic link that loops (it leads back to itself)" : "a symbolic link to a file that does not exist"
    }

    /// The encoding a byte-order mark names, and the mark's length.
    static func byteOrderMark(_ data: Data) -> (String.Encoding, Int)? {
        let bytes = Array(data.prefix(3))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        return nil
    }

    /// The charset a `<meta charset>` or `<meta http-equiv content="...; charset=...">` declares in the first 1024 bytes.
    static func declaredCharset(_ data: Data) -> String? {
        // The declaration is ASCII in every charset a page may declare this way.
        let head = String(decoding: data.prefix(1024).map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self).lowercased()
        var rest = head[...]
        while let meta = rest.range(of: "<meta") {
            let tagEnd = rest[meta.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let tag = rest[meta.upperBound..<tagEnd]
            if let charset = tag.range(of: "charset=") {
                let value = tag[charset.upperBound...].drop(while: { $0 == "\"" || $0 == "'" || $0 == " " })
                let label = value.prefix(while: { $0.isLetter || $0.isNumber || "-_.:".contains($0) })
                if !label.isEmpty { return String(label) }
            }
            rest = rest[tagEnd...]
        }
        return nil
    }

    /// The encoding for a charset label, as the WHATWG Encoding standard maps the common ones.
    static func encoding(forLabel label: String) -> String.Encoding? {
        switch label {
        case "utf-8", "utf8", "unicode-1-1-utf-8": .utf8
        // The standard reads all of these as windows-1252.
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "windows-1252", "cp1252", "us-ascii", "ascii", "x-cp1252",
            "iso_8859-1", "cp819", "ibm819":
            .windowsCP1252
        case "iso-8859-2", "latin2", "l2": .isoLatin2
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "shift_jis", "sjis", "shift-jis", "windows-31j": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "utf-16", "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        default: nil
        }
    }
}

extension PageFile {
    /// `<script type="module">` in any spelling HTML takes (case, quotes, other attributes before it).
    private static let moduleScript = try! NSRegularExpression(
        pattern: #"<script\b[^>]*\btype\s*=\s*["']?module["'\s>/]"#, options: [.caseInsensitive])

    /// Refuses, before the run, a `--page` that loads ES modules without `--serve`: WebKit loads no module from a
    /// `file:` URL, so the page would post nothing and the check would only report that nothing arrived.
    static func refuseModules(_ html: String, path: String) throws(CommandError) {
        let range = NSRange(html.startIndex..., in: html)
        guard moduleScript.firstMatch(in: html, range: range) != nil else { return }
        let folder = (path as NSString).deletingLastPathComponent
        let shown = TerminalText.escape(path)
        throw CommandError(
            "--page \(shown): the page loads ES modules (<script type=\"module\">), which WebKit does not load from a file: URL; the check would only see that nothing arrived. Remedy: serve its folder with the check: --serve \(TerminalText.escape(folder.isEmpty ? "." : folder)) --page \(shown)"
        )
    }
}
