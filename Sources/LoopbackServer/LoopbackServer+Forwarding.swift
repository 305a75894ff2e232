import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The origin a forwarding server sends every request on to.
struct Upstream: Sendable {
    /// The host to connect to (an IPv6 address without its brackets) and its port.
    let host: String
    let port: Int
    /// `Host:` as the origin expects it: its port only when not 80.
    let authority: String
    /// `http://host[:port]`: what requests' `Origin` and `Referer` name instead of the proxy's address.
    let origin: String
}

/// A reverse proxy for one `http:` origin: a page given by URL loads from the proxy, each request (the page's own
/// and every relative URL it loads) is sent on to the origin, and each response, read whole, is relayed unchanged
/// (status, headers, body) after the delay for its path, exactly as a served folder's files are held.
extension LoopbackServer {
    /// Whether a forwarding server can stand in for `page`: an `http:` URL with a host. An `https:` page is not
    /// proxied (the server speaks no TLS).
    public static func forwards(_ page: URL) -> Bool {
        page.scheme?.lowercased() == "http" && !(page.host ?? "").isEmpty
    }

    /// Starts a reverse proxy on 127.0.0.1 for the origin of `page` (its host and port, 80 when none is given).
    ///
    /// - Parameter delays: milliseconds to hold responses; a path is held `delays[slot(path)]`.
    /// - Throws: ``LoopbackServerError`` when `page` is not `http:` with a host, or a socket call fails.
    public convenience init(forwardingTo page: URL, delays: [Double] = [], timeout: TimeInterval = defaultTimeout)
        throws(LoopbackServerError)
    {
        guard Self.forwards(page), let named = page.host else {
            throw LoopbackServerError(
                .unsupportedOrigin, "the loopback proxy forwards only to an http: origin with a host",
                remedy: "give the page as http://HOST[:PORT]/PATH (an https: page is loaded directly)")
        }
        let host = named.hasPrefix("[") ? String(named.dropFirst().dropLast()) : named
        let port = page.port ?? 80
        let bracketed = host.contains(":") ? "[\(host)]" : host.lowercased()
        let authority = port == 80 ? bracketed : "\(bracketed):\(port)"
        try self.init(
            source: .origin(Upstream(host: host, port: port, authority: authority, origin: "http://\(authority)")),
            delays: delays, timeout: timeout)
    }

    /// Where `page`, a page of the origin this server forwards to, loads from: the same path, query and fragment
    /// at this server's address.
    public func address(of page: URL) -> URL {
        guard var components = URLComponents(url: page, resolvingAgainstBaseURL: true) else { return baseURL }
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.user = nil
        components.password = nil
        return components.url ?? baseURL
    }

