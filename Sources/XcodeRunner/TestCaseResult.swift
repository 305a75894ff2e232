import Foundation

/// One test case as a result bundle records it: its test bundle, identifier, outcome, time and failure messages.
public struct TestCaseResult: Sendable, Equatable {
    /// The test bundle (target) that holds it, as xcresulttool names it; nil when the bundle does not say.
    public let target: String?
    /// `Class/method()`, as xcresulttool prints it.
    public let identifier: String
    public let outcome: TestOutcome
    /// Seconds it ran; nil when the bundle records no time.
    public let seconds: Double?
    /// Its failure (or skip) messages, each once, in the order recorded.
    public let messages: [String]

    public init(target: String?, identifier: String, outcome: TestOutcome, seconds: Double?, messages: [String]) {
        self.target = target
        self.identifier = identifier
        self.outcome = outcome
        self.seconds = seconds
        self.messages = messages
    }

    /// The class part of the identifier (`RandomStuffTests` of `RandomStuffTests/testFoo()`).
    public var className: String {
        identifier.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// The method part (`testFoo()`).
    public var methodName: String {
        identifier.split(separator: "/").last.map(String.init) ?? identifier
    }

    /// The `-only-testing:` value that runs this test alone: `Target/Class/method`, without the `()` xcresulttool
    /// adds to XCTest methods; nil when the bundle does not name the target.
    public var onlyTesting: String? {
        guard let target, !target.isEmpty else { return nil }
        let bare = identifier.hasSuffix("()") ? String(identifier.dropLast(2)) : identifier
        return "\(target)/\(bare)"
    }

    /// `durationInSeconds` when present, else the `duration` text (`0,0011s`, `2s`, `1m 2s`: the decimal
    /// separator is the recording Mac's locale's).
    static func seconds(_ node: [String: Any]) -> Double? {
        if let value = node["durationInSeconds"] as? Double { return value }
        guard let text = node["duration"] as? String else { return nil }
        var total = 0.0
        for part in text.split(separator: " ") {
            let normalized = part.replacingOccurrences(of: ",", with: ".")
            if normalized.hasSuffix("ms"), let value = Double(normalized.dropLast(2)) {
                total += value / 1000
            } else if normalized.hasSuffix("s"), let value = Double(normalized.dropLast()) {
                total += value
            } else if normalized.hasSuffix("m"), let value = Double(normalized.dropLast()) {
                total += value * 60
            } else if normalized.hasSuffix("h"), let value = Double(normalized.dropLast()) {
                total += value * 3600
            } else {
                return nil
            }
        }
        return total
    }

    /// Every `Failure Message` below a test case node (its repetitions and arguments included), each once.
    static func messages(_ node: [String: Any]) -> [String] {
        var found: [String] = []
        func walk(_ children: [Any]) {
            for case let child as [String: Any] in children {
                if child["nodeType"] as? String == "Failure Message", let name = child["name"] as? String,
                    !found.contains(name)
                {
                    found.append(name)
                }
                walk(child["children"] as? [Any] ?? [])
            }
        }
        walk(node["children"] as? [Any] ?? [])
        return found
    }
}
