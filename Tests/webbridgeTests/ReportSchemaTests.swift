import BridgeContract
import BridgeTesting
import Foundation
import XCTest

/// Docs/report.schema.json is the JSON report's contract: real outputs follow it, and it names exactly the
/// identifiers the tool writes.
final class ReportSchemaTests: XCTestCase {
    func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: SchemaCheck.report))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func definition(_ name: String) throws -> [String: Any] {
        try XCTUnwrap((try schema()["$defs"] as? [String: Any])?[name] as? [String: Any], name)
    }

    func testTheSchemaListsEveryCategoryRuleAndDirectionTheToolWrites() throws {
        XCTAssertEqual(
            try definition("category")["enum"] as? [String], FailureCategory.allCases.map(\.identifier))
        let violation = try XCTUnwrap(try definition("violation")["properties"] as? [String: Any])
        XCTAssertEqual(
            (violation["rule"] as? [String: Any])?["enum"] as? [String], ContractViolation.Rule.allCases.map(\.rawValue)
        )
        XCTAssertEqual(
            (violation["direction"] as? [String: Any])?["enum"] as? [String], Direction.allCases.map(\.rawValue))
    }

    /// A failing page's real report follows the schema, and the same report with one identifier made prose does
    /// not: the validator runs, and a shape change fails the tests.
    func testAFailingPageFollowsTheSchemaAndABrokenCopyDoesNot() throws {
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).html")
        try fixture.replacingOccurrences(of: "version: 1", with: "version: true")
            .write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let result = try CLI.run(["check", "--page", page.path, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let document = try SchemaCheck.validReport(result.stdout)
        let session = try XCTUnwrap((try SchemaCheck.onlyPage(document)["sessions"] as? [[String: Any]])?.first)
        let violation = try XCTUnwrap(
            ((session["rejections"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]])?.first)
        XCTAssertEqual(violation["path"] as? String, "version")
        XCTAssertEqual(violation["rule"] as? String, "wrong-type")
        XCTAssertEqual(violation["found"] as? String, "Boolean")

        let prose = result.stdout.replacingOccurrences(
            of: "\"category\" : \"native-did-not-receive\"",
            with: "\"category\" : \"native did not receive the page's message\"")
        XCTAssertNotEqual(prose, result.stdout)
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data(prose.utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let errors = try XCTUnwrap(try SchemaCheck.errors([broken.path], schema: ["--schemafile", SchemaCheck.report]))
        XCTAssertTrue(errors.contains("is not one of"), errors)
    }
}
