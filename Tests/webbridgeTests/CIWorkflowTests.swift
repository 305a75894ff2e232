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
