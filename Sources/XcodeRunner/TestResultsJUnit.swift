import Foundation
import JUnitXML

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
        return JUnitXML.document(
            name: "webbridge xcode test", order.map { suite($0, byTarget[$0]!, retries: outcome.retries) })
    }

    /// A failure element: its first message as `message`, all of them as its text.
    static func element(_ outcome: JUnitXML.Element.Outcome, type: String, _ messages: [String]) -> JUnitXML.Element {
        let first = messages.first ?? "no failure message recorded in the result bundle"
        return .outcome(outcome, type: type, message: first, text: messages.joined(separator: "\n"))
    }

    static func suite(_ name: String, _ cases: [TestCaseResult], retries: [RetryAttempt]) -> JUnitXML.Suite {
        var failures = 0
        var errors = 0
        var skipped = 0
        var seconds = 0.0
        var written: [JUnitXML.Case] = []
        for test in cases {
            seconds += test.seconds ?? 0
            let tried = retries.filter { $0.retried.contains(test) }
            let passedOn = tried.first { $0.passed(test) }
            var body: [JUnitXML.Element] = []
            switch test.outcome {
            case .passed:
                break
            case .expectedFailure:
                body.append(.systemOut("expected failure: " + test.messages.joined(separator: "\n")))
            case .skipped:
                skipped += 1
                body.append(.skipped(message: test.messages.first ?? "skipped"))
            case .failed:
                let retryFailures = tried.filter { $0.number < (passedOn?.number ?? Int.max) }.map { attempt in
                    guard let again = attempt.result(of: test) else {
                        return ["did not run on retry \(attempt.number)"]
                    }
                    return again.messages.isEmpty ? ["failed on retry \(attempt.number)"] : again.messages
                }
                if passedOn != nil {
                    // Passed on a retry: a pass, with each failed try kept.
                    body.append(element(.flakyFailure, type: "failed", test.messages))
                    body += retryFailures.map { element(.flakyFailure, type: "failed", $0) }
                } else {
                    failures += 1
                    body.append(element(.failure, type: "failed", test.messages))
                    body += retryFailures.map { element(.rerunFailure, type: "failed", $0) }
                }
            case .other(let text):
                errors += 1
                body.append(element(.error, type: text, test.messages.isEmpty ? ["result: \(text)"] : test.messages))
            }
            let classname = ([test.target].compactMap { $0 } + [test.className]).joined(separator: ".")
            written.append(
                JUnitXML.Case(name: test.methodName, classname: classname, seconds: test.seconds ?? 0, elements: body))
        }
        return JUnitXML.Suite(
            name: name, tests: cases.count, failures: failures, errors: errors, skipped: skipped, seconds: seconds,
            cases: written)
    }
}
