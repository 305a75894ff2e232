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
