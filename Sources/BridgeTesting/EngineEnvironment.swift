/// Readies the engine before the first session, runs an executable's main loop, and lets go of a session's web
/// view: the same actions on every platform, declared once here. On Linux they forward to WebKitGTKSupport's
/// `WebKitGTKEnvironment` (a display, Xvfb when none, GTK, GLib's loop, the engine's processes); on Apple platforms
/// they are no-ops or run the main RunLoop.
public enum EngineEnvironment {}
