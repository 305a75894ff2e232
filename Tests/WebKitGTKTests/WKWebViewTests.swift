#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK

@MainActor
final class WKWebViewTests: XCTestCase {
    func testMessagePostedAtParseTimeArrivesBeforeDidFinish() async {
        let session = Session()
        let received = expectation(description: "the parse-time message reached the handler")
        session.collector.received = received
        await session.load("<script>window.webkit.messageHandlers.bridge.postMessage({kind: 'ready', version: 1})</script>", in: self)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.recorder.events.filter { $0 != "commit" && $0 != "start" }, ["message", "finish"])
        let body = session.collector.bodies.first as? [String: Any]
        XCTAssertEqual(body?["kind"] as? String, "ready")
        XCTAssertEqual((body?["version"] as? NSNumber)?.doubleValue, 1)
        XCTAssertEqual(session.collector.names, ["bridge"])
        XCTAssertEqual(session.collector.mainFrame, [true])
        session.tearDown()
    }
}
#endif
