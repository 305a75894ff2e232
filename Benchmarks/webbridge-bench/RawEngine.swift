#if os(Linux)
import CWebKitGTK
import Foundation

/// The engine alone: WebKitGTK's C API called directly on the main thread, GLib iterated by hand, no validation.
///
/// This is the ceiling WebBridge is compared with. It shares nothing with WebBridge's views: its own
/// ephemeral context and its own anchor view, whose web process its views share (as WebBridge's do).
@MainActor
final class RawEngine {
    typealias View = UnsafeMutablePointer<WebKitWebView>
    typealias Manager = UnsafeMutablePointer<WebKitUserContentManager>

    private var context: UnsafeMutablePointer<WebKitWebContext>
    private var anchor: View
    private var anchorManager: Manager
    private let state = RawState()

    /// Starts the raw web process; the display and GTK must be ready (`EngineEnvironment.prepare()`).
    init() throws {
        context = webkit_web_context_new_ephemeral()!
        anchorManager = webkit_user_content_manager_new()!
        anchor = cwk_web_view_new(nil, anchorManager, context)!
        let page = try RawPage(engine: self, html: "", manager: anchorManager, view: anchor)
        page.close(destroyView: false)
    }

    /// Replaces the context, the anchor view and so the web process (an experiment on the engine's RSS growth).
    func recycle(timeout: Double) throws {
        let old = (context, anchor, anchorManager)
        context = webkit_web_context_new_ephemeral()!
        anchorManager = webkit_user_content_manager_new()!
        anchor = cwk_web_view_new(nil, anchorManager, context)!
        let page = try RawPage(engine: self, html: "", manager: anchorManager, view: anchor, timeout: timeout)
        page.close(destroyView: false)
        gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(old.1)))
        g_object_unref(UnsafeMutableRawPointer(old.1))
        g_object_unref(UnsafeMutableRawPointer(old.2))
        g_object_unref(UnsafeMutableRawPointer(old.0))
    }

    /// Runs GLib's default context on this thread until `condition` holds or `timeout` seconds pass.
    func iterate(timeout: Double, what: String, until condition: () -> Bool) throws {
        if condition() { return }
        state.timedOut = false
        let data = Unmanaged.passUnretained(state).toOpaque()
        // The deadline is a GLib source, so a blocking iteration wakes for it.
        let source = g_timeout_add_full(
            G_PRIORITY_DEFAULT, guint(timeout * 1000),
            { data in
                Unmanaged<RawState>.fromOpaque(data!).takeUnretainedValue().timedOut = true
                return 0
            }, data, nil)
        while !condition() && !state.timedOut { _ = g_main_context_iteration(nil, 1) }
        if !state.timedOut { g_source_remove(source) }
        guard condition() else { throw BenchFailure("raw engine: \(what) did not happen within \(timeout) s") }
    }

    /// A new view with its own content manager and a `bridge` handler, in the raw engine's shared web process.
    func openPage(html: String, timeout: Double) throws -> RawPage {
        let manager = webkit_user_content_manager_new()!
        let view = cwk_web_view_new(anchor, manager, context)!
        Finalization.watch(UnsafeMutableRawPointer(view), UnsafeMutableRawPointer(manager))
        return try RawPage(engine: self, html: html, manager: manager, view: view, timeout: timeout)
    }
}

/// Counts engine objects created and finalized, to tell a teardown leak from memory the engine keeps.
enum Finalization {
    nonisolated(unsafe) static var watched = 0
    nonisolated(unsafe) static var finalized = 0

    /// Counts each object's finalization (GObject weak references; main thread only).
    static func watch(_ objects: UnsafeMutableRawPointer...) {
        for object in objects {
            watched += 1
            g_object_weak_ref(cwk_object(object), { _, _ in Finalization.finalized += 1 }, nil)
        }
    }
}

/// What the C callbacks report; touched on the main thread only.
final class RawState: @unchecked Sendable {
    var timedOut = false
}

/// One raw page: a view, its content manager and the handler's signal, with counters the callbacks update.
@MainActor
final class RawPage {
    let engine: RawEngine
    let manager: RawEngine.Manager
    let view: RawEngine.View
    private let counters = RawCounters()
    private var signals: [(UnsafeMutableRawPointer, gulong)] = []
    private var closed = false

