#if os(Linux)
import Foundation

/// Why the Linux engine could not start: what was checked, what the engine needs, and the package or setting that
/// fixes it. `WebKitGTKEnvironment.prepare()` throws it, and a web view that could not start reports it through every
/// load and script.
public struct EngineEnvironmentError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Which part of the environment failed.
    public enum Code: String, Sendable {
        case xvfbMissing = "xvfb-missing"
        case xvfbFailed = "xvfb-failed"
        case displayUnavailable = "display-unavailable"
        case addressSpaceLimited = "address-space-limited"
    }

    public let code: Code
    /// The setting or program that was checked.
    public let field: String
    /// What the engine needs.
    public let rule: String
    /// What the user should do.
    public let remedy: String

    package init(code: Code, field: String, rule: String, remedy: String) {
        self.code = code
        self.field = field
        self.rule = rule
        self.remedy = remedy
    }

    public var description: String {
        "WebKitGTK environment [\(code.rawValue)]: \(field): \(rule). Remedy: \(remedy)"
    }

    public var errorDescription: String? { description }
}
#endif
