#if !os(Linux)
#if canImport(WebKit)
import WebKit
#endif

/// Apple's WebKit starts its web processes through launchd, out of this process's reach: no starvation there.
@MainActor
enum WebProcessStarvation {
    nonisolated static let isAvailable = false

    static func prepare() {}

    static func hold(_ webView: WKWebView?) -> [Int32]? { nil }

    static func release(_ held: [Int32]) {}

    static func kill(_ webView: WKWebView?) -> Bool { false }
}
#endif
