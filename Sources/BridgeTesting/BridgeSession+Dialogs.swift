import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

// Dialogs and frames: how a session answers the page's alert/confirm/prompt and tells frames apart.
extension BridgeSession {
    /// Answers dialogs the way a WKWebView without a UI delegate does, and the contract's prompt channel.
    func attachDialogs(to webView: WKWebView) {
        webView.uiDelegate = self
    }

    /// A frame's security origin as the contract's frame rule compares it.
    static func origin(of frame: WKFrameInfo) -> String {
        let origin = frame.securityOrigin
        // A file: page's frames share its origin, which has no host: named apart from an opaque one.
        if origin.protocol == "file" && origin.host.isEmpty { return FrameRule.fileOrigin }
        guard !origin.protocol.isEmpty, !origin.host.isEmpty else { return "" }
        return FrameRule.origin(scheme: origin.protocol, host: origin.host, port: origin.port)
    }

    /// A frame's origin as the frame rule judges it: the page's own origin for a frame of the check's proxy.
    func frameOrigin(_ frame: WKFrameInfo) -> String {
        let origin = Self.origin(of: frame)
        guard let proxied, origin == proxied.proxyOrigin else { return origin }
        return FrameRule.origin(scheme: "http", host: proxied.page.host ?? "", port: proxied.page.port)
    }

    func opened(_ dialog: DialogKind) {
        dialogs.append(dialog)
        if dialogs.count <= 3 { record(.dialog, dialog.rawValue) }
        emitDialog(dialog)
    }
}

// Nonisolated for both SDK shapes, like the navigation delegate's methods.
extension BridgeSession: WKUIDelegate {
    nonisolated public func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {
        MainActor.assumeIsolated {
            opened(.alert)
            completionHandler()
        }
    }

    nonisolated public func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        MainActor.assumeIsolated {
            opened(.confirm)
            completionHandler(false)
        }
    }

    nonisolated public func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        MainActor.assumeIsolated {
            // The prompt channel is the contract's; any other prompt is a dialog nobody answers.
            if contract.usesPromptChannel {
                completionHandler(self.prompt(prompt))
            } else {
                opened(.prompt)
                completionHandler(nil)
            }
        }
    }
}
