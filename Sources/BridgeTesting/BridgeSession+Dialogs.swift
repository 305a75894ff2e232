import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

// Temporary until the engine's WKUIDelegate lands.
extension BridgeSession {
    func attachDialogs(to webView: WKWebView) {}
    static func origin(of frame: WKFrameInfo) -> String { "" }
}
