import Foundation
import PackagePlugin

/// `swift package webbridge <subcommand> …`: runs the package's `webbridge` (built for the plugin by SwiftPM) in the
/// consumer package's folder, so relative paths (`--page Tests/…/checkout.html`) resolve as typed, and exits with
/// webbridge's own exit code.
@main
struct WebBridgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "webbridge")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        try process.run()
        process.waitUntilExit()
        // The exit code is the CLI's contract (1 contract failure, 2 usage, …): pass it on unchanged.
        if process.terminationReason == .uncaughtSignal {
            exit(128 + process.terminationStatus)
        }
        exit(process.terminationStatus)
    }
}
