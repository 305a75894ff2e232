import BridgeContract
import EngineTestSupport
import XCTest

@testable import BridgeTesting

/// The receiver watch on the real engine: the receiver the page assigns is noted on the timeline before native's
/// call is accepted, and the watch changes no verdict, however the page declares its receiver.
@MainActor
final class ReceiverWatchTests: XCTestCase {
    func page(_ declaration: String) -> String {
        """
        <!doctype html><html><body><script>
        \(declaration)
        window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
        </script></body></html>
        """
    }

    func check(_ declaration: String, watched: Bool = true) async -> SessionReport {
        var configuration = CheckConfiguration(page: .html(page(declaration), baseURL: nil))
        configuration.watchesReceivers = watched
        return await BridgeCheck.run(configuration)
    }

    let receive = "function (message) { document.body.dataset.received = message.value; }"

    func testAnAssignedReceiverIsNotedBeforeNativesCallIsAccepted() async {
        let report = await check("window.bridgeReceive = \(receive);")
        XCTAssertTrue(report.passed, report.text())
        let events = report.timeline.map(\.event)
        let defined = events.firstIndex(of: .receiverDefined)
        XCTAssertNotNil(defined, report.text())
        XCTAssertLessThan(defined ?? .max, events.firstIndex(of: .accepted) ?? -1, report.text())
        XCTAssertEqual(report.timeline.first { $0.event == .receiverDefined }?.note, "window.bridgeReceive")
        // Unwatched (one session, a stressed one), the timeline is as before.
        let unwatched = await check("window.bridgeReceive = \(receive);", watched: false)
        XCTAssertTrue(unwatched.passed, unwatched.text())
        XCTAssertFalse(unwatched.timeline.contains { $0.event == .receiverDefined }, unwatched.text())
    }

    func testEveryWayOfDeclaringTheReceiverStillPassesWhenWatched() async {
        for declaration in [
            "function bridgeReceive(message) { document.body.dataset.received = message.value; }",
            "var bridgeReceive = \(receive);",
            "let bridgeReceive = \(receive); window.bridgeReceive = bridgeReceive;",
            "Object.defineProperty(window, 'bridgeReceive', { value: \(receive), configurable: true });",
        ] {
            let report = await check(declaration)
            XCTAssertTrue(report.passed, "\(declaration)\n\(report.text())")
        }
    }

    func testOnlyTopLevelNamesAreWatched() async {
        XCTAssertEqual(ReceiverWatch.names(.default), ["bridgeReceive"])
        XCTAssertTrue(ReceiverWatch.isIdentifier("$receive_2"))
        XCTAssertFalse(ReceiverWatch.isIdentifier("2receive"))
        XCTAssertFalse(ReceiverWatch.isIdentifier("app.receive"))
        XCTAssertNil(ReceiverWatch.receiver(report: ["problem": "receiver", "name": "a.b"]))
        XCTAssertEqual(ReceiverWatch.receiver(report: ["problem": "receiver", "name": "go"]), "window.go")
    }

    /// react-native-webview's contract: native dispatches a message event, so the page defines no receiver.
    func testADispatchContractWatchesNoReceiverAndStillPasses() async throws {
        let url = WorkedContractTests.folder.appendingPathComponent("react-native-webview/contract.json")
        var contract = try BridgeContract.load(contentsOf: url)
        contract.check = try contract.check?.resolvingScripts(relativeTo: url.deletingLastPathComponent())
        // Watching window.dispatchEvent would shadow the method native dispatches with.
        XCTAssertEqual(ReceiverWatch.names(contract), [])
        var calling = contract
        calling.messages[2].call = "window.onUser"
        XCTAssertEqual(ReceiverWatch.names(calling), ["onUser"])
        let server = try LoopbackHTTPServer(folder: WorkedContractTests.folder)
        defer { server.stop() }
        var configuration = CheckConfiguration(
            page: .url(server.url("/react-native-webview/pass.html")), contract: contract)
        configuration.watchesReceivers = true
        let report = await BridgeCheck.run(configuration)
        XCTAssertTrue(report.passed, report.text())
        XCTAssertFalse(report.timeline.contains { $0.event == .receiverDefined }, report.text())
    }
}
