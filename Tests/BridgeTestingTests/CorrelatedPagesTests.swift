#if os(Linux)
import BridgeContract
import EngineTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

@testable import BridgeTesting

/// The seed's rule, that an answer to an earlier request never satisfies the current one, on the real engine with
/// bridges whose ids sit below the top level or inside JSON text: each bridge's published JavaScript, its
/// contract.json, and native's exact call played by the test (native steps with several arguments and event
/// dispatch are not in the contract language yet). The session validates and correlates every message; a stale,
/// wrong or double answer fails in the judge's one wording.
@MainActor
final class CorrelatedPagesTests: XCTestCase {
    let timeout = CheckConfiguration.defaultTimeout
    let folder = BridgeShapesTests.folder

    func contract(_ bridge: String) throws -> BridgeContract {
        try BridgeContract.load(
            contentsOf: folder.appendingPathComponent(bridge).appendingPathComponent("contract.json"))
    }

    /// A session with the bridge's contract and script, its page loaded over loopback HTTP; `play` acts as native.
    /// Returns the session's acknowledgements once `done` holds (or the deadline passed), and its refusals.
    func run(
        _ bridge: String, _ page: String, script: UserScriptSpec, until done: @escaping (BridgeSession) -> Bool,
        play: (BridgeSession, URL) async throws -> Void
    ) async throws -> (acknowledgements: [Acknowledgement], rejections: [BridgeRejection], contract: BridgeContract) {
        let contract = try contract(bridge)
        let session = BridgeSession(contract: contract, userScripts: [script])
        defer { session.tearDown() }
        let server = try LoopbackHTTPServer(folder: folder)
        defer { server.stop() }
        session.load(URLRequest(url: server.url("/\(bridge)/\(page).html")))
        try await play(session, server.url("/\(bridge)/two.html"))
        let finished = await session.wait(timeout: timeout) { done(session) }
        XCTAssertTrue(finished, "\(bridge)/\(page): the messages the test waits for did not arrive within \(timeout) s")
        return (session.acknowledgements, session.rejections, contract)
    }

    /// The judge's words for each answer that settled nothing.
    func stray(_ result: (acknowledgements: [Acknowledgement], rejections: [BridgeRejection], contract: BridgeContract))
        -> [String]
    {
        result.acknowledgements.filter { $0.correlation != .matched }.map {
            SessionJudge.strayAcknowledgement($0, result.contract)
        }
    }

    // MARK: Turbo iOS: visitCompleted repeats visitStarted's data.identifier

    func turbo(_ page: String, completions: Int) async throws -> [String] {
        let script = UserScriptSpec(
            source: try BridgeShapesTests.vendored("turbo-ios/turbo.js"), injectionTime: .documentEnd)
        let result = try await run(
            "turbo-ios", page, script: script,
            until: { session in
                session.messages.filter { $0.kind == "visitCompleted" }.count >= completions
                    && session.messages.contains { $0.kind == "visitRendered" }
            },
            play: { session, destination in
                // Native's visit, as turbo-ios's JavaScriptExpression writes it, once the cold boot said pageLoaded.
                let loaded = await session.wait(timeout: timeout) { session.first("pageLoaded") != nil }
                XCTAssertTrue(loaded, "turbo-ios/\(page): no pageLoaded within \(timeout) s")
                let restoration = session.first("pageLoaded")?.fields["data"]?.jsonValue["restorationIdentifier"]
                let arguments = BridgeShapesTests.json([
                    destination.absoluteString, ["action": "advance"], restoration?.foundationValue ?? "",
                ])
                let call = BridgeShapesTests.wrapped(
                    "window.turboNative.visitLocationWithOptionsAndRestorationIdentifier", arguments)
                _ = await session.evaluate(call, timeout: timeout)
            })
        XCTAssertEqual(result.rejections, [], "turbo-ios/\(page): the contract refused what the adapter posted")
        return stray(result)
    }

    func testTurboVisitMessagesRepeatTheVisitIdentifier() async throws {
        let passed = try await turbo("pass", completions: 1)
        XCTAssertEqual(passed, [])
    }

