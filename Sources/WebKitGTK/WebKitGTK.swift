#if os(Linux)
// Placeholder until the engine lands.
public enum WebKitGTKModule {}
#endif
