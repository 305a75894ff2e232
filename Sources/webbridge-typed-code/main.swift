import BridgeContract
import ContractTools
import Foundation

// `webbridge-typed-code CONTRACT OUTPUT`: the generator BridgeContractPlugin runs at build time. It writes the Swift
// types of the contract file CONTRACT to OUTPUT (only when they changed, so an unchanged contract rebuilds nothing);
// an invalid contract fails the build with the file's error: its JSON path and the remedy.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let contractPath = arguments.first, let outputPath = arguments.last else {
    fail("usage: webbridge-typed-code CONTRACT.json OUTPUT.swift (run by BridgeContractPlugin)")
}
let contract: BridgeContract
do {
    contract = try BridgeContract.load(contentsOf: URL(fileURLWithPath: contractPath))
} catch {
    fail(error.description)
}
if let problem = SwiftTypes.unsupported(contract) { fail("\(contractPath): \(problem)") }
let source = Data(SwiftTypes(contract: contract).source.utf8)
let output = URL(fileURLWithPath: outputPath)
if FileManager.default.contents(atPath: output.path) != source {
    do {
        try source.write(to: output, options: .atomic)
    } catch {
        fail(
            "\(outputPath): the generated types can't be written (\(error.localizedDescription)). Remedy: check the build directory is writable"
        )
    }
}
