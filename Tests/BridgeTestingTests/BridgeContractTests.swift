import BridgeContract
import BridgeTesting
import XCTest

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The bridge contract, both directions, on the real WebKit engine: the page's ready reaches native code
/// with the right fields, and the page accepts the native sync message.
///
/// The same file runs in the package (`swift test`, WebKitGTK on Linux, WKWebView on macOS) and in the iOS
/// simulator (`Examples/Client`, `xcodebuild test -only-testing:ClientTests/BridgeContractTests`).
final class BridgeContractTests: XCTestCase {
    /// Seconds each direction may take: ample for a cold simulator, a fraction of it on Linux.
    static let timeout: TimeInterval = 10

    func testPageAndNativeCodeKeepTheBridgeContract() throws {
        let html = try String(contentsOf: FixtureBundle.url, encoding: .utf8)
        // XCTest runs test methods on the main thread, where WebKit's API lives.
        let run = MainActor.assumeIsolated { Self.verifyBridge(html: html) }
        for failure in run.failures { XCTFail(failure) }
        XCTAssertEqual(run.readyCount, 1, "exactly one ready reaches native code")
        XCTAssertEqual(run.acceptedCount, 1, "the page accepts the sync exactly once")
    }

    /// What one run of the bridge saw; each failure starts with its category.
    struct Run: Sendable {
        var failures: [String] = []
        var readyCount = 0
        var acceptedCount = 0

        mutating func fail(_ category: FailureCategory, _ detail: String) {
            failures.append("\(category.rawValue): \(detail)")
        }
    }

    /// Runs both directions on `html` and returns what happened, failures named by category.
    @MainActor
    static func verifyBridge(html: String, value: String = "ok", timeout: TimeInterval = timeout) -> Run {
        // The callbacks below record into one box; the caller gets a copy.
        @MainActor final class Box { var run = Run() }
        let box = Box()
        let loaded = XCTestExpectation(description: FailureCategory.pageLoadDidNotFinish.rawValue)
        let ready = XCTestExpectation(description: FailureCategory.nativeDidNotReceive.rawValue)
        let answered = XCTestExpectation(description: FailureCategory.pageDidNotAccept.rawValue)

        // A new controller with the handler registered, then the configuration, then the web view.
        let session = BridgeSession()
        defer { session.tearDown() }

        session.onScriptMessage = { message in
            // The contract's own validation: the production code and this test share the field definitions
            // (a Dictionary, a String kind, a Number version equal to 1; a JS boolean is never a number).
            switch BridgeContract.default.validate(message.body, direction: .pageToNative, mode: .strict) {
            case .invalid(let violations):
                // Any unknown or invalid message fails, named by its structure, never its values.
                box.run.fail(
                    .nativeDidNotReceive,
                    "\(messageStructure(message.body)): " + violations.map(\.description).joined(separator: "; "))
            case .valid(let validated) where validated.kind != "ready":
                box.run.fail(.nativeDidNotReceive, "unexpected message \(validated)")
            case .valid:
                box.run.readyCount += 1
                if box.run.readyCount == 1 {
                    ready.fulfill()
                } else {
                    box.run.fail(.nativeDidNotReceive, "duplicate ready (\(box.run.readyCount) in one session)")
                }
            }
        }
        session.onEvent = { event in
            switch event {
            case .didFinish: loaded.fulfill()
            case .loadFailed(let error): box.run.fail(.pageLoadDidNotFinish, LoadError.describe(error))
            default: break
            }
        }
        session.loadHTMLString(html, baseURL: nil)

        // Send only after didFinish: not when loadHTMLString returns, and not on the ready.
        guard XCTWaiter().wait(for: [loaded], timeout: timeout) == .completed else {
            if session.loadResult == nil { box.run.fail(.pageLoadDidNotFinish, "no didFinish within \(timeout) s") }
            return box.run
        }

        let call: ReceiverCall
        do {
            // JSONSerialization plus U+2028/U+2029 escaping: the value never becomes script text.
            call = try ReceiverCall(message: ["kind": "sync", "value": value])
        } catch {
            box.run.fail(.pageDidNotAccept, "the native message could not be built: \(error)")
            return box.run
        }
        session.webView?.evaluateJavaScript(call.script) { _, error in
            if let error {
                box.run.fail(.pageDidNotAccept, javaScriptErrorText(error))
                answered.fulfill()
                return
            }
            session.webView?.evaluateJavaScript(BridgeCheck.observationPoint) { received, error in
                if received as? String == value {
                    box.run.acceptedCount += 1
                } else {
                    let found = error.map(javaScriptErrorText) ?? messageStructure(received)
                    box.run.fail(.pageDidNotAccept, "\(BridgeCheck.observationPoint) is \(found), not the sent value")
                }
                answered.fulfill()
            }
        }

        let results = [ready, answered].map { XCTWaiter().wait(for: [$0], timeout: timeout) }
        if results[0] != .completed && box.run.readyCount == 0 {
            let seen = session.rejections.map(\.description).joined(separator: " | ")
            box.run.fail(
                .nativeDidNotReceive, seen.isEmpty ? "nothing arrived within \(timeout) s" : "what arrived: \(seen)")
        }
        if results[1] != .completed {
            box.run.fail(.pageDidNotAccept, "evaluateJavaScript did not complete within \(timeout) s")
        }
        return box.run
    }
}
