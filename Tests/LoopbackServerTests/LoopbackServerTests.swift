import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check's own HTTP/1.1 server, spoken to over a real socket: files with their types, nothing outside the
/// folder, responses held by path, and a port that closes with `stop()`.
final class LoopbackServerTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString)")
    var root: URL { scratch.appendingPathComponent("site") }

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("export const answer = 42;\n".utf8).write(to: root.appendingPathComponent("js/app.mjs"))
        try Data("<!doctype html><p>index</p>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("SECRET-outside".utf8).write(to: scratch.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("link.txt"),
            withDestinationURL: scratch.appendingPathComponent("secret.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Sends `request` as raw bytes and reads until the server closes the connection (at most 10 s).
    static func exchange(_ request: String, port: Int) throws -> String {
        let fd = try LoopbackPort.connect(port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: response, as: UTF8.self)
    }

    func get(_ path: String, _ server: LoopbackServer, method: String = "GET") throws -> String {
        try Self.exchange("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port)
    }

    /// A client that never finishes its request is answered when the check's step timeout ends, not after a
    /// fixed 10 s of the server's own.
    func testAnUnfinishedRequestWaitsTheTimeoutTheServerWasGiven() throws {
        let server = try LoopbackServer(root: root, timeout: 0.5)
        defer { server.stop() }
        let started = DispatchTime.now()
        let response = try Self.exchange("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n", port: server.port)
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000_000
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 400"), response)
        XCTAssertGreaterThanOrEqual(waited, 0.5, "the server answered before its timeout")
        XCTAssertLessThan(waited, 5, "the server kept a timeout of its own instead of the one it was given")
    }

    func testServesFilesWithTheirTypesOverHTTP11() throws {
        let server = try LoopbackServer(root: root)
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.url(for: "js/app.mjs").absoluteString, "http://127.0.0.1:\(server.port)/js/app.mjs")
        let module = try get("/js/app.mjs?v=1", server)
        XCTAssertTrue(module.hasPrefix("HTTP/1.1 200 OK\r\n"), module)
        XCTAssertTrue(module.contains("Content-Type: text/javascript; charset=utf-8\r\n"), module)
        XCTAssertTrue(module.contains("Content-Length: 26\r\n"), module)
        XCTAssertTrue(module.hasSuffix("\r\n\r\nexport const answer = 42;\n"), module)
        let index = try get("/", server)
        XCTAssertTrue(index.contains("Content-Type: text/html") && index.hasSuffix("<p>index</p>"), index)
        let head = try get("/js/app.mjs", server, method: "HEAD")
        XCTAssertTrue(head.contains("Content-Length: 26\r\n") && head.hasSuffix("\r\n\r\n"), head)
        XCTAssertEqual(server.log.map(\.path), ["/js/app.mjs", "/", "/js/app.mjs"], "the log keeps paths, not queries")
    }

    func testNothingOutsideTheFolderIsServedAndBadRequestsAreRefused() throws {
        let server = try LoopbackServer(root: root)
        defer { server.stop() }
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt", "/link.txt", "/missing.js"] {
            let response = try get(path, server)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 404 Not Found"), "\(path): \(response)")
            XCTAssertFalse(response.contains("SECRET"), path)
        }
        XCTAssertTrue(try get("/index.html", server, method: "POST").hasPrefix("HTTP/1.1 405"))
        XCTAssertTrue(try Self.exchange("nonsense\r\n\r\n", port: server.port).hasPrefix("HTTP/1.1 400"))
        XCTAssertThrowsError(try LoopbackServer(root: scratch.appendingPathComponent("secret.txt"))) { error in
            XCTAssertEqual((error as? LoopbackServerError)?.code, .notAFolder, "\(error)")
            XCTAssertTrue("\(error)".contains("give --serve the folder"), "\(error)")
        }
    }

    func testAResponseIsHeldByItsPath() throws {
        let slot = LoopbackServer.slot(of: "/js/app.mjs", count: 4)
        var delays = [0.0, 0, 0, 0]
        delays[slot] = 150
        let server = try LoopbackServer(root: root, delays: delays)
        defer { server.stop() }
        let started = DispatchTime.now()
        _ = try get("/js/app.mjs", server)
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        XCTAssertGreaterThanOrEqual(waited, 150, "the response came before its 150 ms were up")
        XCTAssertEqual(server.log.last?.heldMilliseconds, 150)
        if LoopbackServer.slot(of: "/index.html", count: 4) != slot {
            _ = try get("/index.html", server)
            XCTAssertEqual(server.log.last?.heldMilliseconds, 0, "another path is not held")
        }
        // The slot is FNV-1a of the path: the same on every run and platform, so replays hold the same files.
        XCTAssertEqual(LoopbackServer.slot(of: "/late-receiver.js", count: 8), 1)
        XCTAssertEqual(LoopbackServer.slot(of: "/late-app.js", count: 8), 5)
    }

    func testStopClosesThePort() throws {
        let server = try LoopbackServer(root: root)
        let port = server.port
        XCTAssertTrue(try get("/", server).hasPrefix("HTTP/1.1 200"))
        server.stop()
        server.stop()
        XCTAssertThrowsError(try Self.exchange("GET / HTTP/1.1\r\n\r\n", port: port), "the port is closed") { error in
            XCTAssertEqual((error as? POSIXError)?.code, .ECONNREFUSED)
        }
    }
}
