import Foundation
import Testing

@testable import BridgeContract

/// A contract whose native side delivers its messages as the data of an event it dispatches (react-native-webview's
/// `window.dispatchEvent(new MessageEvent("message", {data}))`), said once at the top of the file.
@Suite("Contract-level event dispatch")
struct ContractDispatchTests {
    /// A contract with `DELIVERY` in place of how native delivers: a native message `user` sent as JSON text, a
    /// `notice` object and `toast`, which calls a page function of its own.
    static func text(_ delivery: String, toastCall: Bool = true) -> String {
        """
        {
          "version": 1, "handler": "ReactNativeWebView", \(delivery) "discriminator": "type",
          "messages": [
            {"kind": "ready", "direction": "page-to-native", "encoding": "json"},
            {"kind": "user", "direction": "native-to-page", "encoding": "json", "fields": {"name": {"type": "string"}}},
            {"kind": "notice", "direction": "native-to-page", "fields": {"n": {"type": "number"}}},
            {"kind": "toast", "direction": "native-to-page"\(toastCall ? #", "call": "window.toast""# : "")}
          ]
        }
        """
    }

    static let dispatching = #""dispatch": {"target": "window", "event": "message"},"#

    static func load(_ text: String) throws(ContractError) -> BridgeContract {
        try BridgeContract(jsonData: Data(text.utf8))
    }

    @Test("a contract that dispatches an event needs no receiver, and writes back what it read")
    func dispatchLoads() throws {
        let contract = try Self.load(Self.text(Self.dispatching))
        #expect(contract.dispatchedEvent?.target == "window")
        #expect(contract.dispatchedEvent?.event == "message")
        #expect(contract.receiver == "window.dispatchEvent")
        #expect(contract.message("user", direction: .nativeToPage)?.dispatch == EventDispatch())
        // A message with a call of its own is called, not dispatched.
        #expect(contract.message("toast", direction: .nativeToPage)?.dispatch == nil)
        let written = String(decoding: contract.jsonData(), as: UTF8.self)
        #expect(!written.contains("\"receiver\""))
        #expect(try Self.load(written) == contract)
        #expect(
            contract
                == BridgeContract(
                    version: 1, handler: "ReactNativeWebView", dispatching: "message", messages: contract.messages,
                    discriminator: ["type"]))
    }

    @Test("the typed call and the checked receiver call dispatch the event with the message as its data")
    func typedCallDispatches() throws {
        let contract = try Self.load(Self.text(Self.dispatching))
        let user = try contract.typedCall("user", value: .object(["name": .string("Ada")]), requestID: nil)
        #expect(
            user.script
                == #"window.dispatchEvent(new MessageEvent("message", {"data":"{\"name\":\"Ada\",\"type\":\"user\"}"}))"#
        )
        #expect(user.argument == #""{\"name\":\"Ada\",\"type\":\"user\"}""#)
        #expect(user.receiver == "window.dispatchEvent")
        let notice = try ReceiverCall(contract: contract, message: ["type": "notice", "n": 2])
        #expect(
            notice.script == #"window.dispatchEvent(new MessageEvent("message", {"data":{"n":2,"type":"notice"}}))"#)
        #expect(notice.argument == #"{"n":2,"type":"notice"}"#)
        let toast = try contract.typedCall("toast", value: .object([:]), requestID: nil)
        #expect(toast.script == #"window.toast({"type":"toast"})"#)
        // A receiver call keeps its argument as it was.
        let plain = try ReceiverCall(contract: .default, message: ["kind": "sync", "value": "x"])
        #expect(plain.argument == #"{"kind":"sync","value":"x"}"#)
    }

    /// Each contract refused for how it delivers: the path its refusal names, its code and a word of its rule.
    static let refusals: [(delivery: String, toastCall: Bool, path: String, code: ContractError.Code, says: String)] =
        [
            ("", true, "receiver", .missingKey, "needs a receiver or a dispatch"),
            (#""receiver": "window.receive", "# + dispatching, true, "dispatch", .invalidValue, "says both"),
            (
                #""dispatch": {"target": "window[0]", "event": "message"},"#, true, "dispatch.target",
                .invalidValue, "dotted"
            ),
            (#""dispatch": {"event": ""},"#, true, "dispatch.event", .invalidValue, "empty"),
            (#""dispatch": {"target": "window"},"#, true, "dispatch.event", .missingKey, "required key"),
        ]

    @Test("a contract that says neither, or both, or a bad event is refused naming the key, the rule and the remedy")
    func refusals() {
        for refusal in Self.refusals {
            do {
                _ = try Self.load(Self.text(refusal.delivery, toastCall: refusal.toastCall))
                Issue.record("loaded \(refusal.delivery)")
            } catch {
                #expect(error.path == refusal.path, "\(error)")
                #expect(error.code == refusal.code, "\(error)")
                #expect(error.problem.contains(refusal.says), "\(error)")
                #expect(!error.remedy.isEmpty)
            }
        }
        do {
            _ = try Self.load(Self.text(""))
        } catch {
            #expect(error.remedy.contains("\"receiver\"") && error.remedy.contains("\"dispatch\""), "\(error)")
            #expect(error.problem.contains("messages[1]"), "\(error)")
        }
    }

    @Test("a contract with neither whose native messages all call functions of their own loads")
    func noDeliveryNeeded() throws {
        let text = """
            {"version": 1, "handler": "h", "messages": [
              {"kind": "ready", "direction": "page-to-native"},
              {"kind": "toast", "direction": "native-to-page", "call": "window.toast"}
            ]}
            """
        let contract = try Self.load(text)
        #expect(contract.receiver.isEmpty && contract.dispatchedEvent == nil)
        #expect(!String(decoding: contract.jsonData(), as: UTF8.self).contains("receiver"))
    }

    @Test("setting a receiver on a dispatch contract makes native call it")
    func settingReceiverCalls() throws {
        var contract = try Self.load(Self.text(Self.dispatching))
        contract.receiver = "window.receive"
        #expect(contract.dispatchedEvent == nil)
        let call = try contract.typedCall("user", value: .object(["name": .string("Ada")]), requestID: nil)
        #expect(call.script.hasPrefix("window.receive(\""))
    }
}
