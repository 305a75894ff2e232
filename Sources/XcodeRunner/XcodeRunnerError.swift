import Foundation

/// A refusal or failure of the cloud-Mac tooling, naming the field, the rule broken and the remedy.
public struct XcodeRunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; stable for tests and scripts.
    public enum Code: String, Sendable, Equatable {
        case configUnreadable, configInvalid, configMissingField
        case simctlUnreadable, noMatchingSimulator, severalMatchingSimulators
        case versionUnreadable
        case toolMissing, toolFailed
        case resultBundleExists, artifactExists
        case resultsUnreadable
        case manifestUnreadable, environmentDiffers
        case preflightFailed
    }

    public let code: Code
    /// The config field, file or input the problem is about.
    public let field: String
    /// The rule that was broken, in words.
    public let rule: String
    /// What the user does to fix it.
    public let remedy: String

    public init(_ code: Code, field: String, rule: String, remedy: String) {
        self.code = code
        self.field = field
        self.rule = rule
        self.remedy = remedy
    }

    public var description: String { "\(field): \(rule). Remedy: \(remedy)" }
}
