import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check's own HTTP/1.1 server on 127.0.0.1 at an ephemeral port, for one check's run: it serves one folder,
/// or forwards every request to one `http:` origin (a reverse proxy, `init(forwardingTo:delays:)`).
///
/// Plain POSIX sockets and Foundation, so it builds on Linux and Apple platforms alike. Each response may be held
/// back by a given delay (chosen by its path, so the same path is held the same whatever order requests arrive
/// in), which is how a stressed session makes scripts, modules and fetches arrive late: on the machine's clock, or
/// released by a timeline (``responseTimeline``). Every response closes its connection. ``stop()`` (or the last reference going away) closes
/// the port and every open connection; nothing outlives the check that started it.
public final class LoopbackServer: @unchecked Sendable {
    /// One answered request: its path (never its query), status, and how long its response was held.
    public struct Served: Sendable, Equatable {
        public let path: String
        public let status: Int
        public let heldMilliseconds: Double
    }

    /// The port on 127.0.0.1 the server listens on.
    public let port: Int
    /// The folder served; nil when the server forwards to an origin.
    public var root: URL? {
        if case .folder(let root, _) = source { return root }
        return nil
    }
    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// What requests are answered from: a folder's files, or what the origin forwarded to answers.
    enum Source {
        case folder(URL, path: String)
        case origin(Upstream)
    }

