#if os(Linux)
import CWebKitGTK
import Foundation

/// The settings a web view is created with; the web view keeps its own copy.
@MainActor
open class WKWebViewConfiguration: NSObject, NSCopying {
    /// The controller whose handlers the page can message; copies share it, as on Apple's platforms.
    open var userContentController = WKUserContentController()
    /// Web content preferences; copies get their own.
    open var preferences = WKPreferences()
    /// Where cookies and storage live; copies share it, as on Apple's platforms.
    open var websiteDataStore = WKWebsiteDataStore.default()

    public override init() {}

    /// A copy (`copy()`) that shares the user content controller and the data store and has its own preferences.
    public nonisolated func copy(with zone: NSZone? = nil) -> Any {
        MainActor.assumeIsolated { copyConfiguration() }
    }

    func copyConfiguration() -> WKWebViewConfiguration {
        let copy = WKWebViewConfiguration()
        copy.userContentController = userContentController
        copy.preferences = preferences.copyPreferences()
        copy.websiteDataStore = websiteDataStore
        return copy
    }
}

/// Web content preferences applied to a web view when it is created.
@MainActor
open class WKPreferences: NSObject, NSCopying {
    /// Whether `window.open` may open a window without a user gesture (WebKitGTK's
    /// `javascript-can-open-windows-automatically`); false by default, as on iOS.
    open var javaScriptCanOpenWindowsAutomatically = false

    public override init() {}

    /// A copy (`copy()`) with the same values.
    public nonisolated func copy(with zone: NSZone? = nil) -> Any {
        MainActor.assumeIsolated { copyPreferences() }
    }

    func copyPreferences() -> WKPreferences {
        let copy = WKPreferences()
        copy.javaScriptCanOpenWindowsAutomatically = javaScriptCanOpenWindowsAutomatically
        return copy
    }
}

/// Where a web view's cookies, storage and caches live.
///
/// `default()` is one store shared by every view that uses it, kept for the process's lifetime and never written
/// to the user's disk; `nonPersistent()` is a new store, isolated from every other, that lives in memory.
@MainActor
public final class WKWebsiteDataStore: NSObject {
    private static let shared = WKWebsiteDataStore(persistent: true)

    /// The store views get unless told otherwise.
    public static func `default`() -> WKWebsiteDataStore { shared }

    /// A new in-memory store that shares no cookies or storage with any other store.
    public static func nonPersistent() -> WKWebsiteDataStore { WKWebsiteDataStore(persistent: false) }

    /// Whether this is the shared store rather than an isolated in-memory one.
    public let isPersistent: Bool

    private var engineContext: UnsafeMutablePointer<WebKitWebContext>?

    private init(persistent: Bool) { isPersistent = persistent }

    isolated deinit {
        if let engineContext { g_object_unref(UnsafeMutableRawPointer(engineContext)) }
    }

    /// The engine context that holds this store's data: its own ephemeral context for a non-persistent store.
    var context: UnsafeMutablePointer<WebKitWebContext> {
        if let engineContext { return engineContext }
        let created = webkit_web_context_new_ephemeral()!
        engineContext = created
        return created
    }
}
#endif
