/// Applies a contract's correlation rules to the messages of one session: each earlier message opens the value at
/// its path; a later message is matched, late, a duplicate or unknown by the value at its own, as a request id is
/// (`RequestCorrelator`), so the same rule holds: a late or repeated answer never satisfies the current one.
package struct ValueCorrelator: Sendable {
    /// The state of one earlier message's field, which several later messages may repeat (Turbo's visit).
    private struct Values: Sendable {
        var current: String?
        var settled: Set<String> = []
        var abandoned: Set<String> = []
    }

    /// By the earlier message's kind and path.
    private var values: [String: Values] = [:]

    package init() {}

    private static func key(_ kind: String, _ path: FieldPath) -> String { kind + "\u{0}" + path.description }

    /// The value as compared: a string as itself, anything else as its JSON text; nil when there is none.
    private static func text(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        if case .string(let text) = value { return text }
        return value.text
    }

    /// A message arrived (or native sent it): it opens the value of every rule that names it as the earlier message.
    /// A value still open is superseded: an answer to it is now late.
    /// The message's JSON is built only when a rule names its kind: most messages open nothing.
    package mutating func opened(_ message: @autoclosure () -> JSONValue, kind: String, in contract: BridgeContract) {
        var json: JSONValue?
        for spec in contract.messages {
            guard let rule = spec.correlation, rule.message == kind, let paths = rule.paths else { continue }
            let whole = json ?? message()
            json = whole
            guard let value = Self.text(paths.messageField.value(in: whole)) else { continue }
            let key = Self.key(kind, paths.messageField)
            var state = values[key] ?? Values()
            if let current = state.current, current != value { state.abandoned.insert(current) }
            state.current = value
            state.settled.remove(value)
            state.abandoned.remove(value)
            values[key] = state
        }
    }

    /// A native → page message the check sent: its body as it went (JSON text parsed for a message of text).
    package mutating func sent(_ body: Any, as spec: MessageSpec, in contract: BridgeContract) {
        guard contract.messages.contains(where: { $0.correlation?.message == spec.kind }),
            var value = JSONValue.converted(BodyValue(body))
        else { return }
        if spec.jsonText, case .string(let text) = value,
            let parsed = BodyValue(jsonText: text).flatMap(JSONValue.converted)
        {
            value = parsed
        }
        opened(value, kind: spec.kind, in: contract)
    }

    /// How a message that correlates with an earlier one relates to it: nil when its kind has no rule. A message
    /// that settles closes the value it matched; one that does not only has to name an open or settled value.
    package mutating func settle(_ message: ValidatedMessage, in contract: BridgeContract) -> (
        correlation: Correlation, value: String, rule: CorrelationRule
    )? {
        guard let spec = contract.message(message.kind, direction: message.direction), let rule = spec.correlation,
            let paths = rule.paths
        else { return nil }
        let key = Self.key(rule.message, paths.messageField)
        let value = Self.text(message.jsonValue(at: paths.field)) ?? ""
        var state = values[key] ?? Values()
        defer { values[key] = state }
        let correlation: Correlation
        if !value.isEmpty, value == state.current {
            correlation = .matched
            if rule.settles {
                state.settled.insert(value)
                state.current = nil
            }
        } else if state.settled.contains(value) {
            correlation = rule.settles ? .duplicate : .matched
        } else if state.abandoned.contains(value) {
            correlation = .late
        } else {
            correlation = .unknown
        }
        return (correlation, value, rule)
    }
}
