#if os(Linux)
import BridgeTesting
import EngineTestSupport
import Foundation
import WebKitGTK
import XCTest

/// What five bridges' published JavaScript really posts on the real engine, and that native's real calls into each
/// page work: react-native-webview, webview_flutter, Cordova iOS, WKWebViewJavascriptBridge and Turbo iOS with
/// Turbo 8 (Fixtures/Protocols/<bridge>/README.md). Each test loads the bridge's correct page over loopback HTTP in
/// a WKWebView whose handlers carry the bridge's real names, with the vendored script injected as native injects
/// it, and plays the native side with the exact call each project's native code makes.
///
/// It reads WKScriptMessage bodies and page state directly, not through a contract, so it holds whatever the
/// contract language becomes; the contracts for these pages are written against what it pins down.
@MainActor
final class BridgeShapesTests: XCTestCase {
    static let timeout = CheckConfiguration.defaultTimeout
    static let folder = Bundle.module.url(forResource: "Protocols", withExtension: nil, subdirectory: "Fixtures")!

    /// A web view with handlers under the bridge's names; it records every message and wakes a waiting test.
    @MainActor
    final class Native: NSObject, WKScriptMessageHandler {
        let controller = WKUserContentController()
        private(set) var webView: WKWebView!
        private(set) var messages: [(name: String, body: Any)] = []
        private var waiter: (matches: (String, Any) -> Bool, expectation: XCTestExpectation)?
        private var matched: Any?

        init(handlers: [String], scripts: [WKUserScript]) {
            super.init()
            for name in handlers { controller.add(self, name: name) }
            for script in scripts { controller.addUserScript(script) }
            let configuration = WKWebViewConfiguration()
            configuration.userContentController = controller
            webView = WKWebView(frame: .zero, configuration: configuration)
        }

        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            messages.append((message.name, message.body))
            if let waiter, waiter.matches(message.name, message.body) {
                matched = message.body
                self.waiter = nil
                waiter.expectation.fulfill()
            }
        }

        /// The body of the first message from `index` on that matches, waiting for it up to the default deadline.
        func message(
            _ what: String, after index: Int = 0, in test: XCTestCase, where matches: @escaping (String, Any) -> Bool
        ) async -> Any? {
            if let hit = messages.dropFirst(index).first(where: { matches($0.name, $0.body) }) { return hit.body }
            let expectation = test.expectation(description: what)
            matched = nil
            waiter = (matches, expectation)
            await test.fulfillment(of: [expectation], timeout: BridgeShapesTests.timeout)
            waiter = nil
            return matched
        }

        /// Evaluates `script` as native's evaluateJavaScript does; a script may return nothing.
        func evaluate(_ script: String) async throws -> Any? {
            try await webView.evaluateJavaScript(script, contentWorld: .page)
        }

        /// Waits until the page sets `document.body.dataset.received` (its sign that native's answer reached the app's
        /// code), up to the default deadline, and returns it.
        func received() async throws -> Any? {
            try await webView.callAsyncJavaScript(
                """
                return await new Promise((resolve, reject) => {
                  if (document.body.dataset.received !== undefined) return resolve(document.body.dataset.received)
                  setTimeout(() => reject(new Error("the page did not set data-received within " + seconds + " s")),
                    seconds * 1000)
                  new MutationObserver(() => resolve(document.body.dataset.received))
                    .observe(document.body, { attributes: true, attributeFilter: ["data-received"] })
                })
                """, arguments: ["seconds": BridgeShapesTests.timeout], contentWorld: .page)
        }

        func tearDown(_ handlers: [String]) {
            for name in handlers { controller.removeScriptMessageHandler(forName: name) }
        }
    }

    /// A value's JS type as the bridges' docs name it; booleans are told from numbers as WebKitGTK hands them over.
    static func shape(_ value: Any?) -> String {
        switch value {
        case nil: "Missing"
        case is String: "String"
        case let number as NSNumber:
            ObjectIdentifier(type(of: number)) == ObjectIdentifier(type(of: NSNumber(value: true)))
                ? "Boolean" : "Number"
        case is [String: Any]: "Object"
        case is [Any]: "Array"
        case is NSNull: "Null"
        default: "Other"
        }
    }

    /// The shapes of an object's fields, by name.
    static func fields(_ value: Any?) -> [String: String] { ((value as? [String: Any]) ?? [:]).mapValues(shape) }

    /// JSON text parsed as JSON (nil when it is not JSON text).
    static func parsed(_ value: Any?) -> Any? {
        (value as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    static func json(_ value: Any) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    static func vendored(_ path: String) throws -> String {
        try String(contentsOf: Self.folder.appendingPathComponent("vendor/" + path), encoding: .utf8)
    }

    /// Loads `page` from the Protocols folder over loopback HTTP; the caller keeps the server until it is done.
    static func load(_ page: String, in native: Native) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(folder: Self.folder)
        _ = native.webView.load(URLRequest(url: server.url("/" + page)))
        return server
    }

    /// Turbo iOS's JavaScriptExpression.wrappedString: the call with its JSON-encoded arguments, errors returned.
    static func wrapped(_ function: String, _ jsonArguments: String) -> String {
        """
        (function(result) {
          try {
            result.value = \(function)(\(jsonArguments.dropFirst().dropLast()))
          } catch (error) {
            result.error = error.toString()
            result.stack = error.stack
          }

          return result
        })({})
        """
    }

    /// WKWebViewJavascriptBridgeBase.dispatch: the message's JSON escaped into a single-quoted JS string.
    static func dispatch(_ message: [String: Any]) -> String {
        var text = json(message)
        for (from, to) in [("\\", "\\\\"), ("\"", "\\\""), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r")] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        return "WKWebViewJavascriptBridge._handleMessageFromiOS('\(text)');"
    }

    // MARK: react-native-webview and webview_flutter: JSON text on a string channel

    /// ready and getUser arrive as JSON text; native's answer and ping reach the page; the pong echoes the ping's id.
    func checkJSONTextChannel(
        folder: String, handler: String, script: WKUserScript, nativeCall: (String) -> String
    ) async throws {
        let native = Native(handlers: [handler], scripts: [script])
        defer { native.tearDown([handler]) }
        let server = try Self.load(folder + "/pass.html", in: native)
        defer { server.stop() }
        let typed = { (type: String) in
            { (_: String, body: Any) in (Self.parsed(body) as? [String: Any])?["type"] as? String == type }
        }

        let ready = await native.message("\(folder): ready", in: self, where: typed("ready"))
        XCTAssertEqual(Self.shape(ready), "String", "\(folder): ready's body")
        XCTAssertEqual(
            Self.fields(Self.parsed(ready)), ["type": "String", "version": "Number"], "\(folder): ready's text")
        let request = await native.message("\(folder): getUser", in: self, where: typed("getUser"))
        XCTAssertEqual(Self.shape(request), "String", "\(folder): getUser's body")
        let getUser = Self.parsed(request) as? [String: Any]
        XCTAssertEqual(
            Self.fields(getUser), ["type": "String", "id": "String", "userId": "String"], "\(folder): getUser")

        let reply = Self.json(["type": "user", "id": getUser?["id"] as? String ?? "", "name": "Ada"])
        _ = try await native.evaluate(nativeCall(reply))
        let received = try await native.received()
        XCTAssertEqual(received as? String, "Ada", "\(folder): native's reply did not reach the app's callback")

        let sent = native.messages.count
        _ = try await native.evaluate(nativeCall(Self.json(["type": "ping", "id": "n-1"])))
        let pong = await native.message("\(folder): pong", after: sent, in: self, where: typed("pong"))
        XCTAssertEqual(Self.fields(Self.parsed(pong)), ["type": "String", "id": "String"], "\(folder): pong")
        XCTAssertEqual((Self.parsed(pong) as? [String: Any])?["id"] as? String, "n-1", "\(folder): pong's id")
    }

    func testReactNativeWebViewPostsJSONTextAndTakesAMessageEvent() async throws {
        // RNCWebViewImpl.m: the postMessage script at document start, main frame only; -postMessage: answers with
        // window.dispatchEvent(new MessageEvent('message', <RCTJSONStringify(@{@"data": message})>));
        let script = WKUserScript(
            source: try Self.vendored("react-native-webview/post-message.js"), injectionTime: .atDocumentStart,
            forMainFrameOnly: true)
        try await checkJSONTextChannel(folder: "react-native-webview", handler: "ReactNativeWebView", script: script) {
            "window.dispatchEvent(new MessageEvent('message', \(Self.json(["data": $0]))));"
        }
    }

    func testWebViewFlutterChannelPostsJSONTextAndTakesRunJavaScript() async throws {
        // addJavaScriptChannel: the wrapper at document start in every frame; the app answers with
        // runJavaScript('window.fromFlutter(' + jsonEncode(text) + ')').
        let script = WKUserScript(
            source: try Self.vendored("webview-flutter/channel-wrapper.js"), injectionTime: .atDocumentStart,
            forMainFrameOnly: false)
        try await checkJSONTextChannel(folder: "webview-flutter", handler: "Toaster", script: script) {
            "window.fromFlutter(\(Self.json($0)))"
        }
    }

    // MARK: Cordova iOS: a positional Array

    func testCordovaPostsAPositionalArrayAndTakesNativeCallback() async throws {
        let native = Native(handlers: ["cordova"], scripts: [])
        defer { native.tearDown(["cordova"]) }
        let server = try Self.load("cordova/pass.html", in: native)
        defer { server.stop() }
        let body = await native.message("cordova: the Device/getDeviceInfo command", in: self) { _, body in
            (body as? [Any]).map { $0.count > 1 && $0[1] as? String == "Device" } ?? false
        }
        XCTAssertEqual(Self.shape(body), "Array", "cordova: the command's body")
        let command = body as? [Any] ?? []
        XCTAssertEqual(
            command.map(Self.shape), ["String", "String", "String", "Array"], "cordova: the command's elements")
        XCTAssertEqual(command.dropFirst().first as? String, "Device", "cordova: body[1], the service")
        XCTAssertEqual(command.dropFirst(2).first as? String, "getDeviceInfo", "cordova: body[2], the action")
        let callbackId = command.first as? String ?? ""
        XCTAssertTrue(callbackId.hasPrefix("Device"), "cordova: body[0], the callback id, is service + a counter")

        // CDVCommandDelegateImpl.sendPluginResult: status 1 (OK), keepCallback 0, debug 1, inside evalJs's wrapper.
        let result = Self.json(["platform": "iOS", "model": "iPhone"])
        let call = "cordova.require('cordova/exec').nativeCallback('\(callbackId)',1,\(result),0, 1)"
        _ = try await native.evaluate(
            "try{cordova.require('cordova/exec').nativeEvalAndFetch(function(){\(call)})}"
                + "catch(e){console.log('exception nativeEvalAndFetch : '+e);};")
        let received = try await native.received()
        XCTAssertEqual(received as? String, "iOS", "cordova: nativeCallback did not reach exec's success callback")
    }

    // MARK: WKWebViewJavascriptBridge: a null ping, a pulled queue of JSON text, answers by id

    func testWKWebViewJavascriptBridgePingsAndNativePullsTheQueue() async throws {
        let handlers = ["iOS_Native_InjectJavascript", "iOS_Native_FlushMessageQueue"]
        let native = Native(handlers: handlers, scripts: [])
        defer { native.tearDown(handlers) }
        let server = try Self.load("wkwebview-javascript-bridge/pass.html", in: native)
        defer { server.stop() }
        let named = { (name: String) in { (handler: String, _: Any) in handler == name } }

        let inject = await native.message("wvjb: the inject ping", in: self, where: named(handlers[0]))
        XCTAssertEqual(Self.shape(inject), "Null", "wvjb: the inject ping's body")
        // WKWebViewJavascriptBridgeBase.injectJavascriptFile evaluates the script.
        _ = try await native.evaluate(try Self.vendored("wkwebview-javascript-bridge/bridge.js"))
        let flush = await native.message("wvjb: the flush ping", in: self, where: named(handlers[1]))
        XCTAssertEqual(Self.shape(flush), "Null", "wvjb: the flush ping's body")

        // WKWebViewJavascriptBridge.flushMessageQueue pulls the queue as JSON text.
        let fetch = "WKWebViewJavascriptBridge._fetchQueue();"
        let queue = try await native.evaluate(fetch)
        XCTAssertEqual(Self.shape(queue), "String", "wvjb: _fetchQueue()'s result")
        let messages = Self.parsed(queue) as? [[String: Any]] ?? []
        XCTAssertEqual(messages.count, 1, "wvjb: the queue's length")
        XCTAssertEqual(
            Self.fields(messages.first), ["handlerName": "String", "data": "Object", "callbackID": "String"],
            "wvjb: the queued getUser")
        XCTAssertEqual(Self.fields(messages.first?["data"]), ["userId": "String"], "wvjb: getUser's data")

        let callbackID = messages.first?["callbackID"] as? String ?? ""
        _ = try await native.evaluate(Self.dispatch(["responseID": callbackID, "responseData": ["name": "Ada"]]))
        let received = try await native.received()
        XCTAssertEqual(received as? String, "Ada", "wvjb: the response did not reach callHandler's callback")

        // Native calls the page's ping handler; the answer is queued and pulled like any message.
        let sent = native.messages.count
        _ = try await native.evaluate(
            Self.dispatch(["handlerName": "ping", "data": ["n": 1], "callbackID": "native_iOS_cb_1"]))
        _ = await native.message(
            "wvjb: the flush ping for the answer", after: sent, in: self, where: named(handlers[1]))
        let answer = (Self.parsed(try await native.evaluate(fetch)) as? [[String: Any]])?.first
        XCTAssertEqual(
            Self.fields(answer), ["handlerName": "String", "responseID": "String", "responseData": "Object"],
            "wvjb: the ping's answer")
        XCTAssertEqual(answer?["responseID"] as? String, "native_iOS_cb_1", "wvjb: the answer's responseID")
        XCTAssertEqual(Self.fields(answer?["responseData"]), ["pong": "Number"], "wvjb: the answer's responseData")
    }

    // MARK: Turbo iOS: {name, data} with the visit's identifier; a 3-argument call

    func testTurboAdapterPostsNameAndDataAndTakesTheThreeArgumentVisit() async throws {
        let script = WKUserScript(
            source: try Self.vendored("turbo-ios/turbo.js"), injectionTime: .atDocumentEnd, forMainFrameOnly: true)
        let native = Native(handlers: ["turbo"], scripts: [script])
        defer { native.tearDown(["turbo"]) }
        let server = try Self.load("turbo-ios/pass.html", in: native)
        defer { server.stop() }
        let named = { (name: String) in
            { (_: String, body: Any) in (body as? [String: Any])?["name"] as? String == name }
        }

        let loaded = await native.message("turbo: pageLoaded", in: self, where: named("pageLoaded"))
        XCTAssertEqual(Self.fields(loaded), ["name": "String", "data": "Object"], "turbo: pageLoaded")
        let data = (loaded as? [String: Any])?["data"]
        XCTAssertEqual(
            Self.fields(data), ["restorationIdentifier": "String", "timestamp": "Number"], "turbo: pageLoaded's data")

        // WebViewBridge.visitLocation through JavaScriptExpression.wrappedString: three JSON arguments.
        let restoration = (data as? [String: Any])?["restorationIdentifier"] as? String ?? ""
        let arguments = Self.json([
            server.url("/turbo-ios/two.html").absoluteString, ["action": "advance"], restoration,
        ])
        let result = try await native.evaluate(
            Self.wrapped(
                "window.turboNative.visitLocationWithOptionsAndRestorationIdentifier", arguments))
        XCTAssertEqual(Self.fields(result)["error"], nil, "turbo: the visit call threw")

        let started = await native.message("turbo: visitStarted", in: self, where: named("visitStarted"))
        XCTAssertEqual(
            Self.fields((started as? [String: Any])?["data"]),
            [
                "identifier": "String", "hasCachedSnapshot": "Boolean", "isPageRefresh": "Boolean",
                "timestamp": "Number",
            ],
            "turbo: visitStarted's data")
        let identifier = ((started as? [String: Any])?["data"] as? [String: Any])?["identifier"] as? String
        let completed = await native.message("turbo: visitCompleted", in: self, where: named("visitCompleted"))
        let completedData = (completed as? [String: Any])?["data"]
        XCTAssertEqual(
            Self.fields(completedData),
            ["identifier": "String", "restorationIdentifier": "String", "timestamp": "Number"],
            "turbo: visitCompleted's data")
        XCTAssertEqual(
            (completedData as? [String: Any])?["identifier"] as? String, identifier,
            "turbo: visitCompleted names another visit than visitStarted")
        let title = try await native.evaluate("document.querySelector('h1').textContent")
        XCTAssertEqual(title as? String, "Two", "turbo: the visit did not render two.html")
    }
}
#endif
