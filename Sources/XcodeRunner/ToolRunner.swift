import Foundation

/// What a finished tool printed and how it exited.
public struct ToolOutput: Sendable, Equatable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Finds and runs Apple's command-line tools as argv (never through a shell).
public struct ToolRunner: Sendable {
    /// The environment whose `PATH` is searched and which the tools inherit.
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The executable named `tool` on `PATH`, or nil (as on Linux, where `xcrun` and `xcodebuild` don't exist).
    public func locate(_ tool: String) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(tool)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Whether the Mac tools are present.
    public var hasMacTools: Bool { locate("xcrun") != nil && locate("xcodebuild") != nil }

    func missing(_ tool: String) -> XcodeRunnerError {
        XcodeRunnerError(
            .toolMissing, field: tool, rule: "\(tool) is not on PATH (it exists only on a Mac with Xcode)",
            remedy:
                "run this on the cloud Mac, or select Xcode with 'sudo xcode-select -s /Applications/Xcode_<version>.app'"
        )
    }

    func makeProcess(_ tool: String, _ arguments: [String], in folder: URL?) throws(XcodeRunnerError) -> Process {
        guard let executable = locate(tool) else { throw missing(tool) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let folder { process.currentDirectoryURL = folder }
        return process
    }

    /// Runs `tool arguments…` to completion and captures both streams, stopping it after `timeout` seconds.
    ///
    /// The bound matters on a cloud Mac: `simctl` hangs when the CoreSimulator service is wedged.
    public func capture(
        _ tool: String, _ arguments: [String], in folder: URL? = nil, timeout: TimeInterval = 300
    ) throws(XcodeRunnerError) -> ToolOutput {
        let process = try makeProcess(tool, arguments, in: folder)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch {
            throw XcodeRunnerError(
                .toolFailed, field: tool, rule: "could not start", remedy: "check that \(tool) is executable")
        }
        // Drain both pipes on other threads so neither can fill up and block the tool.
        let outData = DataBox()
        let errData = DataBox()
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) { outData.value = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: drained) { errData.value = err.fileHandleForReading.readDataToEndOfFile() }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
            throw XcodeRunnerError(
                .toolFailed, field: ([tool] + arguments.prefix(3)).joined(separator: " "),
                rule: "did not finish within \(String(format: "%g", timeout)) s and was stopped",
                remedy:
                    "run it by hand; for simctl, 'sudo killall -9 com.apple.CoreSimulator.CoreSimulatorService' restarts the service"
            )
        }
        // Once the tool has exited, its pipes close unless a child of it holds them; don't wait on such a child forever.
        _ = drained.wait(timeout: .now() + 5)
        return ToolOutput(
            status: process.terminationStatus, stdout: String(decoding: outData.value, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }

    /// How a streamed run ended.
    public struct StreamOutcome: Sendable, Equatable {
        /// The tool's exit code, or the signal that stopped it.
        public let status: Int32
        /// Whether the run was stopped because it outlived its time limit.
        public let timedOut: Bool
    }

    /// Runs a tool with stdout and stderr merged, handing each chunk to `onOutput` as it arrives.
    ///
    /// With a `timeout`, a run still going after that many seconds is sent SIGTERM (xcodebuild then cancels and
    /// writes what it has), and SIGKILL if it is still there 30 seconds later.
    public func stream(
        _ tool: String, _ arguments: [String], in folder: URL? = nil, timeout: TimeInterval? = nil,
        onOutput: (Data) -> Void
    ) throws(XcodeRunnerError) -> StreamOutcome {
        let process = try makeProcess(tool, arguments, in: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw XcodeRunnerError(
                .toolFailed, field: tool, rule: "could not start", remedy: "check that \(tool) is executable")
        }
        let watchdog = Watchdog(pid: process.processIdentifier)
        if let timeout { watchdog.arm(after: timeout) }
        let reader = pipe.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            onOutput(chunk)
        }
        process.waitUntilExit()
        watchdog.disarm()
        return StreamOutcome(status: process.terminationStatus, timedOut: watchdog.fired)
    }
}

/// Stops a process that outlives its time limit: SIGTERM first, SIGKILL after a grace period.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private let pid: pid_t
    private var armed = true
    private var didFire = false

    init(pid: pid_t) { self.pid = pid }

    var fired: Bool { lock.withLock { didFire } }

    func arm(after seconds: TimeInterval, grace: TimeInterval = 30) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard
                lock.withLock({
                    armed
                        ? {
                            didFire = true; return true
                        }() : false
                })
            else { return }
            kill(pid, SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [self] in
                if lock.withLock({ armed }) { kill(pid, SIGKILL) }
            }
        }
    }

    /// Called once the process has exited, so its pid is never signalled after it may have been reused.
    func disarm() { lock.withLock { armed = false } }
}

/// A box written by one thread and read by another after a `DispatchGroup` wait.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var value: Data {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
