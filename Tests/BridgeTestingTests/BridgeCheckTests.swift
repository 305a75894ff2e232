import BridgeContract
import BridgeTestData
import BridgeTesting
import XCTest

/// The check's native → page half on the real engine: hostile text arrives intact, and a mismatch is named.
@MainActor
final class BridgeCheckTests: XCTestCase {
    let timeout: TimeInterval = 10

    func loadedFixtureSession() async throws -> BridgeSession {
        let session = BridgeSession()
        session.loadHTMLString(try FixtureVariant.fixture())
        let finished = await session.wait(timeout: timeout) { session.loadResult != nil }
        XCTAssertTrue(finished, "page load did not finish within \(timeout) s")
        return session
    }

    func testEveryHostileStringReachesThePageUnchanged() async throws {
        let session = try await loadedFixtureSession()
        defer { session.tearDown() }
        XCTAssertGreaterThanOrEqual(HostileStrings.corpus.count, 30)
        for (index, text) in HostileStrings.corpus.enumerated() {
            let call = try ReceiverCall(message: ["kind": "sync", "value": text])
            let failure = await session.deliver(call, expecting: text, timeout: timeout)
            XCTAssertNil(failure, "corpus string \(index) (\(text.utf16.count) UTF-16 units)")
        }
    }

    func testTextPastedIntoTheScriptByConcatenationIsCaught() async throws {
        // The broken encoder this package refuses to be: quotes pasted around raw text.
        let session = try await loadedFixtureSession()
        defer { session.tearDown() }
        let text = "line\u{2028}break \"quoted\" \\ end"
        let naive = try ReceiverCall(receiver: "window.bridgeReceive", json: ["kind": "sync", "value": "placeholder"])
        let pasted = naive.script.replacingOccurrences(of: "placeholder", with: text)
        XCTAssertNotEqual(pasted, try ReceiverCall(message: ["kind": "sync", "value": text]).script)
        let failure = await session.deliver(script: pasted, expecting: text, timeout: timeout)
        XCTAssertEqual(
            failure?.category, .pageDidNotAccept, "a pasted script should break: \(String(describing: failure))")
    }

    func testAMismatchIsReportedWithoutTheValue() async throws {
        let session = try await loadedFixtureSession()
        defer { session.tearDown() }
        let call = try ReceiverCall(message: ["kind": "sync", "value": "SECRET-sent"])
        let delivered = await session.deliver(call, expecting: "SECRET-other", timeout: timeout)
        let failure = try XCTUnwrap(delivered, "a different text on the page must fail")
        XCTAssertEqual(failure.category, .pageDidNotAccept)
        XCTAssertTrue(failure.detail.contains("differs from the sent text"), failure.detail)
        XCTAssertFalse(failure.description.contains("SECRET"), failure.description)
    }

    func testAThrowingReceiverIsReportedWithThePageError() async throws {
        let report = await BridgeCheck.run(
            CheckConfiguration(page: .html(try FixtureVariant.throwingReceiver(), baseURL: nil), timeout: timeout))
        XCTAssertTrue(report.pageToNative.passed)
        XCTAssertEqual(report.nativeToPage.failure?.category, .pageDidNotAccept)
        XCTAssertTrue(
            report.nativeToPage.failure?.detail.contains("Receiver refused") == true, "\(report.nativeToPage)")
    }

    func testTheFixtureRejectsANumberAsTheSyncValueWithItsOwnError() async throws {
        // The fixture throws "Invalid native message" on a value that is not a string.
        let session = try await loadedFixtureSession()
        defer { session.tearDown() }
        let call = try ReceiverCall(receiver: "window.bridgeReceive", json: ["kind": "sync", "value": 42])
        let failure = await session.deliver(call, expecting: nil, timeout: timeout)
        XCTAssertEqual(failure?.category, .pageDidNotAccept)
        XCTAssertTrue(failure?.detail.contains("Invalid native message") == true, "\(String(describing: failure))")
    }
}
