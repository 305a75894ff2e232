#if os(Linux)
// The engine's environment (`WebKitGTKEnvironment`, `EngineEnvironmentError`) lives below WebKitGTK, which imports it
// internally so Apple's names stay Apple's; importing WebKitGTKSupport brings it.
@_exported import WebKitGTKHost
#endif
