import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What an `.xcscheme` says about testing, read with `XMLParser`.
///
/// `XMLParser` rather than `XMLDocument`: on swift-corelibs-foundation, `XMLDocument` accepts some
/// non-XML input without throwing and then crashes in XPath queries.
public struct SchemeFile: Sendable, Equatable {
    /// One `<TestableReference>` of the `<TestAction>`.
    public struct Testable: Sendable, Equatable {
        public let blueprintName: String?
        public let buildableName: String?
        public let skipped: Bool
        /// Identifiers under `<SkippedTests>` (`Class` or `Class/method`).
        public let skippedTests: [String]
    }

    public let testables: [Testable]
    /// `reference` attributes of `<TestPlanReference>` elements.
    public let testPlans: [String]

    /// Parses scheme XML; `source` labels errors.
    public init(data: Data, source: String) throws(XcodeRunnerError) {
        let delegate = SchemeParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        // corelibs' XMLParser reports success on some non-XML input; the root element check catches that.
        guard parser.parse(), delegate.root == "Scheme" else {
            throw XcodeRunnerError(
                .configInvalid, field: source, rule: "not a scheme (no <Scheme> root element in well-formed XML)",
                remedy: "re-share the scheme in Xcode: Product > Scheme > Manage Schemes… > Shared")
        }
        testables = delegate.testables
        testPlans = delegate.testPlans
    }

    /// The testable whose target is `target` (by blueprint name or `<target>.xctest`).
    public func testable(named target: String) -> Testable? {
        testables.first { $0.blueprintName == target || $0.buildableName == target + ".xctest" }
    }
}

private final class SchemeParserDelegate: NSObject, XMLParserDelegate {
    var root: String?
    var testables: [SchemeFile.Testable] = []
    var testPlans: [String] = []
    private var inTestAction = false
    private var current: (skipped: Bool, blueprint: String?, buildable: String?, skippedTests: [String])?
    private var inSkippedTests = false

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = elementName }
        switch elementName {
        case "TestAction": inTestAction = true
        case "TestableReference" where inTestAction:
            current = (attributes["skipped"] == "YES", nil, nil, [])
        case "BuildableReference" where current != nil:
            // The first buildable reference inside a testable is the test bundle.
            if current?.blueprint == nil && current?.buildable == nil {
                current?.blueprint = attributes["BlueprintName"]
                current?.buildable = attributes["BuildableName"]
            }
        case "SkippedTests" where current != nil: inSkippedTests = true
        case "Test" where inSkippedTests:
            if let identifier = attributes["Identifier"] { current?.skippedTests.append(identifier) }
        case "TestPlanReference" where inTestAction:
            if let reference = attributes["reference"] { testPlans.append(reference) }
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "TestAction": inTestAction = false
        case "SkippedTests": inSkippedTests = false
        case "TestableReference":
            if let current {
                testables.append(
                    .init(
                        blueprintName: current.blueprint, buildableName: current.buildable, skipped: current.skipped,
                        skippedTests: current.skippedTests))
            }
            current = nil
        default: break
        }
    }
}

/// What an `.xctestplan` (JSON) says about one test target.
public struct TestPlanFile: Sendable, Equatable {
    /// One entry of `testTargets`.
    public struct Target: Sendable, Equatable {
        public let name: String
        public let enabled: Bool
        public let skippedTests: [String]
    }

    public let targets: [Target]

    /// Parses a test plan; `source` labels errors.
    public init(data: Data, source: String) throws(XcodeRunnerError) {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let entries = root["testTargets"] as? [Any]
        else {
            throw XcodeRunnerError(
                .configInvalid, field: source, rule: "not a test plan (no \"testTargets\" array in a JSON object)",
                remedy: "re-save the test plan in Xcode, or point the scheme at the right .xctestplan")
        }
        targets = entries.compactMap { entry in
            guard let entry = entry as? [String: Any], let target = entry["target"] as? [String: Any],
                let name = target["name"] as? String
            else { return nil }
            return Target(
                name: name, enabled: entry["enabled"] as? Bool ?? true,
                skippedTests: entry["skippedTests"] as? [String] ?? [])
        }
    }

    /// Where a scheme's `container:` reference points, relative to the folder holding the project.
    public static func url(forReference reference: String, projectFolder: URL) -> URL {
        let path = reference.hasPrefix("container:") ? String(reference.dropFirst("container:".count)) : reference
        return path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : projectFolder.deletingLastPathComponent().appendingPathComponent(path)
    }
}
