/// The one source of WebBridge's version: `webbridge --version` and every report read it from here.
///
/// BridgeContract is the lowest target both the CLI and the report renderers import, so the number lives here and
/// nowhere else; a release changes this line (and tags the commit `v` + the number). Public, so a team's code and
/// the Apple-shape check (which builds BridgeTesting outside SwiftPM) can read it too.
package enum WebBridgeVersion {
    /// The release number, semantic versioning.
    public static let number = "0.1.0"
    /// How the tool names itself: `webbridge 0.1.0`, as `--version` prints it and the reports carry it.
    public static var tool: String { "webbridge \(number)" }
}
