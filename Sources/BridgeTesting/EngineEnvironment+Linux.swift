#if os(Linux)
import WebKitGTK

/// Readies the engine before the first session: on Linux, a display (Xvfb when none) and GTK.
public enum EngineEnvironment {
    /// Starts what takes time to come up (Xvfb, when no DISPLAY is set) without waiting for it, so the
    /// caller's own set-up overlaps it; `prepare()` waits. Reports nothing: `prepare()` does.
    @MainActor
    public static func beginPreparing() {
        WebKitGTKEnvironment.startDisplay()
    }

    /// Throws an error naming the package to install when WebKitGTK or Xvfb cannot start.
    @MainActor
    public static func prepare() throws {
        try WebKitGTKEnvironment.prepare()
    }
}
#endif
