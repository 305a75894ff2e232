import BridgeContract
import Foundation
import LoopbackServer

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The page as a session loads it: through the check's loopback server when it serves the page's folder
/// (`servedFolder`, or a stressed session that holds responses) or forwards to its `http:` origin (a stressed
/// session that holds responses), else as configured.
@MainActor
struct ServedPage {
    var page: CheckConfiguration.Page
    /// The loopback server the page is served from, while it runs.
    var server: LoopbackServer?
    /// What the server refused the page when it stopped (``ServedRefusals``): named in the verdict.
    private(set) var refusals = ""
    /// The proxy's origin and the page's own address, when the page is loaded through the forwarding proxy.
    private var proxied: (proxyOrigin: String, page: URL)?

    init(page: CheckConfiguration.Page) { self.page = page }

    /// Stops the server, keeping what it refused the page; returns what it served, for the perturbation's words.
    mutating func stop() -> [LoopbackServer.Served] {
        guard let server else { return [] }
        refusals = ServedRefusals.note(server)
        server.stop()
        self.server = nil
        return server.log
    }

    /// Starts the server the configuration asks for, if any, and takes the page's address on it; its sockets wait
    /// at most a step of `clock`, and its held responses are released by `timeline` (a stressed session's page clock).
    mutating func serve(
        _ configuration: CheckConfiguration, within clock: CheckClock, timeline: ResponseTimeline?
    ) throws(LoopbackServerError) {
        if case .url(let url) = configuration.page {
            guard let delays = configuration.perturbation?.responseDelays, LoopbackServer.forwards(url) else { return }
            let proxy = try LoopbackServer(forwardingTo: url, delays: delays, timeout: clock.timeout)
            proxy.responseTimeline = timeline
            server = proxy
            proxied = (FrameRule.origin(scheme: "http", host: "127.0.0.1", port: proxy.port), url)
            page = .url(proxy.address(of: url))
            return
        }
        guard case .html(let html, let base?) = configuration.page, base.isFileURL else { return }
        // The base is the page's own file (so its errors name it) or, as a caller may give it, its folder.
        let pageFolder = base.hasDirectoryPath ? base : base.deletingLastPathComponent()
        let folder =
            configuration.servedFolder ?? (configuration.perturbation?.responseDelays != nil ? pageFolder : nil)
        guard let folder else { return }
        let root =
            folder.standardizedFileURL.path.hasSuffix("/")
            ? folder.standardizedFileURL.path : folder.standardizedFileURL.path + "/"
        let path =
            base.standardizedFileURL.path + (base.hasDirectoryPath && !base.path.hasSuffix("/") ? "/" : "")
        guard path.hasPrefix(root) else { return }
        let server = try LoopbackServer(
            root: folder, delays: configuration.perturbation?.responseDelays ?? [], timeout: clock.timeout)
        server.responseTimeline = timeline
        self.server = server
        page = .html(html, baseURL: server.url(for: String(path.dropFirst(root.count))))
    }

    /// Loads the page; the second time (a stressed reload) without restarting the session's timeline.
    func load(into session: BridgeSession, first: Bool, within clock: CheckClock) {
        switch page {
        case .html(let html, let baseURL):
            if first {
                session.loadHTMLString(html, baseURL: baseURL)
            } else {
                _ = session.webView?.loadHTMLString(html, baseURL: baseURL)
            }
        case .url(let url):
            // The engine's request timer ends with the load step; either way the verdict's text is the same.
            let request = URLRequest(
                url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: clock.requestTimeout)
            if first { session.load(request, through: proxied) } else { _ = session.webView?.load(request) }
        }
    }
}
