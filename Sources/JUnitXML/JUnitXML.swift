import Foundation
import TerminalEscape

/// The one writer of JUnit XML: the check's reports and the cloud-Mac job's results both describe their runs as
/// these values, and only this file knows the document's shape (Surefire's, which Jenkins xunit's junit-10.xsd
/// validates), its escape and its time format.
package enum JUnitXML {
    /// What a test case holds besides its name: how it failed, why it was skipped, what it printed.
    package struct Element: Sendable, Equatable {
        let xml: String

        /// How a case did not pass: `failure`, `error`, and Surefire's `flakyFailure` (a failed try of a case that
        /// passed on a retry) and `rerunFailure` (a retry of a case that still fails).
        package enum Outcome: String, Sendable {
            case failure, error, flakyFailure, rerunFailure
        }

        /// `<failure type="…" message="…">text</failure>` (or one of the other outcomes).
        package static func outcome(_ outcome: Outcome, type: String, message: String, text: String) -> Element {
            let name = outcome.rawValue
            return Element(
                xml: "<\(name) type=\"\(escape(type))\" message=\"\(escape(message))\">\(escape(text))</\(name)>")
        }

        /// `<skipped message="…"/>`.
        package static func skipped(message: String) -> Element {
            Element(xml: "<skipped message=\"\(escape(message))\"/>")
        }

        /// `<system-out>text</system-out>`: what the case printed, or a note dashboards show beside it.
        package static func systemOut(_ text: String) -> Element {
            Element(xml: "<system-out>\(escape(text))</system-out>")
        }
    }

    /// One `<testcase>`.
    package struct Case: Sendable {
        package var name: String
        package var classname: String
        package var seconds: Double
        package var elements: [Element]

        package init(name: String, classname: String, seconds: Double, elements: [Element] = []) {
            self.name = name
            self.classname = classname
            self.seconds = seconds
            self.elements = elements
        }
    }

    /// One `<testsuite>` with its counts. The counts are given, not counted from `cases`: a suite may count cases
    /// it does not list (a check keeps a bounded number of sessions in full).
    package struct Suite: Sendable {
        package var name: String
        package var tests: Int
        package var failures: Int
        package var errors: Int
        package var skipped: Int
        package var seconds: Double
        /// `<properties>`, in order; none writes no `<properties>` element.
        package var properties: [(name: String, value: String)]
        package var cases: [Case]

        package init(
            name: String, tests: Int, failures: Int, errors: Int = 0, skipped: Int, seconds: Double,
            properties: [(name: String, value: String)] = [], cases: [Case]
        ) {
            self.name = name
            self.tests = tests
            self.failures = failures
            self.errors = errors
            self.skipped = skipped
            self.seconds = seconds
            self.properties = properties
            self.cases = cases
        }
    }

    /// The document: `<testsuites name>` carrying the sums of its suites' counts and times, as dashboards read the
    /// root. Skipped cases are counted on each `<testsuite>` only: junit-10.xsd has no `skipped` on the root.
    package static func document(name: String, _ suites: [Suite]) -> String {
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        let seconds = suites.reduce(0) { $0 + $1.seconds }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="\(escape(name))" tests="\(tests)" failures="\(failures)" errors="\(errors)" time="\(time(seconds))">
            \(suites.map(xml).joined(separator: "\n"))
            </testsuites>
            """
    }

    /// Seconds as JUnit's `time` attribute: `0.168`.
    package static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    static func escape(_ text: String) -> String { text.escapingForXML }

    static func xml(_ suite: Suite) -> String {
        var lines = [
            "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"\(suite.skipped)\" time=\"\(time(suite.seconds))\">"
        ]
        if !suite.properties.isEmpty {
            lines.append("    <properties>")
            lines += suite.properties.map {
                "      <property name=\"\(escape($0.name))\" value=\"\(escape($0.value))\"/>"
            }
            lines.append("    </properties>")
        }
        lines += suite.cases.map(xml)
        lines.append("  </testsuite>")
        return lines.joined(separator: "\n")
    }

    static func xml(_ test: Case) -> String {
        let open =
            "    <testcase name=\"\(escape(test.name))\" classname=\"\(escape(test.classname))\" time=\"\(time(test.seconds))\""
        guard !test.elements.isEmpty else { return open + "/>" }
        return open + ">\n" + test.elements.map { "      " + $0.xml }.joined(separator: "\n") + "\n    </testcase>"
    }
}
