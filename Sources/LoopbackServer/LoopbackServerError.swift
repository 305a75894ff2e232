import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the server could not start: `code` says what went wrong, the description the problem and the remedy.
public struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Equatable {
        /// The folder to serve is not a folder.
        case notAFolder = "not-a-folder"
        /// The page to forward to is not an `http:` origin with a host.
        case unsupportedOrigin = "unsupported-origin"
        /// A socket call failed (socket, bind, listen, pipe).
        case systemCallFailed = "system-call-failed"
    }

    public let code: Code
    public let problem: String
    public let remedy: String

    init(_ code: Code, _ problem: String, remedy: String) {
        self.code = code
        self.problem = problem
        self.remedy = remedy
    }

    static func system(_ call: String) -> Self {
        Self(
            .systemCallFailed,
            "the loopback server could not start: \(call) failed (\(String(cString: strerror(errno))))",
            remedy: "check that 127.0.0.1 is configured and that the process may open sockets")
    }

    public var description: String { "\(problem); \(remedy)" }
}
