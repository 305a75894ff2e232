import Foundation
import XCTest

/// `--play` and `--user-script`: native's side from a file, and the app's injected scripts, for any page.
final class CheckPlayCommandTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-play-\(UUID().uuidString)")
    /// The protocol fixtures of the BridgeTesting tests, read in place.
    static let protocols = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BridgeTestingTests/Fixtures/Protocols")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func replyHandler(_ file: String) -> String {
        Self.protocols.appendingPathComponent("reply-handler/\(file)").path
    }

    func testAUserScriptPlaysTheAppsInjectedCode() throws {
        // The page has no ready of its own: the app injects the script that posts it.
        let page = try write(
            "page.html",
            "<!doctype html><body><script>window.bridgeReceive = (m) => { document.body.dataset.received = m.value };</script>"
        )
        let script = try write(
            "native.js", #"window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});"#)
        let without = try CLI.run(["check", "--page", page])
        XCTAssertEqual(without.status, 1, without.stdout + without.stderr)
        XCTAssertTrue(without.stdout.contains("nothing arrived on 'bridge'"), without.stdout)
        for spec in [script, "end:" + script, "start,all-frames:" + script] {
            let with = try CLI.run(["check", "--page", page, "--user-script", spec])
            XCTAssertEqual(with.status, 0, "\(spec): " + with.stdout + with.stderr)
        }
    }

    func testAPlayFileReplacesTheContractsOwnPlay() throws {
        let contract = replyHandler("contract.json")
        let errorPlay = replyHandler("error-play.json")
        // The page handles both a value reply and an error reply.
        let value = try CLI.run(["check", "--page", replyHandler("pass.html"), "--contract", contract])
        XCTAssertEqual(value.status, 0, value.stdout + value.stderr)
        let error = try CLI.run(
            ["check", "--page", replyHandler("pass.html"), "--contract", contract, "--play", errorPlay])
        XCTAssertEqual(error.status, 0, error.stdout + error.stderr)
        XCTAssertTrue(error.stdout.contains("the page shows the reply to getUser"), error.stdout)
        // This page leaves an error reply unhandled: only the error play shows it.
        let unhandled = try CLI.run(
            [
                "check", "--page", replyHandler("error-unhandled.html"), "--contract", contract, "--play", errorPlay,
            ])
        XCTAssertEqual(unhandled.status, 1, unhandled.stdout + unhandled.stderr)
        XCTAssertTrue(unhandled.stdout.contains("FAIL: page did not accept the native message"), unhandled.stdout)
    }

    func testAPlayThatCannotRunIsAUsageErrorNamingItsPath() throws {
        let contract = replyHandler("contract.json")
        let play = try write("play.json", #"{"steps": [{"after": "getUsr", "reply": {"name": "x", "admin": true}}]}"#)
        let result = try CLI.run(["check", "--page", replyHandler("pass.html"), "--contract", contract, "--play", play])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("check.steps[0].after"), result.stderr)
        XCTAssertTrue(result.stderr.contains("use didFinish or one of: getUser"), result.stderr)
    }

    func testValueBelongsToTheFixtureStyleOnly() throws {
        let contract = replyHandler("contract.json")
        let result = try CLI.run(["check", "--page", replyHandler("pass.html"), "--contract", contract, "--value", "x"])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("--value sets the sync text of the fixture-style check"), result.stderr)
    }
}
