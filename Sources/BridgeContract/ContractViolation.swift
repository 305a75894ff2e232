/// One way a message body breaks the contract: where, which rule, what was expected and what type came.
///
/// It never carries the value that came, so it is safe to print and log. It is a verdict's data, not an error:
/// reports carry and encode it, and API that refuses a message throws a `ContractError` holding its violations.
public struct ContractViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The rules a message body can break.
    public enum Rule: String, Sendable, Equatable, Codable, CaseIterable {
        /// The body is not a JS object (dictionary).
        case bodyNotObject = "body-not-object"
        /// A required field is absent.
        case missingField = "missing-field"
        /// A field has another JS type (a JS boolean is never a number).
        case wrongType = "wrong-type"
        /// An integer field holds a number with a fraction.
        case notInteger = "not-integer"
        /// A number field holds NaN or ±Infinity.
        case notFinite = "not-finite"
        /// A constant field holds another value.
        case constantMismatch = "constant-mismatch"
        /// `kind` names no message of this direction.
        case unknownKind = "unknown-kind"
        /// `kind` names a message of the other direction.
        case wrongDirection = "wrong-direction"
        /// A field the contract doesn't declare (strict mode only).
        case unexpectedField = "unexpected-field"
        /// The request-id field is empty.
        case emptyRequestID = "empty-request-id"
        /// A frame the contract does not accept messages from (an iframe, or one of an undeclared origin).
        case wrongFrame = "wrong-frame"
        /// The same page → native message arrived again where the check expects it once.
        case duplicate = "duplicate"
        /// A string the contract declares as JSON text is not JSON.
        case notJSON = "not-json"

        /// The rule in words, beside its identifier in the JSON report.
        public var text: String {
            switch self {
            case .bodyNotObject: "the body is not a JS object"
            case .missingField: "a required field is absent"
            case .wrongType: "a field has another JS type"
            case .notInteger: "an integer field holds a number with a fraction"
            case .notFinite: "a number field holds NaN or Infinity"
            case .constantMismatch: "a constant field holds another value"
            case .unknownKind: "the kind names no message of this direction"
            case .wrongDirection: "the kind names a message of the other direction"
            case .unexpectedField: "a field the contract does not declare"
            case .emptyRequestID: "the request-id field is empty"
            case .wrongFrame: "a frame the contract does not accept messages from"
            case .duplicate: "the message arrived again where it is expected once"
            case .notJSON: "a string declared as JSON text is not JSON"
            }
        }
    }

    /// Where the problem is: `body`, `version`, `items[2].name`.
    public var path: String
    public var rule: Rule
    /// What the contract expects there, e.g. `Number 1`, `String`, `one of: ready`.
    public var expected: String
    /// The JS type that came (`Boolean`, `Missing`, `Null`…), never the value.
    public var found: String
    /// The direction of the message, which says which side must fix it.
    public var direction: Direction

    public init(path: String, rule: Rule, expected: String, found: String, direction: Direction = .pageToNative) {
        self.path = path
        self.rule = rule
        self.expected = expected
        self.found = found
        self.direction = direction
    }

    /// What to do about it, addressed to the side that sends the message.
    public var remedy: String {
        let sender = direction.sender
        switch rule {
        case .bodyNotObject:
            return "\(sender) must send an object, a message the contract declares, not \(article(found)) \(found)"
        case .missingField where expected.hasSuffix("(request id)"):
            // The request id pairs a request with its answer: the contract format has no optional one.
            return
                "\(sender) must include \(path), the request id (a non-empty String) that pairs a request with its answer; an answer copies it from its request"
        case .missingField:
            return "\(sender) must include \(path) (\(expected)), or the contract must declare it optional"
        case .wrongType where expected.hasPrefix("Number") || expected == "Integer":
            return found == "Boolean"
                ? "\(sender) must send \(path) as a number: a JS boolean is not a number"
                : "\(sender) must send \(path) as \(article(expected)) \(expected)"
        case .wrongType:
            return "\(sender) must send \(path) as \(article(expected)) \(expected)"
        case .notInteger:
            return "\(sender) must send \(path) as a whole number"
        case .notFinite:
            return "\(sender) must send \(path) as a finite number (not NaN or Infinity)"
        case .constantMismatch:
            return
                "\(sender) must send \(path) = \(expected.split(separator: " ", maxSplits: 1).last ?? ""); if the protocol changed, update the contract and bump its version"
        case .unknownKind:
            return
                "\(sender) must send a kind the contract declares for \(direction.rawValue), or the kind must be added to the contract"
        case .wrongDirection:
            return "this kind travels the other way; \(sender) must send a \(direction.rawValue) kind"
        case .unexpectedField:
            return
                "\(sender) must not send \(path), or the contract must declare it (as optional for a compatible change); lenient mode ignores it"
        case .emptyRequestID:
            return "\(sender) must send the id of the request in \(path)"
        case .wrongFrame:
            return
                "only \(expected) may post to the bridge: post from the main frame, or declare the frame's origin in the contract's frames.origins"
        case .duplicate:
            return "\(sender) must send it once per page load; look for a second listener or a repeated init"
        case .notJSON:
            return
                "\(sender) must send \(path) as JSON text, JSON.stringify of the value (not plain text, or an object "
                + "turned into \"[object Object]\")"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case path, rule, ruleText, expected, found, direction, remedy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path),
            rule: try container.decode(Rule.self, forKey: .rule),
            expected: try container.decode(String.self, forKey: .expected),
            found: try container.decode(String.self, forKey: .found),
            direction: try container.decode(Direction.self, forKey: .direction))
    }

    /// Encodes the rule's text and the remedy too, so a report's reader gets what to do without this library.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(rule, forKey: .rule)
        try container.encode(rule.text, forKey: .ruleText)
        try container.encode(expected, forKey: .expected)
        try container.encode(found, forKey: .found)
        try container.encode(direction, forKey: .direction)
        try container.encode(remedy, forKey: .remedy)
    }

    public var description: String {
        "\(path): expected \(expected), found \(found) (\(rule.rawValue), \(direction.rawValue)). Remedy: \(remedy)."
    }
}

/// All violations of one message, one per line, for an error message or a log.
public func describe(_ violations: [ContractViolation]) -> String {
    violations.map(\.description).joined(separator: "\n")
}

/// "an" before a type name that starts with a vowel (`an Object`, `an Integer`), else "a".
private func article(_ typeName: String) -> String {
    typeName.first.map { "AEIOUaeiou".contains($0) } == true ? "an" : "a"
}
