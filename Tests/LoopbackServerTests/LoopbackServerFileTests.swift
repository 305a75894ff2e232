import EngineTestSupport
import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A served folder's files as a hostile page (or a big asset) asks for them: ranges, numbers no Int holds, a
/// gigabyte file, and connections that send nothing.
final class LoopbackServerFileTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-files-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data("0123456789".utf8).write(to: scratch.appendingPathComponent("digits.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func get(_ path: String, _ server: LoopbackServer, range: String) throws -> String {
        try LoopbackServerTests.exchange(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: \(range)\r\n\r\n", port: server.port)
    }

    func testASingleRangeIsHonouredAndEveryNumberInItIsChecked() throws {
        let server = try LoopbackServer(root: scratch)
        defer { server.stop() }
        let cases: [(range: String, status: String, body: String, contentRange: String?)] = [
            ("bytes=2-5", "206 Partial Content", "2345", "bytes 2-5/10"),
            ("bytes=7-", "206 Partial Content", "789", "bytes 7-9/10"),
            ("bytes=-3", "206 Partial Content", "789", "bytes 7-9/10"),
            ("bytes=-30", "206 Partial Content", "0123456789", "bytes 0-9/10"),
            ("bytes=8-99999999999999999999", "200 OK", "0123456789", nil),
            ("bytes=9223372036854775807-", "416 Range Not Satisfiable", "", "bytes */10"),
            ("bytes=10-", "416 Range Not Satisfiable", "", "bytes */10"),
            ("bytes=5-2", "200 OK", "0123456789", nil),
            ("bytes=-0", "416 Range Not Satisfiable", "", "bytes */10"),
            ("bytes=+1-2", "200 OK", "0123456789", nil),
            ("bytes=0-1,4-5", "200 OK", "0123456789", nil),
            ("items=0-1", "200 OK", "0123456789", nil),
        ]
        for (range, status, body, contentRange) in cases {
            let response = try get("/digits.txt", server, range: range)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(range): \(response)")
            XCTAssertTrue(response.hasSuffix("\r\n\r\n" + body), "\(range): \(response)")
            XCTAssertTrue(response.contains("Content-Length: \(body.utf8.count)\r\n"), "\(range): \(response)")
            if let contentRange {
                XCTAssertTrue(response.contains("Content-Range: \(contentRange)\r\n"), "\(range): \(response)")
            }
        }
    }

    /// A gigabyte file (sparse: no disk used) is streamed: this process's peak memory grows by far less than
    /// the file, where reading it whole took twice its size.
    func testAGigabyteFileIsStreamedNotReadWhole() throws {
        let big = scratch.appendingPathComponent("big.bin")
        let gigabyte = 1 << 30
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(gigabyte))
        try handle.close()
        let server = try LoopbackServer(root: scratch)
        defer { server.stop() }
        let before = Self.peakResidentBytes()
        let fd = try LoopbackPort.connect(server.port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var received = 0
        var head = Data()
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            if head.count < 512 { head.append(contentsOf: buffer.prefix(min(count, 512))) }
            received += count
        }
        let headText = String(decoding: head, as: UTF8.self)
        XCTAssertTrue(headText.hasPrefix("HTTP/1.1 200 OK\r\n"), headText)
        XCTAssertTrue(headText.contains("Content-Length: \(gigabyte)\r\n"), headText)
        let headLength = try XCTUnwrap(headText.range(of: "\r\n\r\n")).upperBound.utf16Offset(in: headText)
        XCTAssertEqual(received - headLength, gigabyte, "the whole file arrived")
        let grown = Self.peakResidentBytes() - before
        XCTAssertLessThan(grown, 128 << 20, "serving a 1 GB file raised the peak by \(grown >> 20) MB")
    }

    /// Connections that open and send nothing (80 of them, more than the dispatch pool's threads) do not stall a
    /// real request: it is answered at once, not after the idle ones time out.
    func testIdleConnectionsDoNotStallARealRequest() throws {
        let server = try LoopbackServer(root: scratch)
        defer { server.stop() }
        let idle = try (0..<80).map { _ in try LoopbackPort.connect(server.port) }
        defer { idle.forEach { close($0) } }
        let started = Date()
        let response = try LoopbackServerTests.exchange("GET /digits.txt HTTP/1.1\r\n\r\n", port: server.port)
        let waited = Date().timeIntervalSince(started)
        XCTAssertTrue(response.hasSuffix("0123456789"), response)
        // The idle connections' reads end after 10 s: an answer before that was not queued behind them.
        XCTAssertLessThan(waited, 5, "the request waited \(waited) s behind idle connections")
    }

    /// The largest resident set this process has had, in bytes: /proc's VmHWM (its high-water mark).
    static func peakResidentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split { $0 == " " || $0 == "\t" }.dropFirst().first ?? "") ?? 0) * 1024
    }
}
