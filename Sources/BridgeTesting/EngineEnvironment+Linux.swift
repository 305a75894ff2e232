#if os(Linux)
import WebKitGTKSupport

/// Readies the engine before the first session, runs an executable's main loop, and lets go of a session's web
/// view: on Linux, WebKitGTKSupport's `EngineEnvironment` (a display, Xvfb when none, GTK, GLib's loop, the
/// engine's processes). On Apple platforms the same actions are no-ops or run the main RunLoop.
public typealias EngineEnvironment = WebKitGTKSupport.EngineEnvironment
#endif
