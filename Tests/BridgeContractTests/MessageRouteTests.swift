import BridgeContract
import Foundation
import Testing

/// Each message's route is computed once, with the contract: the validators' candidates, the handlers the native
/// side registers and the definition check's uniqueness all read it.
@Suite("A message's route")
struct MessageRouteTests {
    @Test("a loaded message's route: page → native on its handler through its transport, or native → page")
    func routes() throws {
        let replies = try LanguageContracts.replyHandler.contract()
        #expect(
            replies.messages.map(\.route) == [
                .pageToNative(handler: "bridge", transport: .postMessage),
                .pageToNative(handler: "native", transport: .postMessage),
                .pageToNative(handler: "native", transport: .postMessage), .nativeToPage,
            ])
        #expect(replies.messages[1].route.description == #"page → native on handler "native" via postMessage"#)
        #expect(replies.messages[3].route.description == "native → page")
        let capacitor = try LanguageContracts.capacitor.contract()
        let cookies = try #require(capacitor.message("cookiesEnabled", direction: .pageToNative))
        #expect(cookies.route == .pageToNative(handler: "bridge", transport: .prompt))
        #expect(cookies.route.registeredHandler == nil)
        // A native → page message's page function is not its route: the page matches among them all.
        let hotwire = try LanguageContracts.hotwire.contract()
        #expect(hotwire.messages.filter { $0.direction == .nativeToPage }.allSatisfy { $0.route == .nativeToPage })
        #expect(MessageRoute(.nativeToPage, handler: "x", transport: .prompt) == .nativeToPage)
    }

    @Test("a message follows its route when its handler, transport or direction changes")
    func followsItsKeys() throws {
        var spec = try #require(LanguageContracts.replyHandler.contract().message("getUser", direction: .pageToNative))
        spec.transport = .prompt
        #expect(spec.route == .pageToNative(handler: "native", transport: .prompt))
        spec.handler = "other"
        #expect(spec.route == .pageToNative(handler: "other", transport: .prompt))
        spec.direction = .nativeToPage
        #expect(spec.route == .nativeToPage)
    }

    @Test("a body is matched among the messages of its route only")
    func candidates() throws {
        let replies = try LanguageContracts.replyHandler.contract()
        let getUser: [String: Any] = ["kind": "getUser", "userId": 7]
        #expect(replies.validate(getUser, direction: .pageToNative, mode: .strict, handler: "native").isValid)
        #expect(
            replies.validate(getUser, direction: .pageToNative, mode: .strict, handler: "bridge").violations.map(\.rule)
                == [.unknownKind])
        #expect(
            !replies.validate(getUser, direction: .pageToNative, mode: .strict, handler: "native", transport: .prompt)
                .isValid)
        #expect(replies.handlerNames == ["bridge", "native"])
        #expect(replies.repliesOn(handler: "native") && !replies.repliesOn(handler: "bridge"))
    }

    @Test("the same values may name two messages of different routes, never two of one route")
    func uniquePerRoute() throws {
        func contract(_ second: String) -> String {
            #"""
            {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [
              {"kind": "a", "direction": "page-to-native", "match": {"kind": "x"}},
              {"kind": "b", "direction": "page-to-native", "match": {"kind": "x"}\#(second)}
            ]}
            """#
        }
        #expect(throws: Never.self) { try BridgeContract(jsonData: Data(contract(#", "handler": "other""#).utf8)) }
        #expect(throws: Never.self) { try BridgeContract(jsonData: Data(contract(#", "transport": "prompt""#).utf8)) }
        do {
            _ = try BridgeContract(jsonData: Data(contract(#", "handler": "bridge""#).utf8))
            Issue.record("accepted two messages named by the same values on one route")
        } catch {
            #expect(error.path == "messages[1].match")
            #expect(error.problem == #""b" is named by the same values as "a""#)
        }
    }
}

extension Validation {
    fileprivate var isValid: Bool { message != nil }
}
