import Foundation

/// Renders check reports for people (text), programs (JSON) and CI dashboards (JUnit XML).
public enum ReportRendering {
    /// A session's timeline and its verdicts, one line each.
    public static func text(session index: Int, _ report: SessionReport, timeline: Bool = true) -> String {
        var lines = ["session \(index)"]
        if timeline {
            for entry in report.timeline {
                let time = String(format: "%8.1f ms", entry.milliseconds)
                let event = entry.event.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                lines.append("  \(time)  \(event)\(entry.note)".trimmingTrailingSpaces())
            }
        }
        if report.load.status == .fail {
            lines.append(verdictLine("load         ", report.load))
        }
        lines.append(verdictLine("page → native", report.pageToNative))
        lines.append(verdictLine("native → page", report.nativeToPage))
        // A failed ready already lists what arrived instead.
        if report.pageToNative.status == .pass {
            for extra in report.extraMessages { lines.append("  also seen: \(extra)") }
        }
        return lines.joined(separator: "\n")
    }

    private static func verdictLine(_ name: String, _ verdict: DirectionVerdict) -> String {
        let status = verdict.status.rawValue.uppercased()
        let detail = verdict.failure?.description ?? verdict.note
        return "  \(name)  \(status.padding(toLength: 9, withPad: " ", startingAt: 0))\(detail)"
            .trimmingTrailingSpaces()
    }

    /// The closing line: the verdict over every session and the first failure's category.
    public static func summary(_ reports: [SessionReport]) -> String {
        let failed = reports.filter { !$0.passed }
        let sessions = reports.count == 1 ? "1 session" : "\(reports.count) sessions"
        guard !failed.isEmpty else {
            return "PASS: both directions of the bridge hold (\(sessions))"
        }
        let categories = Set(failed.flatMap(\.failures).map(\.category.rawValue)).sorted()
        return "FAIL: \(categories.joined(separator: "; ")) (\(failed.count) of \(sessions) failed)"
    }

    /// Every session as JSON, with the overall verdict.
    public static func json(_ reports: [SessionReport]) -> String {
        struct Document: Encodable {
            let passed: Bool
            let sessions: [SessionReport]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(passed: reports.allSatisfy(\.passed), sessions: reports))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// JUnit XML with one test case per direction per session.
    public static func junit(_ reports: [SessionReport], suite: String = "webbridge check") -> String {
        var cases: [String] = []
        var failures = 0
        var skipped = 0
        for (offset, report) in reports.enumerated() {
            let elapsed = (report.timeline.last?.milliseconds ?? 0) / 1000
            for (name, verdict) in [("page to native", report.pageToNative), ("native to page", report.nativeToPage)] {
                var body = ""
                switch verdict.status {
                case .pass:
                    break
                case .fail:
                    failures += 1
                    let failure = verdict.failure ?? BridgeFailure(.nativeDidNotReceive, "")
                    body =
                        "<failure type=\"\(xml(failure.category.rawValue))\" message=\"\(xml(failure.description))\"/>"
                case .notRun:
                    if let loadFailure = report.load.failure {
                        failures += 1
                        body =
                            "<failure type=\"\(xml(loadFailure.category.rawValue))\" message=\"\(xml(loadFailure.description))\"/>"
                    } else {
                        skipped += 1
                        body = "<skipped message=\"\(xml(verdict.note))\"/>"
                    }
                }
                cases.append(
                    "    <testcase classname=\"webbridge.session\(offset + 1)\" name=\"\(name)\" time=\"\(String(format: "%.3f", elapsed))\">\(body)</testcase>"
                )
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="\(xml(suite))" tests="\(cases.count)" failures="\(failures)" skipped="\(skipped)">
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>
            """
    }

    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // XML 1.0 cannot carry other control characters even escaped.
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
