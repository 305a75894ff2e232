#if !os(Linux)
/// Apple's WebKit starts its web processes through launchd, out of this process's reach: no starvation there.
enum WebProcessStarvation {
    static let isAvailable = false

    static func hold() -> Bool { false }

    static func release() {}
}
#endif
