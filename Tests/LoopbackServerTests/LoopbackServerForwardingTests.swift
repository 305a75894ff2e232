import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loopback server as a reverse proxy for one `http:` origin, spoken to over real sockets: requests go on to
/// the origin, responses come back unchanged once whole (however the origin frames them), held by path.
final class LoopbackServerForwardingTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("forwarding-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("export const answer = 42;\n".utf8).write(to: scratch.appendingPathComponent("js/app.mjs"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func exchange(_ request: String, _ server: LoopbackServer) throws -> String {
        try LoopbackServerTests.exchange(request, port: server.port)
    }

    func testForwardsEachRequestToTheOriginAndRelaysItsResponse() throws {
        let origin = try LoopbackServer(root: scratch)
        defer { origin.stop() }
        let page = URL(string: "http://127.0.0.1:\(origin.port)/js/app.mjs?v=1#top")!
        let proxy = try LoopbackServer(forwardingTo: page)
        defer { proxy.stop() }
        XCTAssertNil(proxy.root)
        XCTAssertEqual(proxy.address(of: page).absoluteString, "http://127.0.0.1:\(proxy.port)/js/app.mjs?v=1#top")
        let module = try exchange("GET /js/app.mjs?v=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", proxy)
        XCTAssertTrue(module.hasPrefix("HTTP/1.1 200 OK\r\n"), module)
        XCTAssertTrue(module.contains("Content-Type: text/javascript; charset=utf-8\r\n"), module)
        XCTAssertTrue(module.contains("Content-Length: 26\r\n") && module.contains("Connection: close\r\n"), module)
        XCTAssertTrue(module.hasSuffix("\r\n\r\nexport const answer = 42;\n"), module)
        let missing = try exchange("GET /missing.js HTTP/1.1\r\n\r\n", proxy)
        XCTAssertTrue(missing.hasPrefix("HTTP/1.1 404 Not Found"), "the origin's status, relayed: \(missing)")
        let head = try exchange("HEAD /js/app.mjs HTTP/1.1\r\n\r\n", proxy)
        XCTAssertTrue(head.contains("Content-Length: 26\r\n") && head.hasSuffix("\r\n\r\n"), head)
        XCTAssertEqual(origin.log.map(\.path), ["/js/app.mjs", "/missing.js", "/js/app.mjs"])
        XCTAssertEqual(proxy.log.map(\.status), [200, 404, 200], "the proxy logs the origin's statuses")
    }

    /// An origin that keeps its connection open after a response: the proxy must end the body where its framing
    /// says (chunked, Content-Length), not wait for the origin to close.
    func testRelaysChunkedAndLengthFramedBodiesWithoutWaitingForTheOriginToClose() throws {
        let replies = [
            "HTTP/1.1 302 Found\r\nLocation: /next.html\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n"
                + "Set-Cookie: a=1\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n"
                + "Keep-Alive: timeout=60\r\n\r\n{\"ok\":true}",
        ]
        for reply in replies {
            let origin = try RawOrigin(reply: reply)
            defer { origin.stop() }
            let proxy = try LoopbackServer(forwardingTo: URL(string: "http://127.0.0.1:\(origin.port)/")!)
            defer { proxy.stop() }
            let started = Date()
            let response = try exchange(
                "POST /api?q=1 HTTP/1.1\r\nHost: 127.0.0.1:\(proxy.port)\r\nConnection: keep-alive\r\n"
                    + "Origin: http://127.0.0.1:\(proxy.port)\r\nContent-Length: 4\r\n\r\nbody", proxy)
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the proxy waited for the origin to close")
            XCTAssertFalse(response.lowercased().contains("keep-alive"), response)
            XCTAssertTrue(response.contains("Connection: close\r\n"), response)
            if reply.contains("chunked") {
                XCTAssertTrue(response.hasPrefix("HTTP/1.1 302 Found\r\nLocation: /next.html\r\n"), response)
                XCTAssertTrue(response.contains("Set-Cookie: a=1\r\n"), response)
                XCTAssertTrue(
                    response.hasSuffix("\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n"), response)
            } else {
                XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "interim 100 skipped: \(response)")
                XCTAssertTrue(response.hasSuffix("\r\n\r\n{\"ok\":true}"), response)
            }
            let request = try XCTUnwrap(origin.received.first)
            XCTAssertTrue(request.hasPrefix("POST /api?q=1 HTTP/1.1\r\n"), request)
            XCTAssertTrue(request.contains("Host: 127.0.0.1:\(origin.port)\r\n"), "the origin's own host: \(request)")
            XCTAssertTrue(request.contains("Origin: http://127.0.0.1:\(origin.port)\r\n"), request)
            XCTAssertTrue(request.contains("Connection: close\r\n") && !request.contains("keep-alive"), request)
            XCTAssertTrue(request.hasSuffix("\r\n\r\nbody"), request)
        }
    }

    /// Framing numbers an origin may send that no Int holds, or that are negative, signed or not numbers: the
    /// proxy checks each before use (no overflow, no reversed range), relays the origin's bytes as they came, and
    /// lets the engine judge them as it does without the proxy.
    func testHostileFramingNumbersFromTheOriginAreRelayedAsSent() throws {
        let heads = [
            "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc",
            "Transfer-Encoding: chunked\r\n\r\n7ffffffffffffffe\r\nabc\r\n",
            "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nffffffffffffffffff\r\nabc",
            "Transfer-Encoding: chunked\r\n\r\n-3\r\nabc\r\n0\r\n\r\n",
            "Transfer-Encoding: chunked\r\n\r\n+3\r\nabc\r\n0\r\n\r\n",
            "Content-Length: -1\r\n\r\nabc",
            "Content-Length: -9223372036854775808\r\n\r\nabc",
            "Content-Length: 9223372036854775807\r\n\r\nabc",
            "Content-Length: 99999999999999999999\r\n\r\nabc",
            "Content-Length: 1e3\r\n\r\nabc",
            "Content-Length: 3\r\nContent-Length: 1\r\n\r\nabc",
        ]
        for head in heads {
            let reply = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + head
            let origin = try RawOrigin(reply: reply, closesAfterReply: true)
            defer { origin.stop() }
            let proxy = try LoopbackServer(forwardingTo: URL(string: "http://127.0.0.1:\(origin.port)/")!)
            defer { proxy.stop() }
            let response = try exchange("GET / HTTP/1.1\r\n\r\n", proxy)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(head): \(response)")
            let body = try XCTUnwrap(reply.range(of: "\r\n\r\n")).upperBound
            XCTAssertTrue(response.hasSuffix("\r\n\r\n" + reply[body...]), "\(head): \(response)")
            XCTAssertEqual(proxy.log.map(\.status), [200], head)
        }
    }

    func testHoldsAForwardedResponseByItsPathAndStopClosesThePort() throws {
        let origin = try LoopbackServer(root: scratch)
        defer { origin.stop() }
        var delays = [0.0, 0, 0, 0]
        delays[LoopbackServer.slot(of: "/js/app.mjs", count: 4)] = 150
        let proxy = try LoopbackServer(forwardingTo: origin.baseURL, delays: delays)
        let started = DispatchTime.now()
        XCTAssertTrue(try exchange("GET /js/app.mjs HTTP/1.1\r\n\r\n", proxy).hasPrefix("HTTP/1.1 200"))
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        XCTAssertGreaterThanOrEqual(waited, 150, "the response came before its 150 ms were up")
        XCTAssertEqual(proxy.log.last?.heldMilliseconds, 150)
        let port = proxy.port
        proxy.stop()
        XCTAssertThrowsError(try LoopbackServerTests.exchange("GET / HTTP/1.1\r\n\r\n", port: port)) { error in
            XCTAssertEqual((error as? POSIXError)?.code, .ECONNREFUSED)
        }
    }

    func testAnOriginThatCannotBeReachedIsA502AndHTTPSIsRefused() throws {
        let gone = try LoopbackServer(root: scratch)
        gone.stop()
        let proxy = try LoopbackServer(forwardingTo: gone.baseURL)
        defer { proxy.stop() }
        let response = try exchange("GET / HTTP/1.1\r\n\r\n", proxy)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 502 Bad Gateway"), response)
        XCTAssertTrue(response.contains("could not reach http://127.0.0.1:\(gone.port)"), response)
        XCTAssertFalse(LoopbackServer.forwards(URL(string: "https://example.com/")!))
        XCTAssertThrowsError(try LoopbackServer(forwardingTo: URL(string: "https://example.com/")!)) { error in
            XCTAssertEqual((error as? LoopbackServerError)?.code, .unsupportedOrigin, "\(error)")
            XCTAssertTrue("\(error)".contains("an https: page is loaded directly"), "\(error)")
        }
    }
}

