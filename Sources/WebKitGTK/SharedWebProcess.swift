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

    /// Each non-persistent store's own anchor: views of one store share its process, never another store's.
    private var storeAnchors:
        [UnsafeMutablePointer<WebKitWebContext>: (view: ViewRef, manager: ManagerRef, signal: gulong)] =
            [:]

    /// The default store's context, created on first use.
    var sharedContext: UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let created = webkit_web_context_new_ephemeral()!
        context = created
        return created
    }

    /// Creates a web view for `manager`: in the shared web process, or in `isolated` (a non-persistent data
    /// store's own context, whose views share a process of their own) when given; the caller owns the reference.
    func makeView(manager: ManagerRef, context isolated: UnsafeMutablePointer<WebKitWebContext>? = nil) -> ViewRef {
        EngineProcesses.stopAtExit()
        if let isolated { return cwk_web_view_new(storeAnchor(isolated), manager, isolated)! }
        if anchor == nil { makeAnchor() }
        return cwk_web_view_new(anchor, manager, sharedContext)!
    }

    /// Stops sharing the anchor's process when `view`'s process is about to be terminated: the next view gets a new one.
    func retire(sharingWith view: ViewRef) {
        if let context = webkit_web_view_get_context(view), storeAnchors[context] != nil {
            dropAnchor(of: context)
            return
        }
        guard anchor != nil else { return }
        anchorTerminated()
    }

    /// The anchor of a non-persistent store's context, started on first use.
    private func storeAnchor(_ context: UnsafeMutablePointer<WebKitWebContext>) -> ViewRef {
        if let existing = storeAnchors[context] { return existing.view }
        let manager = webkit_user_content_manager_new()!
        let view = cwk_web_view_new(nil, manager, context)!
        let signal = cwk_connect_terminated(
            view,
            { _, _, data in
                guard let data else { return }
                let context = data.assumingMemoryBound(to: WebKitWebContext.self)
                MainActor.assumeIsolated { SharedWebProcess.shared.dropAnchor(of: context) }
            }, UnsafeMutableRawPointer(context), nil)
        storeAnchors[context] = (view, manager, signal)
        webkit_web_view_load_html(view, "", "about:blank")
        MainContextDriver.shared.scheduleService()
        return view
    }

    /// Releases a store's anchor (its store is gone, or its process ended): the store's next view starts a new one.
    func dropAnchor(of context: UnsafeMutablePointer<WebKitWebContext>) {
        guard let (view, manager, signal) = storeAnchors.removeValue(forKey: context) else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(view), signal)
        // Release after any signal being emitted returns: the emitter still holds the view.
        DispatchQueue.main.async {
            gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
            g_object_unref(UnsafeMutableRawPointer(view))
            g_object_unref(UnsafeMutableRawPointer(manager))
        }
    }

    private func makeAnchor() {
        let manager = webkit_user_content_manager_new()!
        let view = cwk_web_view_new(nil, manager, sharedContext)!
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
