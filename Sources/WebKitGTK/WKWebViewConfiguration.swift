#if os(Linux)
import CWebKitGTK
import Foundation
internal import WebKitGTKHost

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
/// to the user's disk; `nonPersistent()` is a new store, isolated from every other, gone with the process. Both
/// live in memory, or, with WebBridge's web process extension, each in a private folder of its own that the
/// process removes (``EngineDataFolder``).
@MainActor
public final class WKWebsiteDataStore: NSObject {
    private static let shared = WKWebsiteDataStore(persistent: true)

    /// The store views get unless told otherwise.
    public static func `default`() -> WKWebsiteDataStore { shared }

    /// A new store that shares no cookies or storage with any other store, and is gone with the process.
    public static func nonPersistent() -> WKWebsiteDataStore { WKWebsiteDataStore(persistent: false) }

    /// Whether this is the shared store rather than an isolated in-memory one.
    public let isPersistent: Bool

    private var engineContext: UnsafeMutablePointer<WebKitWebContext>?

    private init(persistent: Bool) { isPersistent = persistent }

    isolated deinit {
        guard let engineContext else { return }
        SharedWebProcess.shared.dropAnchor(of: engineContext)
        g_object_unref(UnsafeMutableRawPointer(engineContext))
    }

    /// Every kind of data a store keeps (Apple's names); `removeData` with these clears the store.
    public static func allWebsiteDataTypes() -> Set<String> { Set(engineTypes.keys) }

    /// Apple's data type names and the engine's flags for them.
    private static let engineTypes: [String: WebKitWebsiteDataTypes] = [
        "WKWebsiteDataTypeCookies": WEBKIT_WEBSITE_DATA_COOKIES,
        "WKWebsiteDataTypeLocalStorage": WEBKIT_WEBSITE_DATA_LOCAL_STORAGE,
        "WKWebsiteDataTypeSessionStorage": WEBKIT_WEBSITE_DATA_SESSION_STORAGE,
        "WKWebsiteDataTypeIndexedDBDatabases": WEBKIT_WEBSITE_DATA_INDEXEDDB_DATABASES,
        "WKWebsiteDataTypeWebSQLDatabases": WEBKIT_WEBSITE_DATA_WEBSQL_DATABASES,
        "WKWebsiteDataTypeMemoryCache": WEBKIT_WEBSITE_DATA_MEMORY_CACHE,
        "WKWebsiteDataTypeDiskCache": WEBKIT_WEBSITE_DATA_DISK_CACHE,
        "WKWebsiteDataTypeOfflineWebApplicationCache": WEBKIT_WEBSITE_DATA_OFFLINE_APPLICATION_CACHE,
        "WKWebsiteDataTypeFetchCache": WEBKIT_WEBSITE_DATA_DOM_CACHE,
        "WKWebsiteDataTypeServiceWorkerRegistrations": WEBKIT_WEBSITE_DATA_SERVICE_WORKER_REGISTRATIONS,
        "WKWebsiteDataTypeHashSalt": WEBKIT_WEBSITE_DATA_DEVICE_ID_HASH_SALT,
    ]

    /// Removes the data of `dataTypes` changed since `date` (`.distantPast`: all of it), then calls `completionHandler`.
    public func removeData(
        ofTypes dataTypes: Set<String>, modifiedSince date: Date,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {
        var types: UInt32 = 0
        for name in dataTypes { types |= Self.engineTypes[name]?.rawValue ?? 0 }
        // The engine takes a span back from now, 0 meaning all time.
        let span =
            date <= Date(timeIntervalSince1970: 0) ? 0 : max(0, GTimeSpan(-date.timeIntervalSinceNow * 1_000_000))
        // A store whose context was never made holds no data: nothing to clear (and WebKitGTK 2.50 crashes clearing
        // a data manager that keeps its data in a folder before a view of its context exists).
        guard let existing = isPersistent ? SharedWebProcess.shared.existingContext : engineContext else {
            DispatchQueue.main.async { MainActor.assumeIsolated { completionHandler() } }
            return
        }
        let manager = webkit_web_context_get_website_data_manager(existing)!
        let box = Unmanaged.passRetained(DataRemoval(completionHandler)).toOpaque()
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let removal = Unmanaged<DataRemoval>.fromOpaque(data).takeRetainedValue()
            webkit_website_data_manager_clear_finish(
                OpaquePointer(source).map { UnsafeMutablePointer($0) }, result, nil)
            MainActor.assumeIsolated { removal.completion() }
        }
        webkit_website_data_manager_clear(manager, WebKitWebsiteDataTypes(types), span, nil, callback, box)
        MainContextDriver.shared.scheduleService()
    }

    /// Removes the data of `dataTypes` changed since `date` (`.distantPast`: all of it).
    public func removeData(ofTypes dataTypes: Set<String>, modifiedSince date: Date) async {
        await withCheckedContinuation { continuation in
            removeData(ofTypes: dataTypes, modifiedSince: date) { continuation.resume() }
        }
    }

    /// The engine context that holds this store's data: its own ephemeral context for a non-persistent store.
    var context: UnsafeMutablePointer<WebKitWebContext> {
        if let engineContext { return engineContext }
        let created = EngineDataFolder.makeContext()
        engineContext = created
        return created
    }
}

/// A pending `removeData` completion, boxed for the engine's callback.
private final class DataRemoval {
    let completion: @MainActor @Sendable () -> Void
    init(_ completion: @escaping @MainActor @Sendable () -> Void) { self.completion = completion }
}
#endif
