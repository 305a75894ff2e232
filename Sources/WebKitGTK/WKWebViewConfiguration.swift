#if os(Linux)
import Foundation

/// The settings a web view is created with; the web view keeps its own copy.
@MainActor
open class WKWebViewConfiguration {
    /// The controller whose handlers the page can message; copies share it, as on Apple's platforms.
    open var userContentController = WKUserContentController()

    public init() {}

    /// A copy that shares the same user content controller.
    func copy() -> WKWebViewConfiguration {
        let copy = WKWebViewConfiguration()
        copy.userContentController = userContentController
        return copy
    }
}
#endif
