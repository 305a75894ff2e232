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

/// Per-test outcomes read from a result bundle, keyed by `Class/method()`, and each test case in full.
public struct TestResults: Sendable, Equatable {
    public var outcomes: [String: TestOutcome]
    /// Each test case in the order the bundle lists them; empty for results built from outcomes alone.
    public var cases: [TestCaseResult]

    public init(outcomes: [String: TestOutcome], cases: [TestCaseResult] = []) {
        self.outcomes = outcomes
        self.cases = cases
    }

    /// The results of `cases`, keyed by identifier.
    public init(cases: [TestCaseResult]) {
        var outcomes: [String: TestOutcome] = [:]
        for test in cases { outcomes[test.identifier] = test.outcome }
        self.init(outcomes: outcomes, cases: cases)
    }

    /// Parses `xcresulttool get test-results tests` (Xcode 16+) or a legacy `ActionTestPlanRunSummaries`.
    public init(json data: Data, source: String) throws(XcodeRunnerError) {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw XcodeRunnerError(
                .resultsUnreadable, field: source, rule: "xcresulttool did not print a JSON object",
                remedy: "open the result bundle in Xcode; check 'xcrun xcresulttool version'")
        }
        var cases: [TestCaseResult] = []
        if let nodes = root["testNodes"] as? [Any] {
            Self.collectNodes(nodes, target: nil, into: &cases)
        } else if Self.typeName(root) == "ActionTestPlanRunSummaries" {
            for case let summary as [String: Any] in Self.values(root["summaries"]) {
                for case let testable as [String: Any] in Self.values(summary["testableSummaries"]) {
                    let target = Self.string(testable["targetName"]) ?? Self.string(testable["name"])
                    Self.collectLegacy(Self.values(testable["tests"]), target: target, into: &cases)
                }
            }
        } else {
            throw XcodeRunnerError(
                .resultsUnreadable, field: source,
                rule: "neither \"testNodes\" (Xcode 16+) nor an ActionTestPlanRunSummaries (legacy) at the top level",
                remedy: "read the bundle with 'xcrun xcresulttool get test-results tests --path <bundle>'")
        }
        self.init(cases: cases)
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

    private static func collectNodes(_ nodes: [Any], target: String?, into cases: inout [TestCaseResult]) {
        for case let node as [String: Any] in nodes {
            let type = node["nodeType"] as? String
            if type == "Test Case" {
                let id = (node["nodeIdentifier"] as? String) ?? (node["name"] as? String) ?? "?"
                cases.append(
                    TestCaseResult(
                        target: target, identifier: id, outcome: TestOutcome((node["result"] as? String) ?? "unknown"),
                        seconds: TestCaseResult.seconds(node), messages: TestCaseResult.messages(node)))
                // Repetitions and arguments below a test case are parts of it, not tests of their own.
                continue
            }
            let bundle = type == "Unit test bundle" || type == "UI test bundle" ? node["name"] as? String : nil
            collectNodes(node["children"] as? [Any] ?? [], target: bundle ?? target, into: &cases)
        }
    }

    private static func collectLegacy(_ tests: [Any], target: String?, into cases: inout [TestCaseResult]) {
        for case let test as [String: Any] in tests {
            if let status = string(test["testStatus"]) {
                let id = string(test["identifier"]) ?? string(test["name"]) ?? "?"
                let seconds = string(test["duration"]).flatMap(Double.init)
                cases.append(
                    TestCaseResult(
                        target: target, identifier: id, outcome: TestOutcome(status), seconds: seconds, messages: []))
            }
            collectLegacy(values(test["subtests"]), target: target, into: &cases)
        }
    }

    /// Outcomes of the tests under `onlyTesting` (`Target/Class[/method]`), keyed without the target.
    public func restricted(to onlyTesting: String) -> TestResults {
        let parts = onlyTesting.split(separator: "/").map(String.init)
        // The target is not part of the identifiers xcresulttool prints.
        let scope = parts.count > 1 ? parts.dropFirst().joined(separator: "/") : onlyTesting
        func inScope(_ key: String) -> Bool {
            let bare = key.hasSuffix("()") ? String(key.dropLast(2)) : key
            return key == scope || bare == scope || key.hasPrefix(scope + "/")
        }
        return TestResults(
            outcomes: outcomes.filter { key, _ in inScope(key) }, cases: cases.filter { inScope($0.identifier) })
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
        var merged: [TestCaseResult] = []
        for id in try TestResults.legacyTestsReferences(json: Data(root.utf8), source: bundle.lastPathComponent) {
            let summaries = try run(["xcresulttool", "get", "--format", "json", "--path", bundle.path, "--id", id])
            let results = try TestResults(json: Data(summaries.utf8), source: bundle.lastPathComponent)
            merged += results.cases
        }
        return TestResults(cases: merged)
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
