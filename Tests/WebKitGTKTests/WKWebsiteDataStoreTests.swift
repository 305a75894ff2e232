#if os(Linux)
import EngineTestSupport
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Non-persistent stores: views of one store share its cookies and storage, other stores see none, and
/// `removeData` empties a store for its next view (what a suite's lane does between pages).
@MainActor
final class WKWebsiteDataStoreTests: XCTestCase {
    var server: LoopbackHTTPServer!

    override func setUp() async throws {
        try WebKitGTKEnvironment.prepare()
        server = try LoopbackHTTPServer(routes: ["/page.html": .page(status: 200, html: "<!doctype html><p>page")])
    }

    override func tearDown() async throws {
        server.stop()
    }

    /// Loads the page in a new view of `store` and returns what the page sees: its cookie, then its storage count.
    func seen(in store: WKWebsiteDataStore, setting: Bool = false) async throws -> String {
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = store
        let view = WKWebView(frame: .zero, configuration: configuration)
        let recorder = NavigationRecorder()
        let finished = expectation(description: "the page finished loading")
        recorder.finished = finished
        view.navigationDelegate = recorder
        view.load(URLRequest(url: server.url("/page.html")))
        await fulfillment(of: [finished], timeout: 10)
        let set = setting ? "document.cookie = 'lane=1; path=/'; localStorage.setItem('lane', '1');" : ""
        let result = try await view.evaluateJavaScript("\(set) document.cookie + '|' + localStorage.length")
        view.navigationDelegate = nil
        return try XCTUnwrap(result as? String)
    }

    func testRemoveDataEmptiesAStoreThatItsViewsShare() async throws {
        let store = WKWebsiteDataStore.nonPersistent()
        let setter = try await seen(in: store, setting: true)
        XCTAssertEqual(setter, "lane=1|1", "the page could not store anything")
        let sameStore = try await seen(in: store)
        XCTAssertEqual(sameStore, "lane=1|1", "views of one store share its data")
        let otherStore = try await seen(in: .nonPersistent())
        XCTAssertEqual(otherStore, "|0", "another store saw this one's data")
        await store.removeData(ofTypes: WKWebsiteDataStore.allWebsiteDataTypes(), modifiedSince: .distantPast)
        let afterRemoval = try await seen(in: store)
        XCTAssertEqual(afterRemoval, "|0", "removeData left the cookie or the storage")
    }

    func testRemoveDataOnAStoreNoViewUsedYetCompletesAndTheStoreStillWorks() async throws {
        // What a suite's lane does before its first page. A store keeping its data in a folder of its own (with the
        // web process extension) crashed the engine here when its data manager was cleared before any view.
        let store = WKWebsiteDataStore.nonPersistent()
        await store.removeData(ofTypes: WKWebsiteDataStore.allWebsiteDataTypes(), modifiedSince: .distantPast)
        let setter = try await seen(in: store, setting: true)
        XCTAssertEqual(setter, "lane=1|1", "the page could not store anything")
        await store.removeData(ofTypes: WKWebsiteDataStore.allWebsiteDataTypes(), modifiedSince: .distantPast)
        let afterRemoval = try await seen(in: store)
        XCTAssertEqual(afterRemoval, "|0", "removeData left the cookie or the storage")
    }
}
#endif
