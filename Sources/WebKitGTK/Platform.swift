#if os(Linux)
import CWebKitGTK

/// Engine object pointers as Swift imports them.
typealias ViewRef = UnsafeMutablePointer<WebKitWebView>
typealias ManagerRef = UnsafeMutablePointer<WebKitUserContentManager>
typealias JSValueRef = UnsafeMutablePointer<JSCValue>
typealias ReplyRef = OpaquePointer
#endif
