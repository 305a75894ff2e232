#if os(Linux)
import CWebKitGTK
import EngineTestSupport
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Records navigation actions and answers them with a policy chosen per URL.
@MainActor
final class ActionRecorder: NSObject, WKNavigationDelegate {
    var actions: [WKNavigationAction] = []
    var cancelled: Set<String> = []
    var finished: XCTestExpectation?
    var decided: XCTestExpectation?
    var decidedURL: String?

    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        actions.append(navigationAction)
        let url = navigationAction.request.url?.absoluteString ?? ""
        decisionHandler(cancelled.contains(url) ? .cancel : .allow)
        if url == decidedURL { decided?.fulfill() }
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { finished?.fulfill() }
}

@MainActor
final class WKWebViewMembersTests: XCTestCase {
    func testURLTitleAndIsLoadingFollowTheLoad() async throws {
        let session = Session()
        XCTAssertNil(session.webView.url)
        let finished = expectation(description: "didFinish")
        session.recorder.finished = finished
        session.webView.loadHTMLString(
            "<title>Bridge page</title><p>x</p>", baseURL: URL(string: "https://app.example/a"))
        XCTAssertTrue(session.webView.isLoading, "a load was just started")
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertFalse(session.webView.isLoading)
        // The title comes in its own message from the web process, which may trail didFinish: a round trip
        // through the same process orders it before the check.
        let pageTitle = try await session.webView.evaluateJavaScript("document.title") as? String
        XCTAssertEqual(pageTitle, "Bridge page")
        XCTAssertEqual(session.webView.title, "Bridge page")
        XCTAssertEqual(session.webView.url?.absoluteString, "https://app.example/a")
    }

