/// Which way a message travels across the bridge.
public enum Direction: String, Codable, Sendable, CaseIterable {
    /// `window.webkit.messageHandlers.<handler>.postMessage(m)`.
    case pageToNative = "page-to-native"
    /// `evaluateJavaScript("<receiver>(<json>)")`.
    case nativeToPage = "native-to-page"

    /// The side that sends messages of this direction.
    var sender: String { self == .pageToNative ? "the page" : "the native code" }
}
