#if os(Linux)
import Foundation

/// The pages every real-page test serves: one path per outcome the check must tell apart.
public enum RealPageSite {
    /// The fixture page, unchanged: the check passes.
    public static let fixture = "/"
    /// 404, with a body that keeps the bridge (the status alone must fail the check).
    public static let notFound = "/missing"
    /// 500, with a body that keeps the bridge.
    public static let serverError = "/error"
    /// A 302 to ``redirectTarget``, which answers 404.
    public static let redirectToNotFound = "/moved"
    public static let redirectTarget = "/gone"
    /// The fixture posting `version: "1"`: it loads, but breaks the contract.
    public static let contractBroken = "/broken"
    /// A request the server reads and never answers.
    public static let stalled = "/stalled"
    /// The fixture plus an image that never arrives: the document answers 200, the load never finishes.
    public static let stalledSubresource = "/stalled-image-page"
    public static let stalledImage = "/stalled.png"
    /// The fixture plus an image that answers 404: only the main document's status counts, so this passes.
    public static let missingSubresource = "/missing-image-page"
    public static let missingImage = "/missing.png"

    /// Text in every error page's body; a failure message that shows it has leaked page content.
    public static let contentSentinel = "PAGE-CONTENT-SENTINEL"

    /// The routes, built from the fixture's text (each test target reads its own copy of the fixture).
    public static func routes(fixture html: String) -> [String: LoopbackHTTPServer.Route] {
        let errorPage = html.replacingOccurrences(of: "<body>", with: "<body>\n<!-- \(contentSentinel) -->")
        let ready = "version: 1"
        precondition(html.contains(ready) && html.contains("</body>"), "the fixture changed: update RealPageSite")
        return [
            fixture: .page(status: 200, html: html),
            notFound: .page(status: 404, html: errorPage),
            serverError: .page(status: 500, html: errorPage),
            redirectToNotFound: .redirect(to: redirectTarget),
            redirectTarget: .page(status: 404, html: errorPage),
            contractBroken: .page(status: 200, html: html.replacingOccurrences(of: ready, with: #"version: "1""#)),
            stalled: .stall,
            stalledSubresource: .page(
                status: 200,
                html: html.replacingOccurrences(of: "</body>", with: "<img src=\"\(stalledImage)\" alt=\"\">\n</body>")),
            stalledImage: .stall,
            missingSubresource: .page(
                status: 200,
                html: html.replacingOccurrences(of: "</body>", with: "<img src=\"\(missingImage)\" alt=\"\">\n</body>")),
        ]
    }
}
#endif
