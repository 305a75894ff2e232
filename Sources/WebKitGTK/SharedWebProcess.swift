#if os(Linux)
import CWebKitGTK
import Foundation
internal import WebKitGTKHost

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
    /// The views related to the current anchor.
    private var generation: Generation?

    /// The views that share one anchor's process, and the processes to end once the last of them is released.
    @MainActor
    final class Generation {
        fileprivate(set) var liveViews = 0
        fileprivate var condemned: [ViewRef] = []
        /// The web processes its anchor started (one, as WebKitGTK runs related views).
        fileprivate(set) var processes: [pid_t] = []
    }

    /// The shared anchor's web processes.
    private var anchorProcesses: [pid_t] = []

    /// Each non-persistent store's own anchor: views of one store share its process, never another store's.
    private var storeAnchors:
        [UnsafeMutablePointer<WebKitWebContext>: (
            view: ViewRef, manager: ManagerRef, signal: gulong, processes: [pid_t]
        )] = [:]

    /// The default store's context if a view made it.
    var existingContext: UnsafeMutablePointer<WebKitWebContext>? { context }

    /// The default store's context, created on first use.
    var sharedContext: UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let created = EngineDataFolder.makeContext()
        context = created
        return created
    }

    /// Creates a web view for `manager`: in the shared web process, or in `isolated` (a non-persistent data
    /// store's own context, whose views share a process of their own) when given; the caller owns the reference.
    func makeView(manager: ManagerRef, context isolated: UnsafeMutablePointer<WebKitWebContext>? = nil)
        -> (view: ViewRef, generation: Generation?)
    {
        EngineProcesses.stopAtExit()
        // The engine installs its SIGUSR1 handler as it initializes, so the guard goes in once a view exists.
        defer { EngineSignals.guardSIGUSR1() }
        if let isolated { return (cwk_web_view_new(storeAnchor(isolated), manager, isolated)!, nil) }
        if anchor == nil { makeAnchor() }
        let current = generation ?? Generation()
        if generation == nil { current.processes = anchorProcesses }
        generation = current
        current.liveViews += 1
        return (cwk_web_view_new(anchor, manager, sharedContext)!, current)
    }

    /// The web processes that run `view`'s pages: those its anchor started (in `generation`, or its store's);
    /// empty when none was seen starting.
    func processes(of view: ViewRef, in generation: Generation?) -> [pid_t] {
        if let generation { return generation.processes }
        guard let context = webkit_web_view_get_context(view) else { return [] }
        return storeAnchors[context]?.processes ?? []
    }

    /// Whether anchors record the web processes they start: off until a perturbed session may pause one
    /// (``WKWebView/recordWebProcessStarts()``), so no other check pays for the two reads of /proc.
    var recordsStarts = false

    /// A new anchor view in `context`, loaded at once (which starts its web process right there), and the web
    /// processes that load started when ``recordsStarts`` is on.
    private func startAnchor(manager: ManagerRef, context: UnsafeMutablePointer<WebKitWebContext>) -> (
        view: ViewRef, processes: [pid_t]
    ) {
        let before = recordsStarts ? Set(EngineProcesses.webProcesses()) : nil
        let view = cwk_web_view_new(nil, manager, context)!
        webkit_web_view_load_html(view, "", "about:blank")
        guard let before else { return (view, []) }
        return (view, EngineProcesses.webProcesses().filter { !before.contains($0) })
    }

    /// Ends `view`'s process: at once when no other live view shares it, else when the last of them is released
    /// (ending it now would take concurrent sessions down with it). No new view shares it either way.
    func terminate(_ view: ViewRef, in shared: Generation) {
        if shared === generation { anchorTerminated() }
        if shared.liveViews <= 1 {
            webkit_web_view_terminate_web_process(view)
        } else {
            g_object_ref(UnsafeMutableRawPointer(view))
            shared.condemned.append(view)
        }
    }

    /// Ends the process of a view of a non-persistent store: its store's next view starts a new one.
    func terminate(storeView view: ViewRef) {
        if let context = webkit_web_view_get_context(view), storeAnchors[context] != nil { dropAnchor(of: context) }
        webkit_web_view_terminate_web_process(view)
    }

    /// Counts a released view; the last one out ends the processes condemned meanwhile.
    func released(from shared: Generation) {
        shared.liveViews -= 1
        guard shared.liveViews == 0 else { return }
        let condemned = shared.condemned
        shared.condemned = []
        for view in condemned {
            webkit_web_view_terminate_web_process(view)
            gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
            g_object_unref(UnsafeMutableRawPointer(view))
        }
    }

    /// The anchor of a non-persistent store's context, started on first use.
    private func storeAnchor(_ context: UnsafeMutablePointer<WebKitWebContext>) -> ViewRef {
        if let existing = storeAnchors[context] { return existing.view }
        let manager = webkit_user_content_manager_new()!
        let (view, processes) = startAnchor(manager: manager, context: context)
        let signal = cwk_connect_terminated(
            view,
            { _, _, data in
                guard let data else { return }
                let context = data.assumingMemoryBound(to: WebKitWebContext.self)
                MainActor.assumeIsolated { SharedWebProcess.shared.dropAnchor(of: context) }
            }, UnsafeMutableRawPointer(context), nil)
        storeAnchors[context] = (view, manager, signal, processes)
        MainContextDriver.shared.scheduleService()
        return view
    }

    /// Releases a store's anchor (its store is gone, or its process ended): the store's next view starts a new one.
    func dropAnchor(of context: UnsafeMutablePointer<WebKitWebContext>) {
        guard let (view, manager, signal, _) = storeAnchors.removeValue(forKey: context) else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(view), signal)
        // The store is gone or its process is condemned: nothing else may use the process, so it ends now.
        webkit_web_view_terminate_web_process(view)
        // Release after any signal being emitted returns: the emitter still holds the view.
        DispatchQueue.main.async {
            gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
            g_object_unref(UnsafeMutableRawPointer(view))
            g_object_unref(UnsafeMutableRawPointer(manager))
        }
    }

    private func makeAnchor() {
        let manager = webkit_user_content_manager_new()!
        // Start the process now, so the first session does not pay for it alone.
        let (view, processes) = startAnchor(manager: manager, context: sharedContext)
        anchorProcesses = processes
        anchorManager = manager
        anchor = view
        anchorSignal = cwk_connect_terminated(
            view,
            { _, _, _ in
                MainActor.assumeIsolated { SharedWebProcess.shared.anchorTerminated() }
            }, nil, nil)
        MainContextDriver.shared.scheduleService()
    }

    private func anchorTerminated() {
        guard let view = anchor else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(view), anchorSignal)
        anchor = nil
        generation = nil
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
