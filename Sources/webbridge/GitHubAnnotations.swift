import BridgeTesting
import Foundation

/// `--reporter github`: each failed page as a GitHub Actions error annotation (a workflow command on standard
/// output), so the pull request shows the failure at the page's file and line:
/// `::error file=web/checkout.html,line=12,title=webbridge: native did not receive the page's message::…`.
///
/// The line is where the failing message comes from when the page file names it: the first line that quotes a
/// message kind the failure names (`'ready'` in "no valid 'ready'"). Without one the annotation is on the file;
/// a `--url` page has no file in the repository, so its annotation names the page in the text only.
enum GitHubAnnotations {
    /// The annotation of one page, or nil when it passed. `file` is the page's path as given on the command line.
    static func annotation(page: String, file: String?, tally: BridgeReport) -> String? {
        guard !tally.passed else { return nil }
        let failure = tally.kept.lazy.flatMap(\.report.failures).first
        let category = failure?.category.rawValue ?? tally.failedCategories.first?.rawValue ?? "failed"
        var properties: [String] = []
        if let file {
            properties.append("file=\(property(file))")
            if let failure, let line = line(quoting: quotedNames(failure.detail), in: file) {
                properties.append("line=\(line)")
            }
        }
        properties.append("title=\(property("webbridge: \(category)"))")
        let counts =
            "\(tally.failedCount) of \(tally.sessionCount) \(tally.sessionCount == 1 ? "session" : "sessions") failed"
        let text = "\(TerminalText.escape(page)): \(failure?.description ?? category) (\(counts))"
        return "::error \(properties.joined(separator: ","))::\(data(TerminalText.line(text)))"
    }

    /// The names a failure's text quotes (`'ready'`), in order.
    static func quotedNames(_ text: String) -> [String] {
        text.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && !$0.element.isEmpty && !$0.element.contains(" ") }
            .map { String($0.element) }
    }

    /// The first line (1-based) of `file` that quotes one of `names` as a JS string, trying the names in order.
    static func line(quoting names: [String], in file: String) -> Int? {
        guard !names.isEmpty, let data = FileManager.default.contents(atPath: file) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for name in names {
            let spellings = ["\"\(name)\"", "'\(name)'", "`\(name)`"]
            if let index = lines.firstIndex(where: { line in spellings.contains { line.contains($0) } }) {
                return index + 1
            }
        }
        return nil
    }

    /// An annotation's message: `%`, CR and LF escaped as the runner reads them.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property's value: also `:` and `,`, which end a property.
    static func property(_ text: String) -> String {
        data(TerminalText.escape(text)).replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}

extension PageEntry {
    /// The page's file for an annotation: a `--page` file as given; nil for a URL or the bundled fixture.
    var annotationFile: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}
