import Foundation
import XCTest

/// `webbridge xcode test --report junit=FILE`: the JUnit read off the result bundle (real recorded
/// `xcresulttool get test-results tests` output, replayed by the stand-in), validated as a strict dashboard does.
extension XcodeCommandTests {
    /// xmllint's complaints about `file` against the common JUnit schema kept in the tests; nil when it is valid.
    func junitSchemaErrors(_ file: String) throws -> String? {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/junit-10.xsd").path
        let result = try ExternalTool.run(["xmllint", "--noout", "--schema", schema, file])
        if result.status == 127 { throw MissingTool(name: "xmllint (Debian libxml2-utils)") }
        return result.status == 0 ? nil : result.stderr
    }

    func testTheJUnitOfAFailingRunHoldsEachTestAndValidates() throws {
        let (environment, folder) = try failingXcode16Job(retry: [])
        let junit = folder.appendingPathComponent("junit.xml").path
        let result = try CLI.run(
            ["xcode", "test", "--report", "junit=junit.xml"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertNil(try junitSchemaErrors(junit), "the JUnit breaks junit-10.xsd")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(
            xml.contains(
                #"<testsuites name="webbridge xcode test" tests="7" failures="2" errors="0" time="0.448">"#), xml)
        XCTAssertTrue(
            xml.contains(
                #"<testsuite name="RandomStuffTests" tests="7" failures="2" errors="0" skipped="1" time="0.448">"#),
            xml)
        XCTAssertTrue(
            xml.contains(
                #"<testcase name="testFoo()" classname="RandomStuffTests.RandomStuffTests" time="0.002">"#
                    + "\n"
                    + #"      <failure type="failed" message="RandomStuffTests.swift:38: XCTAssertEqual failed: (&quot;1&quot;) is not equal to (&quot;2&quot;)">"#
            ), xml)
        XCTAssertTrue(
            xml.contains(
                #"<skipped message="Test skipped - Required API is not available for this test."/>"#), xml)
        XCTAssertTrue(
            xml.contains(
                #"<testcase name="testExample()" classname="RandomStuffTests.RandomStuffTests" time="0.001"/>"#),
            xml)
    }

    func testTheJUnitAfterARetryMarksTheTestsThatPassedOnItFlaky() throws {
        let (environment, folder) = try failingXcode16Job(retry: Self.retryThatPasses)
        let junit = folder.appendingPathComponent("junit.xml").path
        let result = try CLI.run(
            ["xcode", "test", "--retries", "1", "--report", "junit=" + junit], environment: environment,
            currentDirectory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNil(try junitSchemaErrors(junit), "the JUnit breaks junit-10.xsd")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="7" failures="0" errors="0""#), xml)
        XCTAssertEqual(xml.components(separatedBy: "<flakyFailure ").count - 1, 2, xml)
        XCTAssertFalse(xml.contains("<failure "), xml)
    }

    func testTheJUnitIsNotWrittenWhenTheBundleCannotBeReadAndAPassingRunExitsThree() throws {
        let folder = try ecmaswiftFolder(
            pinned: true,
            overrides: [
                "xcodeVersion": "16.2", "xcodeBuild": "16C5032a", "onlyTesting": "RandomStuffTests/RandomStuffTests",
            ])
        // No xcresulttool recording: the stand-in fails it (127), as a bundle xcresulttool cannot read would.
        let (environment, _) = try replay([
            [
                "tool": "xcodebuild", "contains": ["-version"],
                "output": Self.fixtures.appendingPathComponent("xcodebuild-version_xcode16.2_DOCUMENTED-FORMAT.txt")
                    .path,
            ],
            [
                "tool": "xcrun", "contains": ["simctl", "list", "devices"],
                "output": Self.realdata("simctl/openbakery_simctl-list-xcode16.json").path,
            ],
            [
                "tool": "xcodebuild", "contains": ["test"],
                "output": Self.realdata("xcodebuild/verbum_xcode26.4_test-succeeded_sim-id.txt").path,
                "createBundle": true,
            ],
        ])
        let result = try CLI.run(
            ["xcode", "test", "--report", "junit=junit.xml"], environment: environment, currentDirectory: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("junit.xml").path))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("webbridge xcode test: could not read per-test results: ") }, result.stderr)
        XCTAssertEqual(
            lines.last,
            "webbridge xcode test: --report junit=junit.xml: not written: the run's per-test results could not be read. Remedy: see the result bundle's error above",
            result.stderr)
    }

    func testTheJUnitNeverReplacesTheConfigOrWritesIntoAFolder() throws {
        let folder = try ecmaswiftFolder(pinned: false, overrides: ["xcodeVersion": "16.2"])
        let config = folder.appendingPathComponent("webbridge-job.json")
        let before = try Data(contentsOf: config)
        for target in [config.path, folder.path] {
            let result = try CLI.run(
                ["xcode", "test", "--config", config.path, "--report", "junit=" + target], environment: linux)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("webbridge xcode test: --report junit="), result.stderr)
            XCTAssertTrue(result.stderr.contains("Remedy: name"), result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: config), before)
    }
}
