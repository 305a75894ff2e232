#if os(Linux)
import CWebKitGTK
import Foundation
import Glibc

/// A real HTTP server on 127.0.0.1 (libsoup 3's `SoupServer`) that serves canned routes to the engine under test.
///
/// It runs on its own GLib main context in its own thread, not on the default context the engine drives from
/// the main queue: the CLI tests block the test's main thread while the `webbridge` child process fetches pages,
/// and the library tests keep the main actor busy awaiting the check. Every libsoup call happens on that thread.
public final class LoopbackHTTPServer: Sendable {
    /// What the server answers on one path.
    public enum Route: Sendable {
        /// A complete response with this status and HTML body.
        case page(status: Int, html: String)
        /// A 200 response with this content type and body (a script, a module, a style sheet).
        case file(contentType: String, body: String)
        /// A 200 response with this content type whose body depends on how many times the path was requested: the
        /// n-th request (1-based) gets `bodies[n]`, any other `otherwise` (a page that is slow in one session).
        case numbered(contentType: String, bodies: [Int: String], otherwise: String)
        /// A 200 response with this content type and body, sent `milliseconds` after the request came (a slow
        /// subresource); other requests are answered meanwhile.
        case held(milliseconds: Int, contentType: String, body: String)
        /// A redirect (status 302) to another path or URL.
        case redirect(to: String)
        /// Reads the request and never answers: no status line, no headers, until the server stops.
        case stall
        /// A 401 asking for HTTP Basic credentials (`WWW-Authenticate: Basic realm="…"`), at once, with this body.
        case challenge(html: String)
    }

    /// The port the server listens on.
    public let port: Int
    /// Whether the server speaks HTTPS (with a self-signed certificate no client trusts).
    public let isHTTPS: Bool
    private let state: ServerState

    /// Serves every file below `folder` at its relative path (`/hotwire/pass.html`), typed by its extension.
    public convenience init(folder: URL, timeout: TimeInterval = 10) throws {
        var routes: [String: Route] = [:]
        let types = [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "json": "application/json",
        ]
        let base = folder.standardizedFileURL.path
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            ?? .init()
        {
            guard let type = types[url.pathExtension], let text = try? String(contentsOf: url, encoding: .utf8) else {
                continue
            }
            routes[String(url.standardizedFileURL.path.dropFirst(base.count))] = .file(contentType: type, body: text)
        }
        try self.init(routes: routes, timeout: timeout)
    }

    /// Starts a server for `routes` (keyed by path, e.g. `/index.html`); other paths answer 404.
    ///
    /// - Parameter untrustedHTTPS: serve HTTPS with a self-signed certificate, so every load fails its TLS checks.
    /// - Throws: ``LoopbackHTTPServerError`` when the server cannot listen or does not start within `timeout`.
    public init(routes: [String: Route], untrustedHTTPS: Bool = false, timeout: TimeInterval = 10) throws {
        let state = ServerState(routes: routes, https: untrustedHTTPS)
        let thread = Thread { state.serve() }
        thread.name = "LoopbackHTTPServer"
        thread.start()
        guard state.started.wait(timeout: .now() + timeout) == .success else {
            throw LoopbackHTTPServerError("the server thread did not report its port within \(timeout) s")
        }
        if let failure = state.failure { throw LoopbackHTTPServerError(failure) }
        self.state = state
        port = state.port
        isHTTPS = untrustedHTTPS
    }

    deinit { stop() }

    /// The server's root, `http://127.0.0.1:<port>/`.
    public var baseURL: URL { url("/") }

    /// A URL on this server.
    public func url(_ path: String) -> URL { URL(string: "\(isHTTPS ? "https" : "http")://127.0.0.1:\(port)\(path)")! }

    /// The paths requested so far, in order.
    public var requestedPaths: [String] { state.paths }

    /// Waits until `path` has been requested, for at most `timeout` seconds; returns whether it was.
    public func waitForRequest(_ path: String, timeout: TimeInterval) -> Bool {
        state.wait(for: path, timeout: timeout)
    }

    /// Stops listening, drops stalled requests and ends the server thread; safe to call twice.
    public func stop() { state.stop() }

    /// A loopback port that refuses connections: bound (so nothing else takes it) but never listening.
    ///
    /// Keep the returned value alive for as long as the port must stay refused.
    public static func refusedPort() throws -> RefusedPort { try RefusedPort() }
}

/// A TCP port on 127.0.0.1 bound without `listen`, so every connection to it is refused.
public final class RefusedPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackHTTPServerError("socket() failed with errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw LoopbackHTTPServerError("bind() on 127.0.0.1 failed with errno \(errno)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// Why the loopback server could not start.
public struct LoopbackHTTPServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ reason: String) {
        description = "loopback HTTP server: \(reason); remedy: check that libsoup-3.0 is installed and loopback is up"
    }
}

/// A response a `.held` route sends later, on the server thread; it owns a reference to the message.
private final class HeldResponse {
    let message: OpaquePointer
    let type: String
    let body: String
    private var sent = false

    init(message: OpaquePointer, type: String, body: String) {
        self.message = message
        self.type = type
        self.body = body
    }

    func send() {
        guard !sent else { return }
        sent = true
        soup_server_message_set_status(message, 200, nil)
        var bytes = Array(body.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            soup_server_message_set_response(
                message, type, SOUP_MEMORY_COPY, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                gsize(buffer.count))
        }
        soup_server_message_unpause(message)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(message)) }
}

/// The routes, the request log and the server thread's GLib objects.
private final class ServerState: @unchecked Sendable {
    let routes: [String: LoopbackHTTPServer.Route]
    let https: Bool
    let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    // Written by the server thread before `started` is signalled, read-only afterwards.
    private(set) var port = 0
    private(set) var failure: String?
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var log: [String] = []
    private var stopping = false

