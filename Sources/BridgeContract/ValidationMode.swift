/// Strict or lenient, for the two choices a check makes: whether fields the contract doesn't declare are violations
/// (a contract's `fields`), and whether page messages beyond what the play expects fail the check (`strictness`).
public enum ValidationMode: String, Sendable, Codable {
    /// Undeclared fields are violations, and an unknown or invalid page message, or a second copy of an expected one,
    /// fails page → native: the default in tests.
    case strict
    /// Undeclared fields are ignored, so a newer page still talks to an older app (the default in production), and
    /// unexpected page messages are listed with the session's extras: only a missing expected message fails.
    case lenient
}
