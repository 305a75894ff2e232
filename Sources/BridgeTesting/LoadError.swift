import Foundation

/// Turns a load error into words a CI log can act on: the cause, the host, the code — never page content.
package enum LoadError {
    /// What kind of failure a load error is.
    package enum Cause: String, Sendable, Codable {
        case dns = "DNS failure"
        case connectionRefused = "connection refused"
        case tls = "TLS error"
        case timeout = "no response within the timeout"
        case httpStatus = "HTTP status"
        case redirectLoop = "too many redirects"
        case connectionLost = "connection closed without a response"
        case badResponse = "the reply is not HTTP"
        case restrictedPort = "restricted port"
        case redirectToFile = "redirect to a local file"
        case redirectOutOfHTTP = "redirect out of http(s)"
        case other = "load failed"
    }

    /// Classifies a load error by its `NSURLErrorDomain` code (the engine maps its network errors there).
    public static func cause(of error: any Error) -> Cause {
        let error = error as NSError
        // WebKitErrorCannotUseRestrictedPort: WebKit refuses the Fetch standard's bad ports (1, 25, 6000, …).
        if error.domain == "WebKitErrorDomain" && error.code == 103 { return .restrictedPort }
        guard error.domain == NSURLErrorDomain else { return .other }
        switch error.code {
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .dns
        case NSURLErrorCannotConnectToHost:
            return .connectionRefused
        case NSURLErrorTimedOut:
            return .timeout
        case NSURLErrorHTTPTooManyRedirects, NSURLErrorRedirectToNonExistentLocation:
            return .redirectLoop
        case NSURLErrorNetworkConnectionLost, NSURLErrorZeroByteResource:
            return .connectionLost
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorCannotDecodeRawData:
            return .badResponse
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired:
            return .tls
        default:
            return .other
        }
    }

    /// Whether the error means the page could not be fetched at all (as opposed to a page that broke).
    public static func isUnreachable(_ error: any Error) -> Bool {
        cause(of: error) != .other
    }

    /// Whether a failed load that never got an HTTP response means the page was not fetched: any network error
    /// but a cancellation (a closed connection, a reply that is not HTTP, a crashed network process, a redirect
    /// loop), as opposed to WebKit's own refusals (its policy errors), which keep their category.
    public static func isUnreachableBeforeAResponse(_ error: any Error) -> Bool {
        let error = error as NSError
        return isUnreachable(error) || (error.domain == NSURLErrorDomain && error.code != NSURLErrorCancelled)
    }

    /// The URL's host, with its port when the URL names one: what a failure shows instead of the page.
    public static func host(of url: URL) -> String {
        let host = url.host ?? url.absoluteString
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Whether a URL is one a page fetched over the network is fetched by: http or https.
    static func isHTTP(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased())
    }

    /// The schemes WebKit answers, on an http(s) page's redirect, by ending the web content process instead of
    /// failing the load; a redirect to any other scheme fails the load.
    static let schemesEndingTheWebProcess: Set<String> = ["file"]

    /// Why an http(s) page's load ended when the redirect `url` answered leads out of http(s): the web process
    /// ended (a `file:` URL), or a failure WebKit words as a restricted port (`data:`, `about:`); nil for a redirect
    /// within http(s). Only the host that answered, the status and the scheme are named: the rest of the Location
    /// is the server's.
    static func describeRedirect(status: Int, to location: URL, answeredBy url: URL) -> String? {
        guard let scheme = location.scheme?.lowercased(), !isHTTP(location),
            let page = url.scheme?.lowercased(), isHTTP(url)
        else { return nil }
        let article = scheme.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let answered = "\(host(of: url)) answered HTTP \(status) with a redirect to \(article) \(scheme): URL"
        if schemesEndingTheWebProcess.contains(scheme) {
            return
                "\(Cause.redirectToFile.rawValue): \(answered), which a page loaded over \(page) may not open; WebKit ended the web content process. Remedy: redirect to an http(s) address, or load the file with --page"
        }
        return
            "\(Cause.redirectOutOfHTTP.rawValue): \(answered), which WebKit does not follow from a page loaded over \(page) (its error says \"restricted network port\"). Remedy: redirect to an http(s) address"
    }

    /// The cause, the error's own text and its domain and code.
    public static func describe(_ error: any Error) -> String {
        let error = error as NSError
        return "\(cause(of: error).rawValue): \(error.localizedDescription) (\(error.domain) \(error.code))"
    }
}

extension SessionReport {
    /// A session that never started: its page file could not be read when its turn came (`reason` says why).
    public static func pageNotRead(_ reason: String) -> SessionReport {
        SessionReport(
            load: .fail(BridgeFailure(.pageLoadDidNotFinish, reason)), pageToNative: .notRun("the page did not load"),
            nativeToPage: .notRun("the page did not load"), timeline: [], extraMessages: [])
    }
}
