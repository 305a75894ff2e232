import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks a `--url` page's server what it answered, one request at a time and without following redirects.
///
/// WebKit ends the web content process when an http(s) page's redirect leads to a `file:` URL, before it tells the
/// UI process of the redirect (no policy decision, no redirect callback on WebKitGTK), and fails one to `data:` or
/// `about:` as a "restricted network port": the check cannot see the redirect, so it asks the server itself.
enum RedirectProbe {
    /// A redirect a server answered: the address asked, the status and the address its Location resolves to.
    struct Redirect: Sendable, Equatable {
        let url: URL
        let status: Int
        let location: URL
    }

    /// The most redirects followed within http(s), as WebKit follows at most 20.
    static let hops = 20

    /// The redirect that ended a `--url` session's web process during the load, asked of the server within the
    /// current step of `clock`; nil (and nothing asked) when the load ended any other way.
    @MainActor
    static func endingTheLoad(of session: BridgeSession, _ page: CheckConfiguration.Page, within clock: CheckClock)
        async -> Redirect?
    {
        // The two ends WebKit gives a redirect out of http(s): the web process ended (file:), or a load error it
        // words as a restricted port (data:, about:), which a port it really refuses gives too.
        let endedByWebKit =
            session.loadResult == nil && session.webContentProcessTerminated
            || session.loadError.map(LoadError.cause) == .restrictedPort
        guard case .url(let url) = page, LoadError.isHTTP(url), endedByWebKit, session.httpStatusCode == nil
        else { return nil }
        return await firstRedirectLeavingHTTP(from: url, within: clock)
    }

    /// Follows the server's http(s) redirects from `url` within the current step of `clock`; returns the first
    /// that leads out of http(s), or nil when none does, a request fails, or no answer comes in time.
    static func firstRedirectLeavingHTTP(from url: URL, within clock: CheckClock) async -> Redirect? {
        var next = url
        for _ in 0..<hops {
            guard let answer = await redirect(of: next, within: clock) else { return nil }
            guard LoadError.isHTTP(answer.location) else { return answer }
            next = answer.location
        }
        return nil
    }

    /// What the server answers to one GET of `url`: its redirect, or nil for any other answer or none in time.
    static func redirect(of url: URL, within clock: CheckClock) async -> Redirect? {
        let remaining = clock.remaining
        guard remaining > 0 else { return nil }
        let listener = OneAnswer()
        let configuration = URLSessionConfiguration.ephemeral
        // FoundationNetworking counts these in whole seconds (0.9 s is none): the deadline below ends the wait.
        configuration.timeoutIntervalForRequest = remaining.rounded(.up)
        configuration.timeoutIntervalForResource = remaining.rounded(.up)
        let session = URLSession(configuration: configuration, delegate: listener, delegateQueue: nil)
        // Never cancelled from here: FoundationNetworking traps when a task is cancelled while its redirect callback
        // is under way. A task the deadline ends runs out its own timeouts, which end within a second of it.
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = "GET"
        let task = session.dataTask(with: request)
        // The check's own deadline, whatever the transport's timers do; dropped once the server answered.
        let deadline = DispatchWorkItem { listener.finish(nil) }
        defer { deadline.cancel() }
        let answer = await withCheckedContinuation { continuation in
            listener.start(continuation)
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: clock.deadline, execute: deadline)
        }
        guard let answer, (300..<400).contains(answer.statusCode),
            let text = answer.value(forHTTPHeaderField: "Location"),
            let location = URL(string: text, relativeTo: url)?.absoluteURL
        else { return nil }
        return Redirect(url: url, status: answer.statusCode, location: location)
    }
}

extension RedirectProbe.Redirect {
    /// The load's failure when WebKit ends the load on this redirect out of http(s); nil for one within http(s).
    var failure: BridgeFailure? {
        LoadError.describeRedirect(status: status, to: location, answeredBy: url).map {
            BridgeFailure(.pageUnreachable, $0)
        }
    }
}

/// Takes the first response of one task (a redirect it refuses to follow, or any other), never its body.
private final class OneAnswer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Guarded by `lock`: the delegate queue and the deadline's timer race to finish.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<HTTPURLResponse?, Never>?

    func start(_ continuation: CheckedContinuation<HTTPURLResponse?, Never>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    /// Resumes the waiting probe once; later calls do nothing.
    func finish(_ response: HTTPURLResponse?) {
        lock.lock()
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: response)
    }

    /// Not followed: the redirect is the task's answer, which then completes with it.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // The body is the server's page: never read.
        finish(response as? HTTPURLResponse)
        completionHandler(.cancel)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(task.response as? HTTPURLResponse)
    }
}
