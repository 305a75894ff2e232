import Foundation
import TerminalEscape

/// The JUnit XML of a `webbridge xcode test` run, read off its result bundle (and its retries' bundles): one
/// `<testsuite>` per test bundle, one `<testcase>` per test (classname `Target.Class`, name the method, time the
/// first run's). The shape is Surefire's, which common JUnit schemas (Jenkins xunit's junit-10.xsd) validate: a
/// test that failed and then passed on a retry passes with a `<flakyFailure>` per failed try; one that still
/// fails has its `<failure>` and a `<rerunFailure>` per retry. `skipped` is counted on each suite, not the root.
public enum TestResultsJUnit {
    /// The document for `outcome`'s results; nil when the run's results were not read.
    public static func document(_ outcome: JobOutcome) -> String? {
        guard let results = outcome.results else { return nil }
        var order: [String] = []
        var byTarget: [String: [TestCaseResult]] = [:]
        for test in results.cases {
            let target = test.target ?? "tests"
            if byTarget[target] == nil { order.append(target) }
            byTarget[target, default: []].append(test)
        }
        let suites = order.map { suite($0, byTarget[$0]!, retries: outcome.retries) }
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        let seconds = suites.reduce(0) { $0 + $1.seconds }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="webbridge xcode test" tests="\(tests)" failures="\(failures)" errors="\(errors)" time="\(time(seconds))">
            \(suites.map(\.xml).joined(separator: "\n"))
            </testsuites>
            """
    }

    struct Suite {
        let xml: String
        let tests: Int
        let failures: Int
        let errors: Int
        let seconds: Double
    }

    static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    static func attribute(_ text: String) -> String { text.escapingForXML }

    /// A failure element: its first message as `message`, all of them as its text.
    static func element(_ name: String, type: String, _ messages: [String]) -> String {
        let first = messages.first ?? "no failure message recorded in the result bundle"
        let body = messages.joined(separator: "\n").escapingForXML
        return "<\(name) type=\"\(attribute(type))\" message=\"\(attribute(first))\">\(body)</\(name)>"
    }

    static func suite(_ name: String, _ cases: [TestCaseResult], retries: [RetryAttempt]) -> Suite {
        var failures = 0
        var errors = 0
        var skipped = 0
        var seconds = 0.0
        var lines: [String] = []
        for test in cases {
            seconds += test.seconds ?? 0
            let tried = retries.filter { $0.retried.contains(test) }
            let passedOn = tried.first { $0.passed(test) }
            var body: [String] = []
            switch test.outcome {
            case .passed:
                break
            case .expectedFailure:
                let note = "expected failure: " + test.messages.joined(separator: "\n")
                body.append("<system-out>\(note.escapingForXML)</system-out>")
            case .skipped:
                skipped += 1
                body.append("<skipped message=\"\(attribute(test.messages.first ?? "skipped"))\"/>")
            case .failed:
                let retryFailures = tried.filter { $0.number < (passedOn?.number ?? Int.max) }.map { attempt in
                    guard let again = attempt.result(of: test) else {
                        return ["did not run on retry \(attempt.number)"]
                    }
                    return again.messages.isEmpty ? ["failed on retry \(attempt.number)"] : again.messages
                }
                if passedOn != nil {
                    // Passed on a retry: a pass, with each failed try kept.
                    body.append(element("flakyFailure", type: "failed", test.messages))
                    body += retryFailures.map { element("flakyFailure", type: "failed", $0) }
                } else {
                    failures += 1
                    body.append(element("failure", type: "failed", test.messages))
                    body += retryFailures.map { element("rerunFailure", type: "failed", $0) }
                }
            case .other(let text):
                errors += 1
                body.append(element("error", type: text, test.messages.isEmpty ? ["result: \(text)"] : test.messages))
            }
            let classname = ([test.target].compactMap { $0 } + [test.className]).joined(separator: ".")
            let open =
                "    <testcase name=\"\(attribute(test.methodName))\" classname=\"\(attribute(classname))\" time=\"\(time(test.seconds ?? 0))\""
            lines.append(
                body.isEmpty
                    ? open + "/>"
                    : open + ">\n" + body.map { "      " + $0 }.joined(separator: "\n") + "\n    </testcase>")
        }
        let xml = """
              <testsuite name="\(attribute(name))" tests="\(cases.count)" failures="\(failures)" errors="\(errors)" skipped="\(skipped)" time="\(time(seconds))">
            \(lines.joined(separator: "\n"))
              </testsuite>
            """
        return Suite(xml: xml, tests: cases.count, failures: failures, errors: errors, seconds: seconds)
    }
}