    func testReloadLoadsThePageAgainAsAReloadNavigation() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/": .page(status: 200, html: "<script>window.webkit.messageHandlers.bridge.postMessage('loaded')</script>")
        ])
        defer { server.stop() }
        let session = Session()
        let actions = ActionRecorder()
        session.webView.navigationDelegate = actions
        session.collector.expectedCount = 2
        let twice = expectation(description: "the page posted on its load and again on the reload")
        session.collector.received = twice
        let first = expectation(description: "the first load finished")
        actions.finished = first
        session.webView.load(URLRequest(url: server.baseURL))
        await fulfillment(of: [first], timeout: 10)
        XCTAssertNotNil(session.webView.reload())
        await fulfillment(of: [twice], timeout: 10)
        XCTAssertEqual(actions.actions.last?.navigationType, .reload)
        XCTAssertEqual(actions.actions.last?.targetFrame?.isMainFrame, true)
    }

    func testLoadFileURLLoadsABundledPageWithItsSubresources() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wkfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "<script src=\"app.js\"></script>".write(
            to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "window.webkit.messageHandlers.bridge.postMessage('from app.js')".write(
            to: directory.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
        let session = Session()
        let received = expectation(description: "the page's own script file posted")
        session.collector.received = received
        session.webView.loadFileURL(directory.appendingPathComponent("index.html"), allowingReadAccessTo: directory)
        await fulfillment(of: [received], timeout: 10)
        XCTAssertEqual(session.collector.bodies.first as? String, "from app.js")
        XCTAssertEqual(session.webView.url?.isFileURL, true)
    }

    func testIsInspectableTurnsTheEngineDeveloperExtrasOnAndOff() async {
        let session = Session()
        XCTAssertFalse(session.webView.isInspectable)
        session.webView.isInspectable = true
        XCTAssertTrue(session.webView.isInspectable)
        session.webView.isInspectable = false
        XCTAssertFalse(session.webView.isInspectable)
    }

    func testNavigationActionCarriesRequestTypeAndCanBeCancelled() async throws {
        let session = Session()
        let actions = ActionRecorder()
        session.webView.navigationDelegate = actions
        actions.cancelled = ["https://app.example/next"]
        actions.decidedURL = "https://app.example/next"
        let decided = expectation(description: "the link's navigation action was offered")
        actions.decided = decided
        let finished = expectation(description: "the page finished")
        actions.finished = finished
        session.webView.loadHTMLString(
            "<a id=l href=\"/next\">next</a><script>setTimeout(() => document.getElementById('l').click(), 0)</script>",
            baseURL: URL(string: "https://app.example/"))
        await fulfillment(of: [finished, decided], timeout: 10)
        let link = try XCTUnwrap(actions.actions.last)
        XCTAssertEqual(link.navigationType, .linkActivated)
        XCTAssertEqual(link.request.url?.absoluteString, "https://app.example/next")
        XCTAssertEqual(link.sourceFrame.securityOrigin.host, "app.example")
        XCTAssertEqual(link.targetFrame?.isMainFrame, true)
        XCTAssertEqual(actions.actions.first?.navigationType, .other, "loadHTMLString is not a link")
        let current = try await session.webView.evaluateJavaScript("location.href") as? String
        XCTAssertEqual(current, "https://app.example/", "a cancelled navigation does not happen")
    }

    func testOpeningWindowsAutomaticallyReachesTheEngineSettingsOfThatViewOnly() async throws {
        // Without createWebViewWith (not bridged) no window opens either way; the engine's own setting is what differs.
        var seen: [Bool] = []
        for allowed in [true, false] {
            let configuration = WKWebViewConfiguration()
            configuration.preferences.javaScriptCanOpenWindowsAutomatically = allowed
            let webView = WKWebView(frame: .zero, configuration: configuration)
            let settings = try XCTUnwrap(webView.view.flatMap { webkit_web_view_get_settings($0) })
            seen.append(webkit_settings_get_javascript_can_open_windows_automatically(settings) != 0)
        }
        XCTAssertEqual(seen, [true, false], "views share a web process but each keeps its own settings")
    }

    func testConfigurationCopySharesControllerAndStoreButNotPreferences() async {
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = .nonPersistent()
        let copy = configuration.copy() as! WKWebViewConfiguration
        XCTAssertTrue(copy.userContentController === configuration.userContentController)
        XCTAssertTrue(copy.websiteDataStore === configuration.websiteDataStore)
        XCTAssertFalse(copy.preferences === configuration.preferences)
        XCTAssertFalse(copy.websiteDataStore.isPersistent)
        XCTAssertTrue(WKWebsiteDataStore.default() === WKWebsiteDataStore.default())
        XCTAssertFalse(WKWebsiteDataStore.nonPersistent() === WKWebsiteDataStore.nonPersistent())
    }

    func testNonPersistentStoresIsolateCookiesAndLocalStorage() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/write": .page(
                status: 200,
                html: """
                    <script>document.cookie = 'token=1; path=/'; localStorage.setItem('token', '1');
                    window.webkit.messageHandlers.bridge.postMessage('written')</script>
                    """),
            "/read": .page(
                status: 200,
                html: """
                    <script>window.webkit.messageHandlers.bridge.postMessage(
                      { cookie: document.cookie, stored: String(localStorage.getItem('token')) })</script>
                    """),
        ])
        defer { server.stop() }
        let first = WKWebsiteDataStore.nonPersistent()
        func visit(_ path: String, in store: WKWebsiteDataStore) async -> Any? {
            let session = Session(store: store)
            defer { session.tearDown() }
            let received = expectation(description: "\(path) posted")
            session.collector.received = received
            session.webView.load(URLRequest(url: server.url(path)))
            await fulfillment(of: [received], timeout: 10)
            return session.collector.bodies.first
        }
        _ = await visit("/write", in: first)
        let sameRead = await visit("/read", in: first)
        let sameStore = try XCTUnwrap(sameRead as? [String: Any])
        XCTAssertEqual(sameStore["cookie"] as? String, "token=1", "a view of the same store sees its cookie")
        XCTAssertEqual(sameStore["stored"] as? String, "1")
        let otherRead = await visit("/read", in: .nonPersistent())
        let otherStore = try XCTUnwrap(otherRead as? [String: Any])
        XCTAssertEqual(otherStore["cookie"] as? String, "", "another non-persistent store must not see the cookie")
        XCTAssertEqual(otherStore["stored"] as? String, "null", "nor the local storage")
    }
}
#endif
