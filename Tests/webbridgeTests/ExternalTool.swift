import Foundation

/// Runs a tool the tests read outputs with (python3, bash, zsh, fish, groff, man) and captures what it printed.
enum ExternalTool {
    /// Runs `arguments` (the first is looked up on PATH) and waits for it: the outputs are small.
    static func run(_ arguments: [String], currentDirectory: URL? = nil, environment: [String: String]? = nil)
        throws -> CLIResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes at once so neither can fill while the other is read.
        let output = LockedData()
        let errors = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { output.set(out.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        group.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: output.get(), as: UTF8.self),
            stderr: String(decoding: errors.get(), as: UTF8.self))
    }
}

/// A tool the tests need is not installed: the test fails (never skips), naming the remedy.
struct MissingTool: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) is missing: run scripts/setup.sh" }
}
