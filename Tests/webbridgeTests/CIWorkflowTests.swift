import Foundation
import XCTest

/// Docs/CI.md's workflow is GitHub's shape (its workflow schema, as check-jsonschema ships it: nothing is
/// downloaded) and holds what the doc promises: one build, Linux shards, a merge that uploads the report, the
/// macOS job.
final class CIWorkflowTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The one ```yaml block under "## The workflow", written to `name`.
    func workflow(_ name: String = "bridge.yml", change: (String) -> String = { $0 }) throws -> String {
        let doc = try String(
            contentsOf: SchemaCheck.repository.appendingPathComponent("Docs/CI.md"), encoding: .utf8)
        let section = try XCTUnwrap(doc.range(of: "## The workflow"), "Docs/CI.md has no workflow section")
        let rest = doc[section.upperBound...]
        let start = try XCTUnwrap(rest.range(of: "```yaml\n"), "no ```yaml block")
        let end = try XCTUnwrap(rest[start.upperBound...].range(of: "\n```"), "the yaml block is not closed")
        let path = scratch.appendingPathComponent(name)
        try Data(change(String(rest[start.upperBound..<end.lowerBound])).utf8).write(to: path)
        return path.path
    }

    /// `--reporter github` prints one `::error` workflow command per failed page, at the page's file and the line
    /// that sends the failing message; a passing page gets none, and the text report is the full one.
    func testTheGitHubReporterAnnotatesEachFailedPageAtItsFileAndLine() throws {
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let good = scratch.appendingPathComponent("good.html").path
        let broken = scratch.appendingPathComponent("broken, 100%.html").path
        try fixture.write(toFile: good, atomically: true, encoding: .utf8)
        try fixture.replacingOccurrences(of: "version: 1", with: #"version: "1""#)
            .write(toFile: broken, atomically: true, encoding: .utf8)
        for pages in [["--page", broken], ["--page", good, "--page", broken]] {
            let run = try CLI.run(["check"] + pages + ["--reporter", "github"])
            XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
            let annotations = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
            XCTAssertEqual(annotations.count, 1, run.stdout)
            let annotation = String(annotations.first ?? "")
            let file = broken.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ",", with: "%2C")
            XCTAssertTrue(annotation.hasPrefix("::error file=\(file),line="), annotation)
            let line = try XCTUnwrap(
                annotation.firstMatch(of: /,line=(\d+),/).flatMap { Int($0.1) }, annotation)
            let source = fixture.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertTrue(source[line - 1].contains("\"ready\""), "line \(line) is not the ready: \(source[line - 1])")
            XCTAssertTrue(
                annotation.contains(",title=webbridge%3A native did not receive the page's message::"), annotation)
            XCTAssertTrue(annotation.contains("(1 of 1 session failed)"), annotation)
            XCTAssertTrue(run.stdout.contains("  page → native  FAIL"), "not the full report: \(run.stdout)")
        }
        let passing = try CLI.run(["check", "--page", good, "--reporter", "github"])
        XCTAssertEqual(passing.status, 0, passing.stderr)
        XCTAssertFalse(passing.stdout.contains("::error"), passing.stdout)
    }

    /// The Mac job selects the pinned Xcode: with the example job it is a real Xcode_<version>.app, and a job that
    /// pins none stops the step with an annotation instead of selecting Xcode_null.app.
    func testTheMacJobSelectsThePinnedXcodeAndStopsOnAnUnpinnedJob() throws {
        let script = """
            import json, sys, yaml
            steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["ios-simulator"]["steps"]
            print(next(s["run"] for s in steps if s.get("name") == "Select the pinned Xcode"))
            """
        let read = try ExternalTool.run(["python3", "-c", script, try workflow()])
        XCTAssertEqual(read.status, 0, read.stderr)
        // `sudo xcode-select` replaced by echo: the test prints the path the step would select.
        let step = read.stdout.replacingOccurrences(of: "sudo xcode-select -s", with: "echo")
        let example = SchemaCheck.repository.appendingPathComponent("Examples/Client/webbridge-job.json").path
        let pinned = try ExternalTool.run(
            ["bash", "-ec", step], environment: ["JOB": example, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(pinned.status, 0, pinned.stdout + pinned.stderr)
        XCTAssertEqual(pinned.stdout, "/Applications/Xcode_16.4.app\n")
        let unpinned = scratch.appendingPathComponent("unpinned.json")
        try Data(#"{"scheme": "Client"}"#.utf8).write(to: unpinned)
        let refused = try ExternalTool.run(
            ["bash", "-ec", step], environment: ["JOB": unpinned.path, "PATH": "/usr/bin:/bin"])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stdout.contains("::error file=\(unpinned.path)::no xcodeVersion pinned"), refused.stdout)
        XCTAssertFalse(refused.stdout.contains("Xcode_null"), refused.stdout)
    }

    /// The Mac job's test step is a command line webbridge takes: run off a Mac with the example job, it gets as
    /// far as the job (exit 3, the run needs a Mac), never a usage error (exit 2).
    func testTheMacJobsTestCommandLineIsAccepted() throws {
        let script = """
            import json, sys, yaml
            steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["ios-simulator"]["steps"]
            print(next(s["run"] for s in steps if s.get("name") == "Bridge tests in the simulator"))
            """
        let read = try ExternalTool.run(["python3", "-c", script, try workflow()])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stdout.contains("--retries 2 --report junit=ios-bridge.xml"), read.stdout)
        let example = SchemaCheck.repository.appendingPathComponent("Examples/Client/webbridge-job.json").path
        let arguments = read.stdout.split(separator: " ").dropFirst().map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\"$JOB\"", with: example)
        }
        let run = try CLI.run(arguments, environment: ["PATH": "/usr/bin:/bin"], currentDirectory: scratch)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertFalse(run.stderr.contains("USAGE"), run.stderr)
    }

    func testTheWorkflowFollowsGitHubsWorkflowSchema() throws {
        let errors = try SchemaCheck.errors([try workflow()], schema: ["--builtin-schema", "vendor.github-workflows"])
        XCTAssertNil(errors)
        // The validator refuses what GitHub would: a misspelt key, a matrix that is not a mapping.
        let misspelt = try workflow("misspelt.yml") { $0.replacingOccurrences(of: "runs-on:", with: "runs_on:") }
        XCTAssertNotNil(try SchemaCheck.errors([misspelt], schema: ["--builtin-schema", "vendor.github-workflows"]))
        let matrix = try workflow("matrix.yml") {
            $0.replacingOccurrences(of: "      matrix:\n        shard: [1, 2, 3, 4]", with: "      matrix: 4")
        }
        XCTAssertNotNil(try SchemaCheck.errors([matrix], schema: ["--builtin-schema", "vendor.github-workflows"]))
    }

    /// The jobs the doc describes, read as YAML: build once, four shards, a merge after them that runs when a
    /// shard failed and uploads the merged report, and the macOS job.
    func testTheWorkflowShardsMergesUploadsAndRunsTheMacJob() throws {
        let script = """
            import json, sys, yaml
            print(json.dumps(yaml.safe_load(open(sys.argv[1]))["jobs"]))
            """
        let read = try ExternalTool.run(["python3", "-c", script, try workflow()])
        XCTAssertEqual(read.status, 0, read.stderr)
        let jobs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: [String: Any]])
        XCTAssertEqual(Set(jobs.keys), ["build", "check", "merge", "ios-simulator"])
        func steps(_ job: String) -> String {
            ((jobs[job]?["steps"] as? [[String: Any]]) ?? []).map { "\($0["uses"] ?? "") \($0["run"] ?? "")" }
                .joined(separator: "\n")
        }
        XCTAssertTrue(steps("build").contains("actions/cache@"), steps("build"))
        XCTAssertEqual(
            ((jobs["check"]?["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["shard"] as? [Int],
            [1, 2, 3, 4])
        XCTAssertTrue(steps("check").contains("--shard ${{ matrix.shard }}/4"), steps("check"))
        XCTAssertTrue(steps("check").contains("--report json=bridge-${{ matrix.shard }}.json"), steps("check"))
        XCTAssertEqual(jobs["merge"]?["needs"] as? String, "check")
        XCTAssertTrue((jobs["merge"]?["if"] as? String)?.contains("always()") == true)
        XCTAssertTrue(steps("merge").contains("webbridge report merge shards/*.json"), steps("merge"))
        XCTAssertTrue(steps("merge").contains("actions/upload-artifact@"), steps("merge"))
        // The JUnit action publishes a check run: without `checks: write` GitHub refuses it on pull requests.
        XCTAssertTrue(steps("merge").contains("mikepenz/action-junit-report@"), steps("merge"))
        XCTAssertEqual((jobs["merge"]?["permissions"] as? [String: String])?["checks"], "write")
        XCTAssertTrue((jobs["ios-simulator"]?["runs-on"] as? String)?.hasPrefix("macos") == true)
        XCTAssertTrue(steps("ios-simulator").contains("webbridge xcode test"), steps("ios-simulator"))
    }

    /// Every `webbridge` command line of the workflow is one the real tool takes (its help parses the options;
    /// GitHub's expressions filled in as the runner would).
    func testEveryWebbridgeCommandOfTheWorkflowParses() throws {
        let text = try String(contentsOfFile: try workflow(), encoding: .utf8)
            .replacingOccurrences(of: "${{ matrix.shard }}", with: "2").replacingOccurrences(of: "\\\n", with: " ")
        let commands = text.split(separator: "\n").compactMap { line -> [String]? in
            guard let range = line.range(of: "webbridge ") ?? nil,
                line.contains("tool/webbridge ")
                    || line.contains(".build/release/webbridge ")
            else { return nil }
            return line[range.upperBound...].split(separator: " ").map(String.init).filter { !$0.isEmpty }
        }
        XCTAssertGreaterThanOrEqual(commands.count, 6, "\(commands)")
        for command in commands {
            let words = command.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            let result = try CLI.run(words + ["--help"])
            XCTAssertEqual(result.status, 0, "webbridge \(words.joined(separator: " ")): \(result.stderr)")
        }
    }
}
