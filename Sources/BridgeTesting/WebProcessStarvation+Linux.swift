#if os(Linux)
import WebKitGTKSupport

/// Pausing the engine's web process, where this process can (Linux: it starts the web processes itself).
enum WebProcessStarvation {
    static let isAvailable = true

    /// Pauses every web process of this check; false when there was none to pause.
    static func hold() -> Bool { PausedProcesses.hold() > 0 }

    static func release() { PausedProcesses.release() }
}
#endif
