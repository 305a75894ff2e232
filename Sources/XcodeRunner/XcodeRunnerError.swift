import Foundation
import TerminalEscape

/// A refusal or failure of the cloud-Mac tooling, naming the field, the rule broken and the remedy.
public struct XcodeRunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; stable for tests and scripts.
    public enum Code: String, Sendable, Equatable {
        case configUnreadable, configInvalid, configMissingField
        case simctlUnreadable, noMatchingSimulator, severalMatchingSimulators, duplicateUDID
        case versionUnreadable
        case toolMissing, toolFailed
        case resultBundleExists, artifactExists, artifactUnwritable
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

    /// One line per line of the rule; values from files and tools are escaped so they cannot forge lines.
    public var description: String {
        let lines = rule.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).escapingControlCharacters
        }
        return
            "\(field.escapingControlCharacters): \(lines.joined(separator: "\n")). Remedy: \(remedy.escapingControlCharacters)"
    }
}
