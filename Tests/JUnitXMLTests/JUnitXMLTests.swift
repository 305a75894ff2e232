import XCTest

@testable import JUnitXML

/// The one JUnit writer: the shape both the check's report and the cloud-Mac job's results are written in.
final class JUnitXMLTests: XCTestCase {
    func testTheDocumentSumsItsSuitesAndWritesEachCaseInTheSameShape() {
        let failed = JUnitXML.Case(
            name: "session 1: page → native", classname: "web/a.html", seconds: 0.1504,
            elements: [
                .outcome(.failure, type: "category", message: "a <b> & 'c'", text: "line 1\nline 2"),
                .systemOut("why"),
            ])
        let passed = JUnitXML.Case(name: "testExample()", classname: "Tests.Tests", seconds: 0.001)
        let skipped = JUnitXML.Case(
            name: "skip", classname: "Tests.Tests", seconds: 0, elements: [.skipped(message: "no")])
        let xml = JUnitXML.document(
            name: "runs",
            [
                JUnitXML.Suite(
                    name: "web/a.html", tests: 4, failures: 1, skipped: 0, seconds: 0.3,
                    properties: [("webbridge.version", "1.0")], cases: [failed]),
                JUnitXML.Suite(
                    name: "Tests", tests: 2, failures: 0, errors: 1, skipped: 1, seconds: 0.001,
                    cases: [passed, skipped]),
            ])
        XCTAssertEqual(
            xml,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="runs" tests="6" failures="1" errors="1" time="0.301">
              <testsuite name="web/a.html" tests="4" failures="1" errors="0" skipped="0" time="0.300">
                <properties>
                  <property name="webbridge.version" value="1.0"/>
                </properties>
                <testcase name="session 1: page → native" classname="web/a.html" time="0.150">
                  <failure type="category" message="a &lt;b&gt; &amp; &apos;c&apos;">line 1
            line 2</failure>
                  <system-out>why</system-out>
                </testcase>
              </testsuite>
              <testsuite name="Tests" tests="2" failures="0" errors="1" skipped="1" time="0.001">
                <testcase name="testExample()" classname="Tests.Tests" time="0.001"/>
                <testcase name="skip" classname="Tests.Tests" time="0.000">
                  <skipped message="no"/>
                </testcase>
              </testsuite>
            </testsuites>
            """)
    }

    func testCharactersXMLCannotCarryAreReplaced() {
        let text = JUnitXML.Element.systemOut("a\u{0}b\u{1B}c\td").xml
        XCTAssertEqual(text, "<system-out>a?b?c\td</system-out>")
    }
}
