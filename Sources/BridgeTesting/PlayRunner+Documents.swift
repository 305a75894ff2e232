import BridgeContract
import Foundation
import LoopbackServer

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// A stressed session's side of the play: the page served through the check's loopback server, the reload
/// between two steps, and what each document must send once.
extension PlayRunner {

    /// The page as this session loads it: through the check's loopback server when it serves the page's folder
    /// (`servedFolder`, or a stressed session that holds responses) or forwards to its `http:` origin (a stressed
    /// session that holds responses), else as configured.
    func servedPage() throws(LoopbackServerError) -> CheckConfiguration.Page {
        if case .url(let url) = configuration.page {
            guard let delays = configuration.perturbation?.responseDelays, LoopbackServer.forwards(url) else {
                return configuration.page
            }
            let proxy = try LoopbackServer(forwardingTo: url, delays: delays)
            server = proxy
            session.proxied = (FrameRule.origin(scheme: "http", host: "127.0.0.1", port: proxy.port), url)
            return .url(proxy.address(of: url))
        }
        guard case .html(let html, let base?) = configuration.page, base.isFileURL else { return configuration.page }
        // The base is the page's own file (so its errors name it) or, as a caller may give it, its folder.
        let pageFolder = base.hasDirectoryPath ? base : base.deletingLastPathComponent()
        let folder =
            configuration.servedFolder ?? (configuration.perturbation?.responseDelays != nil ? pageFolder : nil)
        guard let folder else { return configuration.page }
        let root =
            folder.standardizedFileURL.path.hasSuffix("/")
            ? folder.standardizedFileURL.path : folder.standardizedFileURL.path + "/"
        let page =
            base.standardizedFileURL.path + (base.hasDirectoryPath && !base.path.hasSuffix("/") ? "/" : "")
        guard page.hasPrefix(root) else { return configuration.page }
        let server = try LoopbackServer(root: folder, delays: configuration.perturbation?.responseDelays ?? [])
        self.server = server
        return .html(html, baseURL: server.url(for: String(page.dropFirst(root.count))))
    }

    /// Loads the page; the second time (a stressed reload) without restarting the session's timeline.
    func issueLoad(first: Bool) {
        switch loadedPage {
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
            if first { session.load(request) } else { _ = session.webView?.load(request) }
        }
    }

    func scheduleReload() {
        guard let after = perturber?.perturbation.reloadAfter else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + after / 1000) { [weak self] in
            MainActor.assumeIsolated {
                self?.reloadDue = true
                self?.session.notify()
            }
        }
    }

    /// Loads the page again between two steps, so no native call is cut in half: a second document, whose first
    /// message must come again (once) and whose didFinish steps run again.
    func reload() {
        reloadCommit = session.committedDocuments + 1
        finishedAtReload = session.finishedDocuments
        perturber?.note(
            "the page loaded again \(Perturbation.ms(perturber?.perturbation.reloadAfter ?? 0)) after didFinish")
        session.reloading = true
        issueLoad(first: false)
    }

    /// Whether to reload now: it is due, and the first document said its first expected message (ready). A
    /// document replaced before it could say ready proves nothing about the page.
    var reloadReady: Bool {
        guard reloadDue, reloadCommit == nil else { return false }
        return expected.first.map { documentCounts[1]?[$0, default: 0] ?? 0 > 0 } ?? true
    }

    var secondDocumentFinished: Bool {
        reloadCommit != nil && !secondDocumentStarted && session.finishedDocuments > finishedAtReload
    }

    /// Whether a stressed reload is still to happen or its document still to finish loading.
    var reloadPending: Bool {
        perturber?.perturbation.reloadAfter != nil && loaded == true && (reloadCommit == nil || !secondDocumentStarted)
    }

    func endPerturbation() {
        guard !perturbationEnded else { return }
        perturbationEnded = true
        perturber?.end(served: server?.log ?? [])
        server?.stop()
    }

    /// The document a page message now arriving belongs to.
    var currentDocument: Int {
        reloadCommit.map { session.committedDocuments >= $0 ? 2 : 1 } ?? 1
    }

    /// Whether the reloaded-away first document went without an expected message: it can no longer send it.
    var firstDocumentMissedForGood: Bool {
        guard let reloadCommit, session.committedDocuments >= reloadCommit else { return false }
        return expected.contains { documentCounts[1]?[$0, default: 0] ?? 0 == 0 }
    }

    var documents: [Int] { reloadCommit == nil ? [1] : [1, 2] }

    /// Whether `kind` arrived in every document.
    func arrived(_ kind: String) -> Bool {
        documents.allSatisfy { documentCounts[$0]?[kind, default: 0] ?? 0 > 0 }
    }

    /// The most copies of `kind` one document sent.
    func mostCopies(_ kind: String) -> Int {
        documentCounts.values.map { $0[kind, default: 0] }.max() ?? 0
    }
}
