/// Whether fields the contract doesn't declare are violations.
public enum ValidationMode: Sendable {
    /// Extra fields are violations: the default in tests.
    case strict
    /// Extra fields are ignored: the default in production, so a newer page still talks to an older app.
    case lenient
}
