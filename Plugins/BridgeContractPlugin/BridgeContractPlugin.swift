import Foundation
import PackagePlugin

/// Generates the Swift types of every contract file of a target at build time: each file whose name ends in
/// `contract.json` (`checkout-contract.json`, `contract.json`) becomes `<name>.swift` (`enum CheckoutContract`), in
/// the plugin's work directory, never in the sources. The generator is `webbridge-typed-code`, which links only
/// `BridgeContract`, so the build never builds the engine for it.
@main
struct BridgeContractPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? any SourceModuleTarget else { return [] }
        return Self.commands(
            contracts: target.sourceFiles.map(\.url), generator: try context.tool(named: "webbridge-typed-code").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }

    /// One command per contract file among `files`; each runs when its file changes.
    static func commands(contracts files: [URL], generator: URL, workDirectory: URL) -> [Command] {
        files.filter { $0.lastPathComponent.hasSuffix("contract.json") }.map { contract in
            let output = workDirectory.appendingPathComponent(
                contract.deletingPathExtension().lastPathComponent + ".swift")
            return .buildCommand(
                displayName: "Generating the typed messages of \(contract.lastPathComponent)", executable: generator,
                arguments: [contract.path, output.path], inputFiles: [contract], outputFiles: [output])
        }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

// The same commands for an Xcode project's target (Xcode 15 and later).
extension BridgeContractPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        Self.commands(
            contracts: target.inputFiles.map(\.url), generator: try context.tool(named: "webbridge-typed-code").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif
