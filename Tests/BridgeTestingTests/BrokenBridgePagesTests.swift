#if os(Linux)
import EngineTestSupport
import Foundation
import WebKitGTK
import XCTest

/// Each broken page of the five bridges in Fixtures/Protocols shows the fault its README names on the real engine:
/// the raw message carrying it arrives, with native played as BridgeShapesTests plays it. So the contracts written
/// for these pages fail them for the fault the page has, not for one the fixture lacks.
@MainActor
final class BrokenBridgePagesTests: XCTestCase {
    typealias Shapes = BridgeShapesTests
    typealias Native = BridgeShapesTests.Native
    typealias Match = (String, Any) -> Bool

    /// True on the `count`-th message that `matches` (each message is offered once, in order).
    static func nth(_ count: Int, _ matches: @escaping Match) -> Match {
        var seen = 0
        return { name, body in
            guard matches(name, body) else { return false }
            seen += 1
            return seen == count
        }
    }

    /// True on a message whose key (say its callback id) an earlier message had.
    static func repeated(_ key: @escaping (Any) -> String?) -> Match {
        var seen: Set<String> = []
        return { _, body in key(body).map { !seen.insert($0).inserted } ?? false }
    }

    /// The fields of a body that is JSON text.
    static func text(_ body: Any) -> [String: Any]? { Shapes.parsed(body) as? [String: Any] }

    /// Loads `page`, lets `drive` play native, and waits for the message that shows `fault`.
    func expect(
        _ page: String, _ fault: String, handlers: [String], scripts: [WKUserScript] = [],
        drive: (Native) async throws -> Void = { _ in }, where matches: @escaping Match
    ) async throws {
        let native = Native(handlers: handlers, scripts: scripts)
        defer { native.tearDown(handlers) }
        let server = try Shapes.load(page, in: native)
        defer { server.stop() }
        try await drive(native)
        let body = await native.message("\(page): \(fault)", in: self, where: matches)
        XCTAssertNotNil(body, "\(page): no message showed \(fault)")
    }

    // MARK: react-native-webview and webview_flutter

    func checkJSONTextChannel(
        _ folder: String, handler: String, script: () throws -> WKUserScript, nativeCall: @escaping (String) -> String,
        objectBody: @escaping Match
    ) async throws {
        let typed = { (type: String) -> Match in { _, body in Self.text(body)?["type"] as? String == type } }
        let ping = { (native: Native) in
            _ = await native.message("\(folder): ready", in: self, where: typed("ready"))
            _ = try await native.evaluate(nativeCall(Shapes.json(["type": "ping", "id": "n-1"])))
        }
        let pong = { (id: String) -> Match in
            { _, body in
                Self.text(body)?["type"] as? String == "pong" && Self.text(body)?["id"] as? String == id
            }
        }
        let cases: [(page: String, fault: String, pings: Bool, matches: Match)] = [
            (
                "wrong-field-type", "ready's version a String", false,
                { _, body in
                    Self.text(body)?["type"] as? String == "ready"
                        && Shapes.shape(Self.text(body)?["version"]) == "String"
                }
            ),
            (
                "missing-field", "getUser without userId", false,
                { _, body in
                    Self.text(body)?["type"] as? String == "getUser" && Self.text(body)?["userId"] == nil
                }
            ),
            (
                "not-json", "a String that is not JSON text", false,
                { _, body in
                    body as? String == "ready" && Shapes.parsed(body) == nil
                }
            ),
            ("object-on-string", "ready posted as an object", false, objectBody),
            ("unknown-kind", "a request of type getUsr", false, typed("getUsr")),
            ("wrong-callback-id", "a pong with the id n-0 for the ping n-1", true, pong("n-0")),
            ("double-callback", "a second pong for the ping n-1", true, Self.nth(2, pong("n-1"))),
            ("script-twice", "a second ready", false, Self.nth(2, typed("ready"))),
        ]
        for item in cases {
            try await expect(
                "\(folder)/\(item.page).html", item.fault, handlers: [handler], scripts: [try script()],
                drive: { native in if item.pings { try await ping(native) } }, where: item.matches)
        }
    }

    func testReactNativeWebViewBrokenPagesShowTheirFaults() async throws {
        try await checkJSONTextChannel(
            "react-native-webview", handler: "ReactNativeWebView",
            script: {
                WKUserScript(
                    source: try Shapes.vendored("react-native-webview/post-message.js"),
                    injectionTime: .atDocumentStart, forMainFrameOnly: true)
            },
            nativeCall: { "window.dispatchEvent(new MessageEvent('message', \(Shapes.json(["data": $0]))));" },
            // The injected postMessage posts String(data).
            objectBody: { _, body in body as? String == "[object Object]" })
    }

    func testWebViewFlutterBrokenPagesShowTheirFaults() async throws {
        try await checkJSONTextChannel(
            "webview-flutter", handler: "Toaster",
            script: {
                WKUserScript(
                    source: try Shapes.vendored("webview-flutter/channel-wrapper.js"),
                    injectionTime: .atDocumentStart, forMainFrameOnly: false)
            },
            nativeCall: { "window.fromFlutter(\(Shapes.json($0)))" },
            // The wrapper is the handler itself: the object arrives as a dictionary.
            objectBody: { _, body in (body as? [String: Any])?["type"] as? String == "ready" })
    }

    // MARK: Cordova iOS

    func testCordovaBrokenPagesShowTheirFaults() async throws {
        let command = { (test: @escaping ([Any]) -> Bool) -> Match in { _, body in (body as? [Any]).map(test) ?? false }
        }
        let element = { (array: [Any], index: Int) -> Any? in index < array.count ? array[index] : nil }
        let device = { (array: [Any]) in element(array, 1) as? String == "Device" }
        let cases: [(page: String, fault: String, matches: Match)] = [
            (
                "wrong-field-type", "body[3], args, an Object",
                command { device($0) && Shapes.shape(element($0, 3)) == "Object" }
            ),
            // WebKit drops an undefined array element, so the args Array moves up to body[2].
            ("missing-field", "a command of 3 elements", command { device($0) && $0.count == 3 }),
            (
                "text-not-array", "a String body holding the command's JSON",
                { _, body in
                    Shapes.shape(body) == "String" && Shapes.shape(Shapes.parsed(body)) == "Array"
                }
            ),
            (
                "object-not-array", "an Object body",
                { _, body in (body as? [String: Any])?["service"] as? String == "Device" }
            ),
            ("unknown-kind", "the service Devise", command { element($0, 1) as? String == "Devise" }),
            (
                "stale-callback-id", "the unregistered callback id Device0",
                command { element($0, 0) as? String == "Device0" }
            ),
            (
                "double-callback", "a second command with the same callback id",
                Self.repeated { body in (body as? [Any]).flatMap { device($0) ? element($0, 0) as? String : nil } }
            ),
        ]
        for item in cases {
            try await expect("cordova/\(item.page).html", item.fault, handlers: ["cordova"], where: item.matches)
        }
    }

    // MARK: WKWebViewJavascriptBridge

    /// Plays native for one page: injects the bridge, pulls the queue on every flush ping (after the first, sends
    /// `pings` to the page's ping handler), until the pulled messages satisfy `done`.
    func pullQueue(
        _ page: String, _ fault: String, pings: [Int] = [], done: @escaping ([[String: Any]]) -> Bool
    ) async throws {
        let handlers = ["iOS_Native_InjectJavascript", "iOS_Native_FlushMessageQueue"]
        let flush = { (name: String, _: Any) in name == handlers[1] }
        let native = Native(handlers: handlers, scripts: [])
        defer { native.tearDown(handlers) }
        let server = try Shapes.load(page, in: native)
        defer { server.stop() }
        _ = await native.message("\(page): the inject ping", in: self) { name, _ in name == handlers[0] }
        _ = try await native.evaluate(try Shapes.vendored("wkwebview-javascript-bridge/bridge.js"))
        var pulled: [[String: Any]] = []
        for flushes in 1...4 where !done(pulled) {
            guard
                await native.message("\(page): flush ping \(flushes)", in: self, where: Self.nth(flushes, flush)) != nil
            else { break }
            let queue = try await native.evaluate("WKWebViewJavascriptBridge._fetchQueue();")
            pulled += Shapes.parsed(queue) as? [[String: Any]] ?? []
            if flushes == 1 {
                for n in pings {
                    let ping: [String: Any] = [
                        "handlerName": "ping", "data": ["n": n], "callbackID": "native_iOS_cb_\(n)",
                    ]
                    _ = try await native.evaluate(Shapes.dispatch(ping))
                }
            }
        }
        XCTAssertTrue(done(pulled), "\(page): the pulled queue never showed \(fault)")
    }

    func testWKWebViewJavascriptBridgeBrokenPagesShowTheirFaults() async throws {
        let folder = "wkwebview-javascript-bridge/"
        let getUser = { (test: @escaping (Any?) -> Bool) in
            { (pulled: [[String: Any]]) in
                pulled.contains { $0["handlerName"] as? String == "getUser" && test($0["data"]) }
            }
        }
        try await pullQueue(
            folder + "wrong-field-type.html", "data.userId a Number",
            done: getUser { Shapes.fields($0)["userId"] == "Number" })
        try await pullQueue(
            folder + "missing-field.html", "data without userId",
            done: getUser { Shapes.fields($0) == [:] && $0 != nil })
        try await pullQueue(
            folder + "text-for-object.html", "data as a String", done: getUser { Shapes.shape($0) == "String" })
        try await pullQueue(folder + "unknown-kind.html", "the handler getUsr") { pulled in
            pulled.contains { $0["handlerName"] as? String == "getUsr" }
        }
        try await pullQueue(folder + "stale-callback-id.html", "ping 2 answered with ping 1's id", pings: [1, 2]) {
            pulled in
            pulled.contains {
                $0["responseID"] as? String == "native_iOS_cb_1"
                    && Shapes.fields($0["responseData"]) == ["pong": "Number"]
                    && ($0["responseData"] as? [String: Any])?["pong"] as? Int == 2
            }
        }
        try await pullQueue(folder + "double-callback.html", "two answers to ping 1", pings: [1]) { pulled in
            pulled.filter { $0["responseID"] as? String == "native_iOS_cb_1" }.count == 2
        }
        let injects = Self.nth(2) { name, _ in name == "iOS_Native_InjectJavascript" }
        try await expect(
            folder + "script-twice.html", "a second inject ping",
            handlers: ["iOS_Native_InjectJavascript", "iOS_Native_FlushMessageQueue"], where: injects)
    }

    // MARK: Turbo iOS

    func testTurboBrokenPagesShowTheirFaults() async throws {
        let named = { (name: String, test: @escaping ([String: Any]) -> Bool) -> Match in
            { _, body in
                guard let body = body as? [String: Any], body["name"] as? String == name else { return false }
                return test(body["data"] as? [String: Any] ?? [:])
            }
        }
        // Native's visit to two.html, as BridgeShapesTests makes it, once the cold boot reported pageLoaded.
        let visit = { (native: Native, server: URL) in
            let loaded = await native.message("turbo: pageLoaded", in: self, where: named("pageLoaded") { _ in true })
            let restoration = ((loaded as? [String: Any])?["data"] as? [String: Any])?["restorationIdentifier"] ?? ""
            let arguments = Shapes.json([server.absoluteString, ["action": "advance"], restoration])
            _ = try await native.evaluate(
                Shapes.wrapped("window.turboNative.visitLocationWithOptionsAndRestorationIdentifier", arguments))
        }
        let cases: [(page: String, fault: String, visits: Bool, matches: Match)] = [
            (
                "wrong-field-type", "visitProposed with data.location a Number", false,
                named("visitProposed") { Shapes.shape($0["location"]) == "Number" }
            ),
            (
                "missing-field", "visitProposed without data.location", false,
                named("visitProposed") { $0["location"] == nil }
            ),
            ("string-body", "a String body", false, { _, body in body as? String == "pageLoaded" }),
            ("unknown-kind", "a message named visitProposd", false, named("visitProposd") { _ in true }),
            (
                "wrong-visit-id", "visitCompleted for another visit", true,
                named("visitCompleted") { $0["identifier"] as? String == "00000000-0000-0000-0000-000000000000" }
            ),
            (
                "double-callback", "a second visitCompleted for the same visit", true,
                Self.repeated { body in
                    guard let body = body as? [String: Any], body["name"] as? String == "visitCompleted" else {
                        return nil
                    }
                    return (body["data"] as? [String: Any])?["identifier"] as? String
                }
            ),
            ("script-twice", "a second pageLoaded", false, Self.nth(2, named("pageLoaded") { _ in true })),
        ]
        for item in cases {
            let native = Native(
                handlers: ["turbo"],
                scripts: [
                    WKUserScript(
                        source: try Shapes.vendored("turbo-ios/turbo.js"), injectionTime: .atDocumentEnd,
                        forMainFrameOnly: true)
                ])
            defer { native.tearDown(["turbo"]) }
            let page = "turbo-ios/\(item.page).html"
            let server = try Shapes.load(page, in: native)
            defer { server.stop() }
            if item.visits { try await visit(native, server.url("/turbo-ios/two.html")) }
            let body = await native.message("\(page): \(item.fault)", in: self, where: item.matches)
            XCTAssertNotNil(body, "\(page): no message showed \(item.fault)")
        }
    }
}
#endif
