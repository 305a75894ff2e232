import BridgeContract
import BridgeTestData
import Foundation
import Testing

/// The contract file `name` in Contracts, as the plugin read it.
func contractFile(_ name: String) throws -> BridgeContract {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "json"), "\(name).json is not bundled")
    return try BridgeContract.load(contentsOf: url)
}

/// The violations `validate` finds in `body`: what the generated decoding must throw, exactly.
func violations(
    _ contract: BridgeContract, _ body: Any, handler: String? = nil, transport: MessageSpec.Transport = .default
) -> [ContractViolation] {
    contract.validate(body, direction: .pageToNative, mode: .strict, handler: handler, transport: transport).violations
}

/// The violations a generated decoding threw, or none.
func thrown(_ decode: () throws -> Void) -> [ContractViolation] {
    do {
        try decode()
        return []
    } catch {
        return (error as? ContractError)?.violations ?? []
    }
}

/// Native's answer to the page's `Device/getInfo` call `callbackId`: a device of `model`.
func deviceInfo(answering callbackId: String, model: String) -> CapacitorContract.DeviceGetInfoResultMessage {
    CapacitorContract.DeviceGetInfoResultMessage(
        answering: CapacitorContract.DeviceGetInfoMessage(callbackId: callbackId, options: .init()),
        data: .init(
            isVirtual: true, manufacturer: "Apple", model: model, operatingSystem: "ios", osVersion: "17.4",
            platform: "ios", webViewVersion: "17.4"), save: false)
}

/// The argument of a receiver call, parsed back.
func argument(_ call: ReceiverCall) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(call.argument.utf8), options: [.fragmentsAllowed])
}

