import BridgeContract
import BridgeTesting
import XCTest

/// Request ids on the real engine: a late acknowledgement is named and never satisfies the current request.
@MainActor
final class BridgeRequestTests: XCTestCase {
    let timeout: TimeInterval = 10

    /// ready, then native `ping` requests that the page acknowledges with `pong`, both carrying `id`.
    static let contract = BridgeContract(
        version: 1, handler: "bridge", receiver: "window.bridgeReceive",
        messages: [
            MessageSpec(kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))]),
            MessageSpec(kind: "ping", direction: .nativeToPage),
            MessageSpec(kind: "pong", direction: .pageToNative, acknowledges: "ping"),
        ],
        requestID: RequestIDSpec(field: "id"))

    /// Silent on the first ping; on the second it acknowledges the first (late), then the second.
    static let laggingPage = """
        <!doctype html><meta charset="utf-8"><body><script>
        var pending = [];
        window.bridgeReceive = function (message) {
          pending.push(message.id);
          if (pending.length < 2) return;
          pending.forEach(function (id) {
            window.webkit.messageHandlers.bridge.postMessage({kind: "pong", id: id});
          });
          pending = [];
        };
        window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
        </script></body>
        """

    func testLateAcknowledgementIsReportedAsLateAndOnlyTheMatchingOneSettles() async throws {
        let session = BridgeSession(contract: Self.contract)
        defer { session.tearDown() }
        var currentSettledAt: [Correlation] = []
        var current: RequestID?
        let settled = expectation(description: "the current request was acknowledged")
        session.onEvent = { event in
            guard case .acknowledgement(let message, let correlation) = event else { return }
            currentSettledAt.append(correlation)
            if correlation == .matched, message.requestID == current?.rawValue { settled.fulfill() }
        }
        session.loadHTMLString(Self.laggingPage)
        let loaded = await session.wait(timeout: timeout) { session.loadResult != nil && session.first("ready") != nil }
        XCTAssertTrue(loaded, "page load did not finish, or no ready, within \(timeout) s")

        let first = session.correlator.begin()
        let firstSent = await session.deliver(
            try ReceiverCall(contract: Self.contract, message: ["kind": "ping", "id": first.rawValue]),
            expecting: nil, timeout: timeout)
        XCTAssertNil(firstSent, "page did not accept the first ping")
        // A new request supersedes the unanswered one: its acknowledgement, if it comes, is late.
        let second = session.correlator.begin()
        current = second
        XCTAssertNotEqual(first, second)
        let secondSent = await session.deliver(
            try ReceiverCall(contract: Self.contract, message: ["kind": "ping", "id": second.rawValue]),
            expecting: nil, timeout: timeout)
        XCTAssertNil(secondSent, "page did not accept the second ping")

        await fulfillment(of: [settled], timeout: timeout)
        XCTAssertEqual(
            session.acknowledgements.map(\.requestID), [first, second], "the page acknowledges the old id first")
        XCTAssertEqual(session.acknowledgements.map(\.correlation), [.late, .matched])
        XCTAssertEqual(currentSettledAt, [.late, .matched], "the late one came first and did not settle the request")
        XCTAssertNil(session.correlator.current, "the matching acknowledgement settled the current request")
    }

    func testAcknowledgementOfAnIdNeverIssuedIsUnknown() async throws {
        let page = """
            <!doctype html><body><script>
            window.bridgeReceive = function (message) {
              window.webkit.messageHandlers.bridge.postMessage({kind: "pong", id: "1"});
            };
            window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
            </script></body>
            """
        let session = BridgeSession(contract: Self.contract)
        defer { session.tearDown() }
        session.loadHTMLString(page)
        _ = await session.wait(timeout: timeout) { session.loadResult != nil }
        let id = session.correlator.begin()
        XCTAssertNotEqual(id.rawValue, "1", "ids never restart at 1")
        _ = await session.deliver(
            try ReceiverCall(contract: Self.contract, message: ["kind": "ping", "id": id.rawValue]),
            expecting: nil, timeout: timeout)
        let answered = await session.wait(timeout: timeout) { !session.acknowledgements.isEmpty }
        XCTAssertTrue(answered, "native did not receive the page's acknowledgement within \(timeout) s")
        XCTAssertEqual(session.acknowledgements.map(\.correlation), [.unknown])
        XCTAssertEqual(session.correlator.current, id, "an unknown id leaves the current request pending")
    }
}
