#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// The behaviours where WebKitGTK 2.50 and Apple's WebKit are known to differ, measured here (Docs/ENGINE.md).
@MainActor
final class EngineDifferencesTests: XCTestCase {
    func testUncloneableBodyIsDroppedWithoutASynchronousDataCloneError() async throws {
        // Older Apple WebKit threw DataCloneError from postMessage; WebKitGTK 2.50 returns and drops the message.
        let session = Session()
        await session.load("<p>x</p>", in: self)
        let received = expectation(description: "the marker posted after the uncloneable body")
        session.collector.received = received
        let thrown = try await session.webView.evaluateJavaScript(
            """
            (() => {
              let outcome = 'returned';
              try { window.webkit.messageHandlers.bridge.postMessage({ f: () => 1 }) } catch (e) { outcome = e.name }
              window.webkit.messageHandlers.bridge.postMessage('marker');
              return outcome;
            })()
            """)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(thrown as? String, "returned", "no synchronous exception here")
        XCTAssertEqual(session.collector.bodies.map { $0 as? String }, ["marker"], "the uncloneable body never arrives")
    }

    func testRestrictedPortFailsProvisionallyWithApplesError() async throws {
        // WebKitGTK 2.50 alone commits about:blank and finishes without an error; the binding fails it as Apple does.
        let session = Session()
        let failed = expectation(description: "the load of a restricted port failed provisionally")
        session.recorder.failedProvisionally = failed
        session.webView.load(URLRequest(url: URL(string: "http://127.0.0.1:6000/")!))
        await fulfillment(of: [failed], timeout: 10)
        let error = try XCTUnwrap(session.recorder.provisionalError as NSError?)
        XCTAssertEqual(error.domain, "WebKitErrorDomain")
        XCTAssertEqual(error.code, 103, "Apple's WebKitErrorCannotUseRestrictedPort")
        XCTAssertEqual(session.recorder.events, ["failProvisional"], "nothing is loaded")
    }

    func testLoadHTMLStringWithHTTPSBaseURLHasNoNavigationResponse() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        let finished = expectation(description: "didFinish of the https-based string")
        session.recorder.finished = finished
        session.webView.loadHTMLString("<p>y</p>", baseURL: URL(string: "https://app.example/"))
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertNil(session.recorder.response, "WebKitGTK asks no response policy for a string: no status at all")
        XCTAssertEqual(session.recorder.events, ["start", "commit", "finish", "start", "commit", "finish"])
    }

    func testCyclicBodyArrivesWithTheBackReferenceAsNull() async throws {
        let session = Session()
        let received = expectation(description: "the cyclic body")
        session.collector.received = received
        await session.load(
            "<script>const o = { name: 'o' }; o.self = o; window.webkit.messageHandlers.bridge.postMessage(o)</script>",
            in: self)
        await fulfillment(of: [received], timeout: 5)
        let body = try XCTUnwrap(session.collector.bodies.first as? [String: Any])
        XCTAssertEqual(body["name"] as? String, "o")
        XCTAssertTrue(body["self"] is NSNull)
    }
}
#endif