    /// Sends `request` on to the origin and reads its response whole; a plain-text 502 when the origin cannot be
    /// reached or sends no HTTP response.
    func forward(_ request: Request, head: Data, from client: Int32, to upstream: Upstream) -> Response {
        guard let end = head.range(of: Data("\r\n\r\n".utf8)) else { return .plain(400, "bad request") }
        var lines = String(decoding: head[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var outgoing = [lines.removeFirst(), "Host: \(upstream.authority)"]
        let proxyOrigin = "http://127.0.0.1:\(port)"
        var length = 0
        for line in lines {
            let name = line.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased()
            let value = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            switch name {
            // Hop-by-hop headers are the proxy's own: each side's connection closes after one response.
            case "host", "connection", "keep-alive", "proxy-connection", "upgrade", "te": continue
            case "transfer-encoding":
                return .plain(411, "the loopback proxy forwards request bodies with a Content-Length only")
            case "content-length":
                guard let count = Int(value), count >= 0 else { return .plain(400, "bad Content-Length") }
                length = count
                outgoing.append(line)
            case "origin", "referer":
                // The origin sees the requests of its own page as its own, as without the proxy.
                let proxied = value == proxyOrigin || value.hasPrefix(proxyOrigin + "/")
                outgoing.append(
                    proxied
                        ? "\(line.prefix { $0 != ":" }): \(upstream.origin)\(value.dropFirst(proxyOrigin.count))" : line
                )
            default: outgoing.append(line)
            }
        }
        var body = [UInt8](head[end.upperBound...])
        while body.count < length, Self.receive(client, into: &body) {}
        let message = Data((outgoing + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8)
        var problem = "no address"
        guard let origin = openUpstream(upstream, problem: &problem) else {
            return .plain(502, "the loopback proxy could not reach \(upstream.origin) (\(problem))")
        }
        defer { if lock.withLock({ upstreams.remove(origin) != nil }) { close(origin) } }
        writeAll(origin, message + Data(body.prefix(length)))
        return Self.readResponse(origin, method: request.method)
            ?? .plain(502, "\(upstream.origin) sent no HTTP response")
    }

    /// A connection to the origin, registered so that ``stop()`` closes it; nil when none of its addresses answers
    /// (`problem` then says why).
    private func openUpstream(_ upstream: Upstream, problem: inout String) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamType
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(upstream.host, String(upstream.port), &hints, &found)
        guard looked == 0 else {
            problem = String(cString: gai_strerror(looked))
            return nil
        }
        defer { freeaddrinfo(found) }
        var next = found
        while let address = next?.pointee {
            next = address.ai_next
            let fd = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard fd >= 0 else { continue }
            Self.closeOnExec(fd)
            Self.suppressSIGPIPE(fd)
            // The same bound as the page's side: on Linux the send timeout also bounds connect().
            var timeout = Self.socketTimeout(self.timeout)
            for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
                _ = setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
            guard lock.withLock({ stopped ? false : upstreams.insert(fd).inserted }) else {
                close(fd)
                return nil
            }
            if connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return fd }
            problem = String(cString: strerror(errno))
            if lock.withLock({ upstreams.remove(fd) != nil }) { close(fd) }
        }
        return nil
    }

    /// The origin's response to a request made with `method`, read whole: its head (interim 1xx responses
    /// skipped) and its body as framed (Content-Length, chunked, or until the origin closes). The bytes are the
    /// origin's own, but for `Connection: close` in place of its connection headers.
    static func readResponse(_ fd: Int32, method: String) -> Response? {
        var bytes: [UInt8] = []
        var headEnd = 0
        var status = 0
        repeat {
            bytes.removeFirst(headEnd)
            while true {
                if let end = find([13, 10, 13, 10], in: bytes, from: 0) {
                    headEnd = end + 4
                    break
                }
                guard bytes.count < 65_536, receive(fd, into: &bytes) else { return nil }
            }
            let statusLine = String(decoding: bytes.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
                return nil
            }
            status = code
        } while (100..<200).contains(status) && status != 101
        var kept: [String] = []
        var lengths: Set<String> = []
        var chunked = false
        for line in String(decoding: bytes[..<(headEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n") {
            let name = line.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased()
            let value = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            if name == "connection" || name == "keep-alive" { continue }
            if name == "content-length" { lengths.insert(value) }
            if name == "transfer-encoding" { chunked = value.lowercased().contains("chunked") }
            kept.append(line)
        }
        // Every number the origin sends is checked before it is used: a Content-Length that is not one run of
        // digits within Int (`-1`, `1e3`, 20 digits), or two that differ, frames nothing, and the body is then
        // relayed as it comes until the origin closes: the engine gets the origin's bytes as they are and judges
        // them as it does without the proxy.
        let length = lengths.count == 1 ? lengths.first.flatMap(Self.decimal) : nil
        var end: Int?
        if method == "HEAD" || status == 204 || status == 304 {
            end = headEnd
        } else if chunked {
            var scanner = ChunkedBody(start: headEnd)
            while end == nil {
                end = scanner.end(in: bytes)
                guard end == nil, receive(fd, into: &bytes) else { break }
            }
        } else if let length {
            while bytes.count - headEnd < length, receive(fd, into: &bytes) {}
            end = bytes.count - headEnd > length ? headEnd + length : bytes.count
        } else {
            while receive(fd, into: &bytes) {}
        }
        // What the origin sent of the body, cut where its framing says it ends.
        let body = bytes[headEnd..<(end ?? bytes.count)]
        let head = (kept + ["Connection: close", "", ""]).joined(separator: "\r\n")
        return Response(status: status, bytes: Data(head.utf8) + Data(body))
    }

    /// A header's decimal number: digits only (no sign, no space, no exponent), within Int; nil otherwise.
    static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    /// Appends what one `recv` read; false at the end of the stream, an error or the timeout.
    static func receive(_ fd: Int32, into bytes: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            bytes += buffer[0..<count]
            return true
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// Where a chunked body ends, found as its bytes arrive: each chunk passed is remembered, not scanned again.
struct ChunkedBody {
    private var next: Int

    init(start: Int) { next = start }

    /// The index just past the body's last chunk and trailer, once they are in `bytes`; nil until then (or when
    /// the framing is not chunked after all: the body then ends with the stream).
    mutating func end(in bytes: [UInt8]) -> Int? {
        while let lineEnd = LoopbackServer.find([13, 10], in: bytes, from: next) {
            let sizeText = String(decoding: bytes[next..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
                .trimmingCharacters(in: .whitespaces)
            // A chunk size is hex digits only, within Int (`7fffffffffffffff` is one, so every sum below is
            // compared, never added past the bytes at hand).
            guard !sizeText.isEmpty, sizeText.utf8.allSatisfy({ $0 < 128 && Character(UnicodeScalar($0)).isHexDigit }),
                let size = Int(sizeText, radix: 16)
            else { return nil }
            if size == 0 {
                // The last chunk, then trailer lines up to an empty one.
                var line = lineEnd + 2
                while let end = LoopbackServer.find([13, 10], in: bytes, from: line) {
                    if end == line { return end + 2 }
                    line = end + 2
                }
                return nil
            }
            // The chunk's data and its CRLF, once they are all in: `size` may be as large as Int allows.
            let after = bytes.count - (lineEnd + 2)
            guard after >= 2, size <= after - 2 else { return nil }
            next = lineEnd + 2 + size + 2
        }
        return nil
    }
}