    init(routes: [String: LoopbackHTTPServer.Route], https: Bool) {
        self.routes = routes
        self.https = https
    }

    var paths: [String] {
        condition.lock()
        defer { condition.unlock() }
        return log
    }

    func wait(for path: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !log.contains(path) {
            if !condition.wait(until: deadline) { return log.contains(path) }
        }
        return true
    }

    func stop() {
        condition.lock()
        let already = stopping
        stopping = true
        condition.unlock()
        guard !already, let loop else { return }
        // Thread-safe in GLib: quitting wakes the loop's context.
        g_main_loop_quit(loop)
        _ = finished.wait(timeout: .now() + 10)
    }

    /// The server thread: listen on a private context, report the port, run until stopped, clean up.
    func serve() {
        let context = g_main_context_new()!
        // The listener and connection sources attach to the thread-default context, not the engine's.
        g_main_context_push_thread_default(context)
        let loop = g_main_loop_new(context, 0)!
        let server = UnsafeMutableRawPointer(g_object_new_with_properties(soup_server_get_type(), 0, nil, nil)!)
            .assumingMemoryBound(to: SoupServer.self)
        soup_server_add_handler(
            server, nil,
            { _, message, path, _, data in
                guard let message, let data else { return }
                let state = Unmanaged<ServerState>.fromOpaque(data).takeUnretainedValue()
                state.answer(message, path: path.map { String(cString: $0) } ?? "/")
            }, Unmanaged.passRetained(self).toOpaque(),
            { data in if let data { Unmanaged<ServerState>.fromOpaque(data).release() } })
        var error: UnsafeMutablePointer<GError>?
        var options = SOUP_SERVER_LISTEN_IPV4_ONLY
        if https {
            if let certificate = g_tls_certificate_new_from_pem(UntrustedCertificate.pem, -1, &error) {
                soup_server_set_tls_certificate(server, certificate)
                g_object_unref(UnsafeMutableRawPointer(certificate))
                options = SoupServerListenOptions(options.rawValue | SOUP_SERVER_LISTEN_HTTPS.rawValue)
            } else {
                failure =
                    "the test certificate did not load: "
                    + (error?.pointee.message.map { String(cString: $0) } ?? "no error")
                g_error_free(error)
                error = nil
            }
        }
        if failure != nil {
            // Reported below without listening.
        } else if soup_server_listen_local(server, 0, options, &error) == 0 {
            failure =
                "listen on 127.0.0.1 failed: " + (error?.pointee.message.map { String(cString: $0) } ?? "no error")
            g_error_free(error)
        } else {
            port = Self.port(of: server)
        }
        self.context = context
        self.loop = loop
        let listening = failure == nil
        started.signal()
        if listening { g_main_loop_run(loop) }
        soup_server_disconnect(server)
        g_object_unref(UnsafeMutableRawPointer(server))
        // Let the closes queued by the disconnect run before the context goes away.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
        finished.signal()
    }

    private static func port(of server: UnsafeMutablePointer<SoupServer>) -> Int {
        guard let uris = soup_server_get_uris(server) else { return 0 }
        defer { g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) }) }
        guard let first = uris.pointee.data else { return 0 }
        return Int(g_uri_get_port(OpaquePointer(first)))
    }

    /// Answers one request, on the server thread.
    private func answer(_ message: OpaquePointer, path: String) {
        condition.lock()
        log.append(path)
        let requests = log.count { $0 == path }
        condition.broadcast()
        condition.unlock()
        let route = routes[path] ?? .page(status: 404, html: "<!doctype html><title>Not Found</title><p>no route</p>")
        if let headers = soup_server_message_get_response_headers(message) {
            soup_message_headers_replace(headers, "Cache-Control", "no-store")
        }
        func respond(_ status: Int, _ type: String, _ body: String) {
            soup_server_message_set_status(message, guint(status), nil)
            var bytes = Array(body.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                soup_server_message_set_response(
                    message, type, SOUP_MEMORY_COPY, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                    gsize(buffer.count))
            }
        }
        switch route {
        case .page(let status, let html):
            respond(status, "text/html; charset=utf-8", html)
        case .file(let type, let body):
            respond(200, type, body)
        case .numbered(let type, let bodies, let otherwise):
            respond(200, type, bodies[requests] ?? otherwise)
        case .held(let milliseconds, let type, let body):
            // Paused now, answered by a timeout on the server's own context; a server stopped first drops it.
            soup_server_message_pause(message)
            g_object_ref(UnsafeMutableRawPointer(message))
            let held = Unmanaged.passRetained(HeldResponse(message: message, type: type, body: body)).toOpaque()
            let source = g_timeout_source_new(guint(milliseconds))!
            g_source_set_callback(
                source,
                { data in
                    guard let data else { return 0 }
                    Unmanaged<HeldResponse>.fromOpaque(data).takeUnretainedValue().send()
                    return 0
                }, held, { data in if let data { Unmanaged<HeldResponse>.fromOpaque(data).release() } })
            g_source_attach(source, context)
            g_source_unref(source)
        case .redirect(let location):
            soup_server_message_set_redirect(message, 302, location)
        case .stall:
            // Paused with nothing set: libsoup sends nothing until it is unpaused, which never happens.
            soup_server_message_pause(message)
        case .challenge(let html):
            if let headers = soup_server_message_get_response_headers(message) {
                soup_message_headers_replace(headers, "WWW-Authenticate", "Basic realm=\"webbridge\"")
            }
            respond(401, "text/html; charset=utf-8", html)
        }
    }
}
#endif