    private let source: Source
    private let delays: [Double]
    /// How long one socket read or write may wait: the check's step timeout, so the server keeps its clock.
    let timeout: TimeInterval
    let lock = NSLock()
    private var served: [Served] = []
    private var connections: Set<Int32> = []
    /// Connections to the origin a forwarding server has open: closed by ``stop()`` too.
    var upstreams: Set<Int32> = []
    private(set) var stopped = false
    private var timeline: ResponseTimeline?
    /// The timeline that releases held responses (a stressed session's page clock); without one, a response is
    /// held its delay on the machine's clock. Set before the page loads.
    package var responseTimeline: ResponseTimeline? {
        get { lock.withLock { timeline } }
        set { lock.withLock { timeline = newValue } }
    }
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let acceptEnded = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "LoopbackServer", attributes: .concurrent)

    /// Starts serving `root` on 127.0.0.1 at a port the system picks.
    ///
    /// - Parameters:
    ///   - delays: milliseconds to hold responses; a path is held `delays[slot(path)]` (see ``slot(of:count:)``).
    ///   - timeout: seconds one socket read or write may wait (the check passes its step timeout).
    /// - Throws: ``LoopbackServerError`` naming the call that failed and the remedy.
    public convenience init(root: URL, delays: [Double] = [], timeout: TimeInterval = defaultTimeout)
        throws(LoopbackServerError)
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw LoopbackServerError(
                .notAFolder, "\(root.path) is not a folder", remedy: "give --serve the folder to serve")
        }
        let folder = root.standardizedFileURL
        try self.init(
            source: .folder(folder, path: folder.path.hasSuffix("/") ? folder.path : folder.path + "/"), delays: delays,
            timeout: timeout)
    }

    /// The socket timeout when none is given.
    public static let defaultTimeout: TimeInterval = 10

    /// `seconds` as a socket option's time value.
    static func socketTimeout(_ seconds: TimeInterval) -> timeval {
        let whole = max(0, seconds.rounded(.down))
        return timeval(tv_sec: .init(whole), tv_usec: .init((max(0, seconds) - whole) * 1_000_000))
    }

    /// Listens on 127.0.0.1 at a port the system picks and answers from `source`.
    init(source: Source, delays: [Double], timeout: TimeInterval) throws(LoopbackServerError) {
        self.source = source
        self.delays = delays
        self.timeout = timeout
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw .system("socket") }
        Self.closeOnExec(fd)
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw .system("bind/listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(fd)
            throw .system("pipe")
        }
        pipeEnds.forEach(Self.closeOnExec)
        listener = fd
        wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackServer accept"
        thread.start()
    }

    deinit { stop() }

    /// Which of `count` delays holds `path`: FNV-1a of its UTF-8 bytes, the same on every run and platform.
    public static func slot(of path: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(max(1, count)))
    }

    /// What the server answered so far, in the order requests arrived.
    public var log: [Served] { lock.withLock { served } }

    /// The address of `relativePath` (a path below the root, e.g. `app/index.html`).
    public func url(for relativePath: String) -> URL {
        URL(string: relativePath, relativeTo: baseURL)?.absoluteURL ?? baseURL
    }

    /// Closes the port and every connection, and waits for the accepting thread to end; idempotent.
    public func stop() {
        let wasRunning = lock.withLock {
            let running = !stopped
            stopped = true
            return running
        }
        guard wasRunning else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        acceptEnded.wait()
        let open = lock.withLock {
            let open = connections.union(upstreams)
            connections.removeAll()
            upstreams.removeAll()
            return open
        }
        for fd in open {
            _ = shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
        close(wake.read)
        close(wake.write)
    }

    // MARK: Serving

    private func acceptLoop() {
        defer {
            close(listener)
            acceptEnded.signal()
        }
        while true {
            var fds = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Self.closeOnExec(connection)
            Self.suppressSIGPIPE(connection)
            let admitted = lock.withLock {
                if stopped { return false }
                connections.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            // A thread of its own, not the dispatch pool's: a connection that sends nothing holds its thread
            // until the read times out, and the pool's few threads would let idle connections stall real ones.
            let thread = Thread { [self] in handle(connection) }
            thread.name = "LoopbackServer connection"
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        var timeout = Self.socketTimeout(self.timeout)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let response: Response
        var path = "/"
        if let head = readHead(connection), let request = Request(head) {
            path = request.path
            switch source {
            case .folder(let root, let rootPath): response = respond(to: request, root: root, rootPath: rootPath)
            case .origin(let upstream): response = forward(request, head: head, from: connection, to: upstream)
            }
        } else {
            response = .plain(400, "bad request")
        }
        let held = lock.withLock {
            let held = delays.isEmpty ? 0 : max(0, delays[Self.slot(of: path, count: delays.count)])
            served.append(Served(path: path, status: response.status, heldMilliseconds: held))
            return held
        }
        let send: @Sendable () -> Void = { [self] in
            let stillOpen = lock.withLock { connections.remove(connection) != nil }
            guard stillOpen else { return }
            self.send(response, to: connection)
            _ = shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
        if held > 0, let timeline = responseTimeline {
            // On this connection's own thread, until the timeline releases it (or the step timeout after it is due).
            timeline.hold(milliseconds: held, within: self.timeout)
            send()
        } else if held > 0 {
            queue.asyncAfter(deadline: .now() + held / 1000, execute: send)
        } else {
            send()
        }
    }

    /// The request line and headers, up to the blank line (and any bytes read after it); nil when the client sent
    /// none (or over 64 KiB).
    func readHead(_ connection: Int32) -> Data? {
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Data("\r\n\r\n".utf8)
        while head.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            head.append(contentsOf: buffer[0..<count])
            if head.range(of: end) != nil { return head }
        }
        return nil
    }

    /// Sends all of `bytes`; false when the peer went away first.
    @discardableResult
    func writeAll(_ connection: Int32, _ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glue.send(connection, raw.baseAddress! + offset, raw.count - offset)
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Content types by extension: what an ES-module page, its styles, data and images need.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "txt": "text/plain; charset=utf-8", "wasm": "application/wasm", "ico": "image/x-icon",
    ]

    // MARK: Platform glue

    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    static let streamType = SOCK_STREAM
    #endif

    /// Engine processes started later must not inherit the port or a connection.
    static func closeOnExec(_ fd: Int32) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

    static func suppressSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private enum Glue {
        static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            #if canImport(Glibc)
            Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(fd, bytes, count, 0)
            #endif
        }
    }
}

/// A request line the server understands: method and path (percent-decoded, query and fragment dropped).
struct Request {
    let method: String
    let path: String
    /// The `Range` header's value, when the request has one.
    var range: String?

    init?(_ head: Data) {
        guard let text = String(data: head, encoding: .utf8) ?? String(data: head, encoding: .isoLatin1),
            let line = text.split(separator: "\r\n", maxSplits: 1).first
        else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else { return nil }
        method = String(parts[0])
        let target = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        guard let decoded = target.removingPercentEncoding, !decoded.contains("\0") else { return nil }
        path = decoded
        for header in text.components(separatedBy: "\r\n").dropFirst() {
            guard header.prefix(6).lowercased() == "range:" else { continue }
            range = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        }
    }
}

/// A response: the server's own (a file, an error) or, relayed as the origin sent it, a forwarded one.
struct Response: Sendable {
    let status: Int
    let bytes: Data
    /// The body, when it is a file's bytes: sent from the file after `bytes` (the head), never read whole.
    var file: FileBody?

    init(status: Int, type: String, body: Data, length: Int? = nil, headers: [String] = []) {
        self.status = status
        let reasons = [
            200: "OK", 206: "Partial Content", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 411: "Length Required", 416: "Range Not Satisfiable", 502: "Bad Gateway",
        ]
        var head = "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: \(type)\r\n"
        head += headers.map { "\($0)\r\n" }.joined()
        head += "Content-Length: \(length ?? body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        bytes = Data(head.utf8) + body
    }

    /// A relayed response's bytes, whole.
    init(status: Int, bytes: Data) {
        self.status = status
        self.bytes = bytes
    }

    /// The server's own answer in plain text.
    static func plain(_ status: Int, _ text: String) -> Response {
        Response(status: status, type: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
    }
}
