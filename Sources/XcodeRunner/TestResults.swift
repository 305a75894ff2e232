import Foundation

/// How one test ended, normalized across the two xcresulttool layouts.
public enum TestOutcome: Sendable, Equatable, CustomStringConvertible {
    case passed, failed, skipped, expectedFailure
    case other(String)

    /// Maps both vocabularies: `Passed`/`Success`, `Failed`/`Failure`, `Skipped`, `Expected Failure`.
    public init(_ text: String) {
        switch text {
        case "Passed", "Success": self = .passed
        case "Failed", "Failure": self = .failed
        case "Skipped": self = .skipped
        case "Expected Failure": self = .expectedFailure
        default: self = .other(text)
        }
    }

    public var description: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        case .expectedFailure: "expected failure"
        case .other(let text): text
        }
    }
}

/// Per-test outcomes read from a result bundle, keyed by `Class/method()`.
public struct TestResults: Sendable, Equatable {
    public var outcomes: [String: TestOutcome]

    public init(outcomes: [String: TestOutcome]) { self.outcomes = outcomes }

    /// Parses `xcresulttool get test-results tests` (Xcode 16+) or a legacy `ActionTestPlanRunSummaries`.
    public init(json data: Data, source: String) throws(XcodeRunnerError) {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw XcodeRunnerError(
                .resultsUnreadable, field: source, rule: "xcresulttool did not print a JSON object",
                remedy: "open the result bundle in Xcode; check 'xcrun xcresulttool version'")
        }
        var outcomes: [String: TestOutcome] = [:]
        if let nodes = root["testNodes"] as? [Any] {
            Self.collectNodes(nodes, into: &outcomes)
        } else if Self.typeName(root) == "ActionTestPlanRunSummaries" {
            for case let summary as [String: Any] in Self.values(root["summaries"]) {
                for case let testable as [String: Any] in Self.values(summary["testableSummaries"]) {
                    Self.collectLegacy(Self.values(testable["tests"]), into: &outcomes)
                }
            }
        } else {
            throw XcodeRunnerError(
                .resultsUnreadable, field: source,
                rule: "neither \"testNodes\" (Xcode 16+) nor an ActionTestPlanRunSummaries (legacy) at the top level",
                remedy: "read the bundle with 'xcrun xcresulttool get test-results tests --path <bundle>'")
        }
        self.init(outcomes: outcomes)
    }

    /// The `testsRef` ids of a legacy `ActionsInvocationRecord`, to fetch each with `--id`.
    public static func legacyTestsReferences(json data: Data, source: String) throws(XcodeRunnerError) -> [String] {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            typeName(root) == "ActionsInvocationRecord"
        else {
            throw XcodeRunnerError(
                .resultsUnreadable, field: source, rule: "not an ActionsInvocationRecord",
                remedy: "read the bundle with 'xcrun xcresulttool get --format json --path <bundle>'")
        }
        var ids: [String] = []
        for case let action as [String: Any] in values(root["actions"]) {
            let result = action["actionResult"] as? [String: Any]
            let ref = result?["testsRef"] as? [String: Any]
            if let id = (ref?["id"] as? [String: Any])?["_value"] as? String { ids.append(id) }
        }
        return ids
    }

    static func typeName(_ object: [String: Any]) -> String? {
        (object["_type"] as? [String: Any])?["_name"] as? String
    }

    static func values(_ object: Any?) -> [Any] {
        ((object as? [String: Any])?["_values"] as? [Any]) ?? []
    }

    static func string(_ object: Any?) -> String? {
        (object as? [String: Any])?["_value"] as? String
    }

    private static func collectNodes(_ nodes: [Any], into outcomes: inout [String: TestOutcome]) {
        for case let node as [String: Any] in nodes {
            if node["nodeType"] as? String == "Test Case" {
                let id = (node["nodeIdentifier"] as? String) ?? (node["name"] as? String) ?? "?"
                outcomes[id] = TestOutcome((node["result"] as? String) ?? "unknown")
                // Repetitions and arguments below a test case are parts of it, not tests of their own.
                continue
            }
            collectNodes(node["children"] as? [Any] ?? [], into: &outcomes)
        }
    }

    private static func collectLegacy(_ tests: [Any], into outcomes: inout [String: TestOutcome]) {
        for case let test as [String: Any] in tests {
            if let status = string(test["testStatus"]) {
                let id = string(test["identifier"]) ?? string(test["name"]) ?? "?"
                outcomes[id] = TestOutcome(status)
            }
            collectLegacy(values(test["subtests"]), into: &outcomes)
        }
    }

    /// Outcomes of the tests under `onlyTesting` (`Target/Class[/method]`), keyed without the target.
    public func restricted(to onlyTesting: String) -> TestResults {
        let parts = onlyTesting.split(separator: "/").map(String.init)
        // The target is not part of the identifiers xcresulttool prints.
        let scope = parts.count > 1 ? parts.dropFirst().joined(separator: "/") : onlyTesting
        return TestResults(
            outcomes: outcomes.filter { key, _ in
                let bare = key.hasSuffix("()") ? String(key.dropLast(2)) : key
                return key == scope || bare == scope || key.hasPrefix(scope + "/")
            })
    }

    /// One line per test whose outcome differs (or that ran on one side only).
    public func differences(from other: TestResults, left: String, right: String) -> [String] {
        let names = Set(outcomes.keys).union(other.outcomes.keys).sorted()
        return names.compactMap { name in
            let mine = outcomes[name]
            let theirs = other.outcomes[name]
            guard mine != theirs else { return nil }
            return
                "\(name): \(left) \(mine?.description ?? "did not run"), \(right) \(theirs?.description ?? "did not run")"
        }
    }
}

/// Reads per-test outcomes from a result bundle with the xcresulttool of the running Xcode.
public struct ResultReader: Sendable {
    public let tools: ToolRunner
    /// The Xcode major version; 16 and later use `get test-results tests`, earlier ones the object graph.
    public let xcodeMajor: Int

    public init(tools: ToolRunner, xcodeMajor: Int) {
        self.tools = tools
        self.xcodeMajor = xcodeMajor
    }

    public func read(_ bundle: URL) throws(XcodeRunnerError) -> TestResults {
        if xcodeMajor >= 16 {
            let output = try run([
                "xcresulttool", "get", "test-results", "tests", "--path", bundle.path, "--format", "json",
            ])
            return try TestResults(json: Data(output.utf8), source: bundle.lastPathComponent)
        }
        // Before Xcode 16 there is no --legacy flag: `get` prints the root record, `--id` each tests summary.
        let root = try run(["xcresulttool", "get", "--format", "json", "--path", bundle.path])
        var merged: [String: TestOutcome] = [:]
        for id in try TestResults.legacyTestsReferences(json: Data(root.utf8), source: bundle.lastPathComponent) {
            let summaries = try run(["xcresulttool", "get", "--format", "json", "--path", bundle.path, "--id", id])
            let results = try TestResults(json: Data(summaries.utf8), source: bundle.lastPathComponent)
            merged.merge(results.outcomes) { _, new in new }
        }
        return TestResults(outcomes: merged)
    }

    private func run(_ arguments: [String]) throws(XcodeRunnerError) -> String {
        let output = try tools.capture("xcrun", arguments)
        guard output.status == 0 else {
            throw XcodeRunnerError(
                .toolFailed, field: "xcrun " + arguments.prefix(4).joined(separator: " "),
                rule: "exited with \(output.status): \(output.stderr.split(whereSeparator: \.isNewline).first ?? "")",
                remedy: "check that the result bundle exists and that the running Xcode wrote it")
        }
        return output.stdout
    }
}