    fileprivate init(
        engine: RawEngine, html: String, manager: RawEngine.Manager, view: RawEngine.View, timeout: Double = 10
    ) throws {
        self.engine = engine
        self.manager = manager
        self.view = view
        let data = Unmanaged.passUnretained(counters).toOpaque()
        signals.append(
            (
                UnsafeMutableRawPointer(manager),
                cwk_connect_script_message(
                    manager, "script-message-received::bridge",
                    { _, result, data in
                        let counters = Unmanaged<RawCounters>.fromOpaque(data!).takeUnretainedValue()
                        counters.messages += 1
                        guard counters.tally != nil, let value = webkit_javascript_result_get_js_value(result) else {
                            return
                        }
                        // The only work on a message: read its id, to count lost and duplicated ones as WebBridge's side does.
                        var id: String?
                        if let property = jsc_value_object_get_property(value, "id") {
                            if let text = jsc_value_to_string(property) { id = String(cString: text); g_free(text) }
                            g_object_unref(UnsafeMutableRawPointer(property))
                        }
                        if counters.readEveryField { RawCounters.readEveryField(value) }
                        counters.tally?.record(id: id, rawID: nil)
                    }, data, nil)
            ))
        _ = webkit_user_content_manager_register_script_message_handler(manager, "bridge")
        signals.append(
            (
                UnsafeMutableRawPointer(view),
                cwk_connect_load_changed(
                    view,
                    { _, event, data in
                        if event == WEBKIT_LOAD_FINISHED {
                            Unmanaged<RawCounters>.fromOpaque(data!).takeUnretainedValue().finished = true
                        }
                    }, data, nil)
            ))
        webkit_web_view_load_html(view, html, "about:blank")
        try engine.iterate(timeout: timeout, what: "load-changed FINISHED") { counters.finished }
    }

    var messages: Int { counters.messages }

    /// Counts the next messages against `ids` (by their `id` property); with `readEveryField`, each message is
    /// also read as any validating receiver must read it (the engine's floor for validation).
    func expectBurst(ids: [String], readEveryField: Bool = false) {
        counters.readEveryField = readEveryField
        counters.messages = 0
        counters.tally = BenchPage.Tally(ids: ids)
    }

    var tally: BenchPage.Tally? { counters.tally }

    /// Starts `script` in the page; its completion only counts (and counts errors).
    func evaluate(_ script: String) {
        // Retained until the completion runs: it may come after the page is closed (a burst's return value).
        let data = Unmanaged.passRetained(counters).toOpaque()
        webkit_web_view_evaluate_javascript(
            view, script, -1, nil, nil, nil,
            { source, result, data in
                let counters = Unmanaged<RawCounters>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let view = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self)
                let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
                if let error { counters.errors += 1; g_error_free(error) }
                if let value {
                    if counters.keepLastString, let text = jsc_value_to_string(value) {
                        counters.lastString = String(cString: text)
                        g_free(text)
                    }
                    g_object_unref(UnsafeMutableRawPointer(value))
                }
                counters.completions += 1
            }, data)
    }

    var completions: Int { counters.completions }
    var errors: Int { counters.errors }

    /// Evaluates `script` and waits for its completion; returns its value as text.
    @discardableResult
    func evaluateAndWait(_ script: String, timeout: Double, keepString: Bool = false) throws -> String? {
        let target = counters.completions + 1
        let errors = counters.errors
        counters.keepLastString = keepString
        counters.lastString = nil
        evaluate(script)
        try engine.iterate(timeout: timeout, what: "evaluate_javascript completion") { counters.completions >= target }
        guard counters.errors == errors else { throw BenchFailure("raw engine: the script failed") }
        return counters.lastString
    }

    /// Unregisters the handler and releases the view and the manager.
    func close(destroyView: Bool = true) {
        guard !closed else { return }
        closed = true
        webkit_user_content_manager_unregister_script_message_handler(manager, "bridge")
        for (instance, id) in signals { g_signal_handler_disconnect(instance, id) }
        signals = []
        if destroyView {
            webkit_web_view_stop_loading(view)
            gtk_widget_destroy(cwk_widget(UnsafeMutableRawPointer(view)))
            g_object_unref(UnsafeMutableRawPointer(view))
            g_object_unref(UnsafeMutableRawPointer(manager))
        }
    }
}

/// Counters the C callbacks update; touched on the main thread only.
final class RawCounters: @unchecked Sendable {
    var finished = false
    var messages = 0
    var completions = 0
    var errors = 0
    var keepLastString = false
    var lastString: String?
    var tally: BenchPage.Tally?
    var readEveryField = false

    /// The least the engine's GObject API lets a validator read of a `ready`: the prototype (a clone's own
    /// `__proto__` key must not lend fields), the own keys, and each of the three values with its type; no
    /// Swift values built, no rules checked.
    static func readEveryField(_ body: UnsafeMutablePointer<JSCValue>) {
        if let prototype = jsc_value_object_get_property(body, "__proto__") {
            g_object_unref(UnsafeMutableRawPointer(prototype))
        }
        if let keys = jsc_value_object_enumerate_properties(body) { g_strfreev(keys) }
        for name in ["kind", "version"] {
            guard let value = jsc_value_object_get_property(body, name) else { continue }
            if jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) {
                g_free(text)
            } else if jsc_value_is_number(value) != 0 {
                _ = jsc_value_to_double(value)
            }
            g_object_unref(UnsafeMutableRawPointer(value))
        }
    }
}
#endif
