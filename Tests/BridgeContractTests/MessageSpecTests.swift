import BridgeContract
import ContractTools
import Foundation
import Testing

/// A message's keys that have a default (handler, transport, page function, discriminator values) are resolved
/// once, when the contract is read or built: no reader falls back on a default of its own.
@Suite("A message's defaults, resolved with its contract")
struct MessageSpecTests {
    @Test(
        "a loaded message has its handler, transport, page function and discriminator values, its own or the contract's"
    )
    func resolvedWhenRead() throws {
        let replies = try LanguageContracts.replyHandler.contract()
        let ready = try #require(replies.message("ready", direction: .pageToNative))
        let getUser = try #require(replies.message("getUser", direction: .pageToNative))
        let sync = try #require(replies.message("sync", direction: .nativeToPage))
        #expect(ready.handler == "bridge" && ready.transport == .postMessage)
        #expect(getUser.handler == "native" && getUser.transport == .postMessage)
        #expect(sync.call == "window.bridgeReceive")
        #expect(ready.match == ["kind": .string("ready")])
        let capacitor = try LanguageContracts.capacitor.contract()
        let cookies = try #require(capacitor.message("cookiesEnabled", direction: .pageToNative))
        #expect(cookies.transport == .prompt && cookies.handler == "bridge")
        #expect(cookies.match == ["type": .string("CapacitorCookies.isEnabled")])
        let hotwire = try LanguageContracts.hotwire.contract()
        #expect(
            try #require(hotwire.message("register", direction: .nativeToPage)).call == "window.nativeBridge.register")
        // A bare message under a two-field discriminator is named by no values.
        #expect(try #require(hotwire.message("ready", direction: .pageToNative)).match == [:])
    }

    @Test("a message that leaves a key out follows the contract when it changes; one that declares the key keeps it")
    func followsTheContract() throws {
        var contract = try LanguageContracts.replyHandler.contract()
        contract.handler = "app"
        #expect(contract.message("ready", direction: .pageToNative)?.handler == "app")
        #expect(contract.message("getUser", direction: .pageToNative)?.handler == "native")
        #expect(contract.handlerNames == ["app", "native"])
        contract.receiver = "window.App.receive"
        #expect(contract.message("sync", direction: .nativeToPage)?.call == "window.App.receive")
        contract.discriminator = ["type"]
        #expect(contract.message("ready", direction: .pageToNative)?.match == ["type": .string("ready")])
        #expect(contract.validate(["type": "ready", "version": 1], direction: .pageToNative).message?.kind == "ready")
        // Request ids: carried by a request and its answer, once the contract declares the field.
        contract.messages[3].acknowledges = "ready"
        #expect(!contract.carriesRequestID(contract.messages[0]))
        contract.requestID = RequestIDSpec(field: "id")
        #expect(contract.carriesRequestID(contract.messages[0]) && contract.carriesRequestID(contract.messages[3]))
        // A message added to the contract is resolved against it.
        contract.messages.append(MessageSpec(kind: "ping", direction: .pageToNative))
        #expect(contract.messages.last?.handler == "app")
        #expect(contract.messages.last?.match == ["type": .string("ping")])
    }

    @Test("the file is written back as it was read: a default left out stays out, one written out stays written")
    func writtenBackAsRead() throws {
        let explicit = #"""
            {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [
              {"kind": "ready", "direction": "page-to-native", "handler": "bridge", "transport": "postMessage",
               "match": {"kind": "ready"}},
              {"kind": "sync", "direction": "native-to-page", "call": "window.bridgeReceive"}
            ]}
            """#
        let implicit = #"""
            {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [
              {"kind": "ready", "direction": "page-to-native"},
              {"kind": "sync", "direction": "native-to-page"}
            ]}
            """#
        let declared = try BridgeContract(jsonData: Data(explicit.utf8))
        let written = String(decoding: declared.jsonData(), as: UTF8.self)
        for key in [#""transport" : "postMessage""#, #""call" : "window.bridgeReceive""#, #""match" : {"#] {
            #expect(written.contains(key), "\(key) in\n\(written)")
        }
        #expect(written.components(separatedBy: #""handler" : "bridge""#).count == 3, "\(written)")
        #expect(try BridgeContract(jsonData: declared.jsonData()) == declared)
        // It means the same as the file that leaves them out, which is written, and locked, without them.
        let inherited = try BridgeContract(jsonData: Data(implicit.utf8))
        #expect(inherited.messages.map(\.handler) == declared.messages.map(\.handler))
        #expect(inherited.messages.map(\.transport) == declared.messages.map(\.transport))
        #expect(inherited.messages.map(\.call) == declared.messages.map(\.call))
        #expect(inherited.messages.map(\.match) == declared.messages.map(\.match))
        for text in [inherited.jsonData(), ContractLock(contract: inherited).jsonData()] {
            let written = String(decoding: text, as: UTF8.self)
            for key in ["transport", "call", "match"] { #expect(!written.contains(key), "\(key) in\n\(written)") }
            #expect(written.components(separatedBy: #""handler""#).count == 2, "\(written)")
        }
        // Setting a key declares it.
        var spec = try #require(inherited.message("ready", direction: .pageToNative))
        spec.transport = .postMessage
        #expect(String(decoding: canonical(spec), as: UTF8.self).contains(#""transport":"postMessage""#))
    }

    private func canonical(_ spec: MessageSpec) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(spec)) ?? Data()
    }
}
