import Foundation
import XCTest

/// Runs the built `webbridge` binary and captures what a user would see.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLI {
    /// The directory holding the built products (the test bundle sits beside them).
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        fatalError("couldn't find the products directory")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    /// Runs `webbridge` with `arguments`, waiting for it to exit (the caller bounds it with `timeout`).
    static func run(
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> CLIResult {
        try runWrapped([], arguments, environment: environment, currentDirectory: currentDirectory, timeout: timeout)
    }

    /// Runs `webbridge` under a wrapper command such as `unshare -rn`.
    static func runWrapped(
        _ wrapper: [String],
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> CLIResult {
        let binary = productsDirectory.appendingPathComponent("webbridge")
        let process = Process()
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = wrapper.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let outData = LockedData()
        let errData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData.set(out.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLITimeout(arguments: arguments, seconds: timeout)
        }
        _ = group.wait(timeout: .now() + timeout)
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self)
        )
    }
}

struct CLITimeout: Error, CustomStringConvertible {
    let arguments: [String]
    let seconds: TimeInterval
    var description: String { "webbridge \(arguments.joined(separator: " ")) did not exit within \(seconds) s" }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ new: Data) { lock.lock(); data = new; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A `webbridge` still running, for tests that signal it mid-run and watch its output arrive.
final class RunningCLI: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var closed = 0

    init(_ arguments: [String], environment: [String: String], currentDirectory: URL) throws {
        process.executableURL = CLI.productsDirectory.appendingPathComponent("webbridge")
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            Thread { [self] in
                let reader = pipe.fileHandleForReading
                while true {
                    let chunk = reader.availableData
                    condition.withLock {
                        if chunk.isEmpty { closed += 1 } else if isOut { out.append(chunk) } else { err.append(chunk) }
                        condition.broadcast()
                    }
                    if chunk.isEmpty { return }
                }
            }.start()
        }
    }

    var stdout: String { condition.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { condition.withLock { String(decoding: err, as: UTF8.self) } }

    /// Waits until standard output contains `text`; false when `timeout` passed first.
    func waitForOutput(_ text: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while !String(decoding: out, as: UTF8.self).contains(text) {
                if !condition.wait(until: deadline) { return String(decoding: out, as: UTF8.self).contains(text) }
            }
            return true
        }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit and both streams to close; nil when `timeout` passed first.
    func wait(timeout: TimeInterval = 60) -> CLIResult? {
        let deadline = Date().addingTimeInterval(timeout)
        let done = condition.withLock {
            while closed < 2 { if !condition.wait(until: deadline) { return false } }
            return true
        }
        guard done else { return nil }
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}
