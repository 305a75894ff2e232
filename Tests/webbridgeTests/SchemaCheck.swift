import Foundation
import XCTest

/// Validates real outputs against a JSON Schema the way a CI step would: with check-jsonschema (PyPI, over python's
/// jsonschema; scripts/setup.sh installs it). Its builtin schemas include GitHub's workflow schema, vendored in the
/// package, so nothing is downloaded.
enum SchemaCheck {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL
    /// The report's schema: what every JSON report must follow.
    static let report = repository.appendingPathComponent("Docs/report.schema.json").path

    /// check-jsonschema's verdict on `files`: nil when they are valid, its error text otherwise.
    /// `schema` is `--schemafile PATH` or `--builtin-schema NAME`.
    static func errors(_ files: [String], schema: [String]) throws -> String? {
        let result = try ExternalTool.run(["python3", "-m", "check_jsonschema"] + schema + files)
        if result.stderr.contains("No module named check_jsonschema") {
            throw MissingTool(name: "check-jsonschema (PyPI)")
        }
        return result.status == 0 ? nil : result.stdout + result.stderr
    }

    /// `json` (a run's JSON report), validated against Docs/report.schema.json and parsed.
    static func validReport(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        if let errors = try errors([path.path], schema: ["--schemafile", report]) {
            XCTFail("the JSON report breaks Docs/report.schema.json:\n\(errors)\n\(json)", file: file, line: line)
        }
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json, file: file, line: line)
    }

    /// The one page of a single-page report (a suite of one).
    static func onlyPage(_ document: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        let pages = try XCTUnwrap(document["pages"] as? [[String: Any]], "\(document)", file: file, line: line)
        XCTAssertEqual(pages.count, 1, "a single page is a suite of one", file: file, line: line)
        return try XCTUnwrap(pages.first, file: file, line: line)
    }
}