/// An HTTP origin on 127.0.0.1 that answers every request with fixed bytes and then keeps the connection open
/// (as a keep-alive server does) or closes it, and remembers each request it read.
final class RawOrigin: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let reply: [UInt8]
    private let closes: Bool
    private let lock = NSLock()
    private var requests: [String] = []
    private var open: [Int32] = []

    init(reply: String, closesAfterReply: Bool = false) throws {
        self.reply = Array(reply.utf8)
        closes = closesAfterReply
        (listener, port) = try LoopbackPort.listen(backlog: 8)
        Thread.detachNewThread { [self] in serve() }
    }

    /// The requests read so far, head and body.
    var received: [String] { lock.withLock { requests } }

    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for fd in lock.withLock({ open }) { close(fd) }
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { break }
            lock.withLock { open.append(connection) }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // The head, then the body its Content-Length announces.
            while !complete(request) {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                request += buffer[0..<count]
            }
            lock.withLock { requests.append(String(decoding: request, as: UTF8.self)) }
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            if closes { _ = shutdown(connection, Int32(SHUT_WR)) }
        }
        close(listener)
    }

    private func complete(_ request: [UInt8]) -> Bool {
        let text = String(decoding: request, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let length =
            text[..<end.lowerBound].components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text[end.upperBound...].utf8.count >= length
    }
}
