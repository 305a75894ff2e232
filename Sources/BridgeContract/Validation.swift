/// The outcome of checking a message body against the contract.
///
/// Its `description` is a log line with structure and violations only, never a value.
public enum Validation: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case valid(ValidatedMessage)
    case invalid([ContractViolation])

    /// The message, when valid.
    public var message: ValidatedMessage? {
        if case .valid(let message) = self { return message }
        return nil
    }

    /// The violations; empty when valid.
    public var violations: [ContractViolation] {
        if case .invalid(let violations) = self { return violations }
        return []
    }

    public var description: String {
        switch self {
        case .valid(let message): "valid: \(message)"
        case .invalid(let violations): "invalid:\n" + describe(violations)
        }
    }

    public var debugDescription: String { description }
}
