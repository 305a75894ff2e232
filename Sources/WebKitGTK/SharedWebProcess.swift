#if os(Linux)
import CWebKitGTK
import Foundation

/// Keeps one hidden web view alive so new views share its web process (~14 ms instead of ~250 ms).
///
/// New views are created as WebKitGTK "related views" of the anchor, each with its own user content
/// manager, so sessions share a process but never handlers. An ephemeral web context keeps cookies
/// and storage off the user's disk. If the anchor's process dies, the next view gets a new anchor.
@MainActor
final class SharedWebProcess {
    static let shared = SharedWebProcess()

    private var context: UnsafeMutablePointer<WebKitWebContext>?
    private var anchor: ViewRef?
    private var anchorManager: ManagerRef?
    private var anchorSignal: gulong = 0

    /// Creates a web view for `manager`: in the shared web process, or in `isolated` (a non-persistent data
    /// store's own context) when given; the caller owns the returned reference.
    func makeView(manager: ManagerRef, context isolated: UnsafeMutablePointer<WebKitWebContext>? = nil) -> ViewRef {
        EngineProcesses.stopAtExit()
        if let isolated { return cwk_web_view_new(nil, manager, isolated)! }
        if context == nil { context = webkit_web_context_new_ephemeral() }
        if anchor == nil { makeAnchor() }
        return cwk_web_view_new(anchor, manager, context)!
    }

    /// Stops sharing the anchor's process when `view`'s process is about to be terminated: the next view gets a new one.
    func retire(sharingWith view: ViewRef) {
        guard anchor != nil else { return }
        anchorTerminated()
    }

    private func makeAnchor() {
        let manager = webkit_user_content_manager_new()!
        let view = cwk_web_view_new(nil, manager, context)!
        anchorManager = manager
        anchor = view
        anchorSignal = cwk_connect_terminated(
            view,
            { _, _, _ in
                MainActor.assumeIsolated { SharedWebProcess.shared.anchorTerminated() }
            }, nil, nil)
        // Start the process now, so the first session does not pay for it alone.
        webkit_web_view_load_html(view, "", "about:blank")
        MainContextDriver.shared.scheduleService()
    }

    private func anchorTerminated() {
        guard let view = anchor else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(view), anchorSignal)
        anchor = nil
        // Release after the signal returns: the emitter still holds the view.
        DispatchQueue.main.async {
            gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
            g_object_unref(UnsafeMutableRawPointer(view))
        }
        if let manager = anchorManager { g_object_unref(UnsafeMutableRawPointer(manager)) }
        anchorManager = nil
    }
}
#endif
