import Foundation
import PackagePlugin

/// `swift package webbridge <subcommand> …`: builds the package's `webbridge` quietly, runs it in the consumer
/// package's folder (so relative paths such as `--page Tests/…/checkout.html` resolve as typed) with the standard
/// input, output and error `swift package` was started with, and exits with webbridge's own exit code.
///
/// SwiftPM gives a plugin pipes for its standard output and error and prints both, line by line, on its own
/// standard output; webbridge writing there would put its errors into `--format json > report.json`. So webbridge
/// gets `swift package`'s own streams (on Linux), and the plugin prints nothing itself. Where they cannot be had
/// (no /proc: macOS), webbridge writes to the plugin's, which SwiftPM merges onto its standard output.
@main
struct WebBridgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try buildWebBridge()
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let input = Self.hostStream(0, forWriting: false) { process.standardInput = input }
        if let output = Self.hostStream(1, forWriting: true) { process.standardOutput = output }
        if let errors = Self.hostStream(2, forWriting: true) { process.standardError = errors }
        try process.run()
        process.waitUntilExit()
        // The exit code is the CLI's contract (1 contract failure, 2 usage, …): the plugin ends with it, and SwiftPM
        // names it ("Plugin ended with exit code 2") before its own exit status, 1.
        if process.terminationReason == .uncaughtSignal {
            exit(128 + process.terminationStatus)
        }
        exit(process.terminationStatus)
    }

    /// Builds the `webbridge` product without echoing SwiftPM's build lines (about 15 on every call, even when
    /// nothing changed); when the build fails, its log is the error `swift package` prints.
    func buildWebBridge() throws -> URL {
        let result = try packageManager.build(
            .product("webbridge"), parameters: .init(configuration: .debug, logging: .concise, echoLogs: false))
        guard result.succeeded else {
            throw BuildFailure(log: result.logText)
        }
        guard
            let built = result.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "webbridge"
            })
        else {
            throw BuildFailure(log: "the build succeeded but produced no webbridge executable\n" + result.logText)
        }
        return built.url
    }

    /// `swift package`'s own stream `descriptor`, or nil where it cannot be had. First the very same open file
    /// (pidfd_getfd: one file offset, so webbridge and SwiftPM write one after the other into `2> errors.txt` as
    /// two processes of one shell would); where that is refused (Yama's ptrace_scope, a container's seccomp), the
    /// same file opened anew through /proc, appending.
    static func hostStream(_ descriptor: Int32, forWriting: Bool) -> FileHandle? {
        let host = getppid()
        if let shared = sharedDescriptor(descriptor, of: host) {
            return FileHandle(fileDescriptor: shared, closeOnDealloc: true)
        }
        let flags = forWriting ? (O_WRONLY | O_APPEND) : O_RDONLY
        let opened = open("/proc/\(host)/fd/\(descriptor)", flags | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        return FileHandle(fileDescriptor: opened, closeOnDealloc: true)
    }

    /// Process `pid`'s `descriptor` itself (pidfd_open, then pidfd_getfd; Linux 5.6), or nil. Swift cannot call the
    /// C library's variadic `syscall`; its glibc implementation reads its arguments from registers, so it is called
    /// through a fixed-arity pointer.
    static func sharedDescriptor(_ descriptor: Int32, of pid: pid_t) -> Int32? {
        #if os(Linux)
        typealias Syscall = @convention(c) (Int, Int, Int, Int) -> Int
        guard let symbol = dlsym(nil, "syscall") else { return nil }
        let call = unsafeBitCast(symbol, to: Syscall.self)
        // The same numbers on every Linux architecture (syscalls added after 4.20 share one table).
        let pidfdOpen = 434
        let pidfdGetfd = 438
        let pidfd = call(pidfdOpen, Int(pid), 0, 0)
        guard pidfd >= 0 else { return nil }
        defer { close(Int32(pidfd)) }
        let shared = call(pidfdGetfd, pidfd, Int(descriptor), 0)
        return shared >= 0 ? Int32(shared) : nil
        #else
        return nil
        #endif
    }
}

/// webbridge did not build: SwiftPM prints this as the plugin's error, with the build's log.
struct BuildFailure: Error, CustomStringConvertible {
    let log: String
    var description: String { "webbridge did not build:\n\(log)" }
}