@Suite("Swift types generated at build time by BridgeContractPlugin")
struct GeneratedTypesTests {
    @Test("each namespace holds its contract file's protocol, and names its version")
    func contractsAreTheFiles() throws {
        #expect(DefaultContract.contract == (try contractFile("default-contract")).protocolOnly)
        #expect(HotwireContract.contract == (try contractFile("hotwire-contract")).protocolOnly)
        #expect(CapacitorContract.contract == (try contractFile("capacitor-contract")).protocolOnly)
        #expect(ReplyHandlerContract.contract == (try contractFile("reply-handler-contract")).protocolOnly)
        #expect(CustomContract.contract == (try contractFile("custom-contract")).protocolOnly)
        #expect(
            ReactNativeWebviewContract.contract == (try contractFile("react-native-webview-contract")).protocolOnly)
        #expect(DefaultContract.version == 1 && HotwireContract.version == 1)
    }

    @Test("the contracts here are the protocol fixtures' contracts, and the bundled default")
    func contractsAreTheFixtures() throws {
        let protocols = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BridgeTestingTests/Fixtures/Protocols")
        for name in ["hotwire", "capacitor", "reply-handler", "custom", "react-native-webview"] {
            let fixture = try BridgeContract.load(
                contentsOf: protocols.appendingPathComponent(name).appendingPathComponent("contract.json"))
            #expect(fixture.protocolOnly == (try contractFile("\(name)-contract")).protocolOnly, "\(name)")
        }
        let bundled = try BridgeContract.load(contentsOf: try #require(BridgeContract.defaultContractURL))
        #expect(bundled.protocolOnly == (try contractFile("default-contract")).protocolOnly)
    }

    @Test("decoding accepts what validate accepts, with the typed values")
    func decodesValidBodies() throws {
        #expect(try DefaultContract.PageToNative(body: ["kind": "ready", "version": 1]) == .ready(.init()))
        let form: [String: Any] = [
            "id": "1", "component": "form", "event": "connect",
            "data": ["submitTitle": "Go", "metadata": ["url": "/a"]],
        ]
        let connect = HotwireContract.FormConnectMessage(
            id: "1", data: .init(metadata: .init(url: "/a"), submitTitle: "Go"))
        #expect(try HotwireContract.PageToNative(body: form) == .formConnect(connect))
        #expect(try HotwireContract.PageToNative(body: "ready") == .ready(.init()))
        let prompt = try CapacitorContract.PageToNative(
            body: ["type": "CapacitorCookies.isEnabled"], handler: nil, transport: .prompt)
        #expect(prompt == .cookiesEnabled(.init()))
        #expect(
            try ReplyHandlerContract.PageToNative(body: ["action": "getUser", "id": 7], handler: "native")
                == .getUser(.init(id: 7)))
        let extra: [String: Any] = ["kind": "ready", "version": 1, "later": true]
        #expect(try DefaultContract.PageToNative(body: extra, mode: .lenient) == .ready(.init()))
    }

    @Test("decoding refuses what validate refuses, with the same violations")
    func refusesWithTheSameViolations() throws {
        let defaults = try contractFile("default-contract")
        let broken: [Any] = [
            ["kind": "ready", "version": "1"], ["kind": "ready"], ["kind": "redy", "version": 1],
            ["kind": "ready", "version": 1, "x": 1], "ready", NSNull(),
        ]
        for body in broken {
            let expected = violations(defaults, body)
            #expect(!expected.isEmpty)
            #expect(thrown { _ = try DefaultContract.PageToNative(body: body) } == expected)
        }
        let hotwire = try contractFile("hotwire-contract")
        let wrongData: [String: Any] = [
            "id": 1, "component": "form", "event": "connect", "data": ["submitTitle": 3, "metadata": [:]],
        ]
        #expect(thrown { _ = try HotwireContract.PageToNative(body: wrongData) } == violations(hotwire, wrongData))
        #expect(violations(hotwire, wrongData).map(\.path).contains("data.submitTitle"))
        let replyHandler = try contractFile("reply-handler-contract")
        let wrongID: [String: Any] = ["action": "getUser", "id": 1.5]
        #expect(
            thrown { _ = try ReplyHandlerContract.PageToNative(body: wrongID, handler: "native") }
                == violations(replyHandler, wrongID, handler: "native"))
    }

    @Test("encoding is the contract's receiver call: same script, hostile text escaped, checked as its message")
    func encodesThroughReceiverCall() throws {
        let defaults = try contractFile("default-contract")
        for text in HostileStrings.corpus {
            let typed = try DefaultContract.NativeToPage.sync(.init(value: text)).receiverCall()
            let call = try ReceiverCall(contract: defaults, message: ["kind": "sync", "value": text])
            #expect(typed.script == call.script)
            #expect(!typed.script.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{FEFF}" })
            #expect((try argument(typed) as? [String: Any])?["value"] as? String == text)
        }
        let register = try HotwireContract.NativeToPage.register(.init(value: ["form", "menu"])).receiverCall()
        #expect(register.script == #"window.nativeBridge.register(["form","menu"])"#)
    }

    @Test("an answer carries its request's id and discriminator values, and validates as its message")
    func answersCarryTheRequest() throws {
        let hotwire = try contractFile("hotwire-contract")
        let request = HotwireContract.FormConnectMessage(
            id: "7", data: .init(metadata: .init(url: "/"), submitTitle: "Go"))
        let answer = HotwireContract.FormConnectReplyMessage(
            answering: request, data: .init(metadata: .init(url: request.data.metadata.url), submitTitle: "Sent"))
        let call = try HotwireContract.NativeToPage.formConnectReply(answer).receiverCall()
        #expect(call.script.hasPrefix("window.nativeBridge.replyWith("))
        let sent = try #require(try argument(call) as? [String: Any])
        #expect(sent["id"] as? String == "7" && sent["component"] as? String == "form")
        let spec = try #require(hotwire.message("form/connect reply", direction: .nativeToPage))
        #expect(hotwire.validate(sent, as: spec).violations.isEmpty)

        let result = deviceInfo(answering: "42", model: "iPhone")
        let fromNative = try #require(
            try argument(CapacitorContract.NativeToPage.deviceGetInfoResult(result).receiverCall()) as? [String: Any])
        #expect(fromNative["callbackId"] as? String == "42" && fromNative["success"] as? Bool == true)
        #expect(fromNative["pluginId"] as? String == "Device" && fromNative["methodName"] as? String == "getInfo")
    }

    @Test("replies are checked against their type before WebKit gets them")
    func replies() throws {
        let reply = try ReplyHandlerContract.GetUserMessage.replyBody(.init(admin: true, name: "Ada"))
        #expect((reply as? [String: Any])?["name"] as? String == "Ada")
        #expect(try CapacitorContract.CookiesEnabledMessage.replyBody("false") as? String == "false")
        // The contract refuses a reply of another shape, whatever typed code builds.
        #expect(throws: ContractError.self) {
            try ReplyHandlerContract.contract.typedReply("getUser", value: .object(["name": .number(1)]))
        }
    }

    @Test("a dispatch contract's message goes as the data of its event, as JSON text when the contract sends text")
    func dispatchesTheEvent() throws {
        let ping = try ReactNativeWebviewContract.NativeToPage.ping(.init(id: "n-1")).receiverCall()
        #expect(
            ping.script
                == #"window.dispatchEvent(new MessageEvent("message", {"data":"{\"id\":\"n-1\",\"type\":\"ping\"}"}))"#)
        let request = ReactNativeWebviewContract.GetUserMessage(id: "7", userId: "42")
        let user = try ReactNativeWebviewContract.NativeToPage.user(.init(answering: request, name: "Ada"))
            .receiverCall()
        let contract = try contractFile("react-native-webview-contract")
        let text = try #require(try argument(user) as? String)
        #expect(contract.validate(text, direction: .nativeToPage, mode: .strict).violations.isEmpty)
        // What the page posts is its JSON text, decoded as the typed message.
        let posted = #"{"type":"getUser","id":"7","userId":"42"}"#
        #expect(
            try ReactNativeWebviewContract.PageToNative(body: posted, handler: "ReactNativeWebView")
                == .getUser(request))
    }
}
