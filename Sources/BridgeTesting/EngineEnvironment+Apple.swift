#if !os(Linux)
/// Readies the engine before the first session; Apple's WebKit needs nothing.
public enum EngineEnvironment {
    /// Does nothing: the system WebKit is always there.
    @MainActor
    public static func prepare() throws {}
}
#endif
