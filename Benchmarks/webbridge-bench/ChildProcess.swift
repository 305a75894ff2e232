import Foundation

/// A child process timed from launch to exit, waited for with a timeout and killed if it overruns.
@MainActor
enum ChildProcess {
    struct Outcome {
        let status: Int32
        let seconds: Double
        /// Standard output and error, for the verdict line and for diagnosing a failure.
        let output: String
    }

    /// Runs `executable` with `arguments`; `unset` names environment variables the child must not see.
    static func run(_ executable: String, _ arguments: [String], unset: Set<String> = [], timeout: Double) async throws
        -> Outcome
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !unset.contains($0.key) }
        // A file, not a pipe: grandchildren (the web process, Xvfb) may keep a pipe open after the child exits.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-bench-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw BenchFailure("could not create \(log.path) for the output of \(executable)")
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice

        let exited = Occurrence()
        let end = EndTime()
        process.terminationHandler = { _ in
            end.mark()
            DispatchQueue.main.async { MainActor.assumeIsolated { exited.signal() } }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        guard await exited.wait(timeout: timeout) else {
            process.terminate()
            throw BenchFailure("\(URL(fileURLWithPath: executable).lastPathComponent) did not exit within \(timeout) s")
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(
            status: process.terminationStatus, seconds: Double(end.nanoseconds - start) / 1e9, output: output)
    }

    /// Whether `name` is an executable on PATH; returns its path.
    nonisolated static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// The moment a child exited, set from Foundation's termination thread.
private final class EndTime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    func mark() {
        lock.lock()
        value = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
    }

    var nanoseconds: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