    func testTurboCompletionOfAnotherVisitFails() async throws {
        let failed = try await turbo("wrong-visit-id", completions: 2)
        XCTAssertEqual(
            failed,
            [
                "visitCompleted answers no request native sent (unknown id): its data.identifier must be the id of the request it acknowledges"
            ])
    }

    func testTurboSecondCompletionOfOneVisitFails() async throws {
        let failed = try await turbo("double-callback", completions: 2)
        XCTAssertEqual(
            failed,
            [
                "visitCompleted answers no request native sent (duplicate id): its data.identifier must be the id of the request it acknowledges"
            ])
    }

    // MARK: react-native-webview: pong repeats the id of native's ping, inside JSON text

    func reactNative(_ page: String, pongs: Int) async throws -> [String] {
        let script = UserScriptSpec(
            source: try BridgeShapesTests.vendored("react-native-webview/post-message.js"),
            injectionTime: .documentStart)
        let result = try await run(
            "react-native-webview", page, script: script,
            until: { session in session.messages.filter { $0.kind == "pong" }.count >= pongs },
            play: { session, _ in
                let ready = await session.wait(timeout: timeout) { session.first("getUser") != nil }
                XCTAssertTrue(ready, "react-native-webview/\(page): no getUser within \(timeout) s")
                // Native's ping with a fresh request id, dispatched as RNCWebViewImpl's -postMessage: does.
                let id = session.correlator.begin()
                let text = BridgeShapesTests.json(["type": "ping", "id": id.rawValue])
                let data = BridgeShapesTests.json(["data": text])
                _ = await session.evaluate(
                    "window.dispatchEvent(new MessageEvent('message', \(data)));", timeout: timeout)
            })
        XCTAssertEqual(result.rejections, [], "react-native-webview/\(page): the contract refused what the page posted")
        return stray(result)
    }

    func testReactNativePongRepeatsThePingsID() async throws {
        let passed = try await reactNative("pass", pongs: 1)
        XCTAssertEqual(passed, [])
    }

    func testReactNativePongWithAnotherIDFails() async throws {
        let failed = try await reactNative("wrong-callback-id", pongs: 1)
        XCTAssertEqual(
            failed,
            ["pong answers no request native sent (unknown id): its id must be the id of the request it acknowledges"])
    }

    func testReactNativeSecondPongFails() async throws {
        let failed = try await reactNative("double-callback", pongs: 2)
        XCTAssertEqual(
            failed,
            ["pong answers no request native sent (duplicate id): its id must be the id of the request it acknowledges"]
        )
    }

    // MARK: Cordova iOS: the callback id at body[0]

    /// The request ids the session read at body[0] of what cordova.js posted; `count` commands awaited.
    func cordova(_ page: String, commands: Int) async throws -> [String] {
        let contract = try contract("cordova")
        let session = BridgeSession(contract: contract)
        defer { session.tearDown() }
        let server = try LoopbackHTTPServer(folder: folder)
        defer { server.stop() }
        session.load(URLRequest(url: server.url("/cordova/\(page).html")))
        let arrived = await session.wait(timeout: timeout) {
            session.messages.filter { $0.kind == "exec" }.count >= commands
        }
        XCTAssertTrue(arrived, "cordova/\(page): \(commands) commands did not arrive within \(timeout) s")
        XCTAssertEqual(session.rejections, [], "cordova/\(page): the contract refused what cordova.js posted")
        return session.messages.filter { $0.kind == "exec" }.compactMap(\.requestID)
    }

    /// The id is read where Cordova puts it, so native's answer can carry it (its five-argument nativeCallback
    /// is a native step the contract language does not have yet: the stale and double callbacks fail through it).
    func testCordovaCallbackIDIsReadAtBodyIndexZero() async throws {
        let passed = try await cordova("pass", commands: 1)
        XCTAssertEqual(passed.count, 1)
        XCTAssertTrue(passed.allSatisfy { $0.hasPrefix("Device") && $0 != "Device0" }, "\(passed.count) ids")
        let stale = try await cordova("stale-callback-id", commands: 1)
        XCTAssertEqual(stale, ["Device0"])
        let doubled = try await cordova("double-callback", commands: 2)
        XCTAssertEqual(doubled.count, 2)
        XCTAssertEqual(Set(doubled).count, 1, "the double callback's two commands carry one id")
    }
}
#endif
