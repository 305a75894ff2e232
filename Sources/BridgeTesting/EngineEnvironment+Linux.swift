#if os(Linux)
import WebKitGTK

/// Readies the engine before the first session: on Linux, a display (Xvfb when none) and GTK.
public enum EngineEnvironment {
    /// Throws an error naming the package to install when WebKitGTK or Xvfb cannot start.
    @MainActor
    public static func prepare() throws {
        try WebKitGTKEnvironment.prepare()
    }
}
#endif
