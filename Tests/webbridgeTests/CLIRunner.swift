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

    /// The binary under test: the built `webbridge`, or `WEBBRIDGE_BINARY` (to run these tests against another
    /// build, e.g. the one before a fix, to see which of them fail there).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["WEBBRIDGE_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return productsDirectory.appendingPathComponent("webbridge")
    }

    /// Runs `webbridge` through `/bin/sh` with `redirection` (e.g. `>/dev/full`, `>&-`, `2>/dev/full`) applied.
    static func runRedirected(
        _ redirection: String, _ arguments: [String], timeout: TimeInterval = 60
    ) throws -> CLIResult {
        try runWrapped(["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)"], arguments, timeout: timeout)
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

/// A `webbridge` run the test watches while it runs: its output as it comes, signals, then its end.
final class RunningCLI: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var closed = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `webbridge` with `arguments`; stdout and stderr are pipes read as data arrives.
    init(_ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil) throws {
        process.executableURL = CLI.binary
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [finished] _ in finished.signal() }
        try process.run()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    condition.lock()
                    if chunk.isEmpty { closed += 1 } else if isOut { out.append(chunk) } else { err.append(chunk) }
                    condition.broadcast()
                    condition.unlock()
                    if chunk.isEmpty { return }
                }
            }
        }
    }

    var stdout: String { condition.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { condition.withLock { String(decoding: err, as: UTF8.self) } }

    /// Waits until stdout contains `text`; false when `timeout` passes or the output ends first.
    func waitForStdout(containing text: String, timeout: TimeInterval = 60) -> Bool {
        waitFor(text, inStandardError: false, timeout: timeout)
    }

    /// Waits until stderr contains `text`; false when `timeout` passes or the output ends first.
    func waitForStderr(containing text: String, timeout: TimeInterval = 60) -> Bool {
        waitFor(text, inStandardError: true, timeout: timeout)
    }

    private func waitFor(_ text: String, inStandardError: Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        func seen() -> Bool { String(decoding: inStandardError ? err : out, as: UTF8.self).contains(text) }
        while !seen() {
            if closed == 2 || !condition.wait(until: deadline) { return seen() }
        }
        return true
    }

    /// Waits until stdout contains `text` (the recorded output of a stand-in, say).
    func waitForOutput(_ text: String, timeout: TimeInterval = 60) -> Bool {
        waitForStdout(containing: text, timeout: timeout)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit (SIGKILL after `timeout`, then throws) and returns what the run printed.
    func wait(timeout: TimeInterval = 60) throws -> (status: Int32, signalled: Bool, stdout: String, stderr: String) {
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            throw CLITimeout(arguments: process.arguments ?? [], seconds: timeout)
        }
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while closed < 2, condition.wait(until: deadline) {}
        let result = (
            process.terminationStatus, process.terminationReason == .uncaughtSignal,
            String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
        )
        condition.unlock()
        return result
    }
}
