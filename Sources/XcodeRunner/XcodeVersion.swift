import Foundation

/// The Xcode version and build as printed by `xcodebuild -version`.
public struct XcodeVersion: Sendable, Equatable, Codable {
    public let version: String
    public let build: String

    public init(version: String, build: String) {
        self.version = version
        self.build = build
    }

    /// Parses `xcodebuild -version`, skipping noise such as objc runtime warnings printed before it.
    public init(parsing output: String) throws(XcodeRunnerError) {
        var version: String?
        var build: String?
        for line in output.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if version == nil, text.hasPrefix("Xcode "), let word = text.split(separator: " ").dropFirst().first {
                version = String(word)
            } else if build == nil, text.hasPrefix("Build version ") {
                build = String(text.dropFirst("Build version ".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let version, let build, !build.isEmpty else {
            throw XcodeRunnerError(
                .versionUnreadable, field: "xcodebuild -version",
                rule: "no \"Xcode <version>\" and \"Build version <build>\" lines in the output",
                remedy: "check 'xcode-select -p' points at a full Xcode, not the Command Line Tools")
        }
        self.init(version: version, build: build)
    }

    /// The major version number (`16` for `16.2`), nil if unreadable.
    public var major: Int? { Int(version.split(separator: ".").first ?? "") }

    public var display: String { "Xcode \(version) (\(build))" }
}
