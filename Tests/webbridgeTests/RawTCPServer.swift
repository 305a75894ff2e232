#if os(Linux)
import EngineTestSupport
import Foundation
import Glibc

/// A TCP server on 127.0.0.1 that reads each request and answers with raw bytes (or nothing) before closing:
/// the replies no HTTP server library will send, such as a closed connection or a reply that is not HTTP.
final class RawTCPServer: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let reply: [UInt8]
    private let condition = NSCondition()
    private var connections = 0
    private var stopped = false

    /// Listens and answers every connection with `reply` (empty: close without a byte).
    init(reply: [UInt8]) throws {
        self.reply = reply
        (descriptor, port) = try LoopbackPort.listen()
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// How many connections were answered so far.
    var answered: Int {
        condition.lock()
        defer { condition.unlock() }
        return connections
    }

    func stop() {
        condition.lock()
        let already = stopped
        stopped = true
        condition.unlock()
        // Wakes the accept() with an error.
        if !already { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func serve() {
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                condition.lock()
                let done = stopped
                condition.unlock()
                if done || (errno != EINTR && errno != ECONNABORTED) { break }
                continue
            }
            // Read the request head (one read is enough for a GET), then answer and close.
            var buffer = [UInt8](repeating: 0, count: 8192)
            _ = read(client, &buffer, buffer.count)
            if !reply.isEmpty { _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) } }
            close(client)
            condition.lock()
            connections += 1
            condition.broadcast()
            condition.unlock()
        }
        close(descriptor)
    }
}
#endif
