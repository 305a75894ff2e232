import Foundation

/// Runs a tool found on PATH (node, tsc, swiftc) and collects what it printed, bounded by a timeout whose failure
/// says which tool did not exit.
enum ToolRun {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What a tool printed, and how it exited.
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The executable `name` on PATH, if installed.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120)
        throws -> Outcome
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let temporary = FileManager.default.temporaryDirectory
        let output = temporary.appendingPathComponent("tool-\(UUID().uuidString).out")
        let errors = temporary.appendingPathComponent("tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            // Bounded, then killed: waitUntilExit() hung here for good once, on a loaded machine, after a timeout.
            if exited.wait(timeout: .now() + 10) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            throw Failure(description: "\(executable.lastPathComponent) did not exit within \(timeout) s")
        }
        return Outcome(
            status: process.terminationStatus, output: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}
