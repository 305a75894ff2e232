#if os(Linux)
import CWebKitGTK
import Foundation

/// When a user script runs in a document, as in Apple's WebKit.
public enum WKUserScriptInjectionTime: Int, Sendable {
    /// After the document element is created, before any of the page's own scripts.
    case atDocumentStart = 0
    /// After the document has finished parsing, before its subresources have loaded.
    case atDocumentEnd = 1
}

/// A script the web view injects into every page it loads; added with `WKUserContentController.addUserScript(_:)`.
@MainActor
open class WKUserScript {
    public let source: String
    public let injectionTime: WKUserScriptInjectionTime
    public let isForMainFrameOnly: Bool
    /// The engine's script, created once and shared by every controller it is added to.
    let script: OpaquePointer

    /// A script for the page's own world.
    public convenience init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) {
        self.init(source: source, injectionTime: injectionTime, forMainFrameOnly: forMainFrameOnly, in: .page)
    }

    /// A script for a content world: `.page` shares the page's globals, any other world is isolated from them.
    public init(
        source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool,
        in contentWorld: WKContentWorld
    ) {
        self.source = source
        self.injectionTime = injectionTime
        isForMainFrameOnly = forMainFrameOnly
        let frames = forMainFrameOnly ? WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES
        let time =
            injectionTime == .atDocumentStart
            ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        script =
            contentWorld.name.map { webkit_user_script_new_for_world(source, frames, time, $0, nil, nil) }
            ?? webkit_user_script_new(source, frames, time, nil, nil)
    }

    isolated deinit {
        webkit_user_script_unref(script)
    }
}
#endif
