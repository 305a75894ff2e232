#if !os(Linux)
/// Readies the engine before the first session; Apple's WebKit needs nothing.
public enum EngineEnvironment {
    /// Does nothing: there is no display to start.
    @MainActor
    public static func beginPreparing() {}

    /// Does nothing: the system WebKit is always there.
    @MainActor
    public static func prepare() throws {}
}
#endif
