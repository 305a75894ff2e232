import BridgeContract
import ContractTools
import Foundation
import Testing

/// A contract before and after a compatible change: an optional field on each side and a message each way.
private enum Versions {
    static let old = #"""
        {"version": 1, "name": "shop", "handler": "app", "receiver": "window.App.receive", "discriminator": "type",
         "messages": [
           {"kind": "hello", "direction": "page-to-native", "fields": {"payload": {"type": "object", "fields": {
             "screen": {"type": "string"}}}}},
           {"kind": "welcome", "direction": "native-to-page", "fields": {"user": {"type": "string"}}}
         ]}
        """#

    static let new = #"""
        {"version": 1, "name": "shop", "handler": "app", "receiver": "window.App.receive", "discriminator": "type",
         "messages": [
           {"kind": "hello", "direction": "page-to-native", "fields": {"payload": {"type": "object", "fields": {
             "screen": {"type": "string"}, "locale": {"type": "string", "optional": true}}}}},
           {"kind": "welcome", "direction": "native-to-page", "fields": {"user": {"type": "string"},
             "badge": {"type": "integer", "optional": true}}},
           {"kind": "track", "direction": "page-to-native", "fields": {"event": {"type": "string"}}},
           {"kind": "refresh", "direction": "native-to-page", "fields": {}}
         ]}
        """#

    static func contract(_ json: String) throws -> BridgeContract { try BridgeContract(jsonData: Data(json.utf8)) }
}

@Suite("Typed code survives a compatible change of the contract")
struct TypedCodeCompatibilityTests {
    @Test("the change is compatible for contract diff: the types need no version bump")
    func changeIsCompatible() throws {
        let diff = ContractDiff(
            locked: try Versions.contract(Versions.old), current: try Versions.contract(Versions.new))
        #expect(diff.changes.count == 4 && diff.incompatibleChanges.isEmpty && diff.passes, "\(diff)")
    }

    @Test(
        "Swift written against the old types compiles against the regenerated ones",
        .enabled(
            if: SwiftCompiler.executable != nil && SwiftCompiler.modules != nil, "swiftc or the built module missing"))
    func swiftStillCompiles() throws {
        // As the documentation says to write it: a switch over a direction keeps a default for messages to come.
        let use = """
            import BridgeContract
            func handle(_ body: Any) throws -> String? {
                switch try ShopContract.PageToNative(body: body, mode: .lenient) {
                case .hello(let hello): return hello.payload.screen
                default: return nil
                }
            }
            let hello = ShopContract.HelloMessage(payload: .init(screen: "cart"))
            let call = try? ShopContract.NativeToPage.welcome(.init(user: "Ada")).receiverCall()
            let version: Int = ShopContract.version

            """
        for json in [Versions.old, Versions.new] {
            let types = SwiftTypes(contract: try Versions.contract(json)).source
            let errors = try SwiftCompiler.errors(["Types.swift": types, "Use.swift": use])
            #expect(errors.isEmpty, "\(errors)")
        }
    }

    @Test(
        "a page written against the old declarations compiles against the regenerated ones",
        .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"))
    func typeScriptStillCompiles() throws {
        let page = """
            import { postToNative, CONTRACT_VERSION, type Receivers } from "./bridge-contract.mjs";
            const receive: Receivers["window.App.receive"] = (message) => {
              if (message.type === "welcome") document.title = message.user;
            };
            postToNative({ type: "hello", payload: { screen: "cart" } });
            const version: number = CONTRACT_VERSION;
            export { receive, version };

            """
        for json in [Versions.old, Versions.new] {
            #expect(try TypeScript.errors(try Versions.contract(json), page: page).isEmpty)
        }
    }

    @Test("both sides name the version they were generated from")
    func namesTheVersion() throws {
        var contract = try Versions.contract(Versions.new)
        contract.version = 7
        #expect(SwiftTypes(contract: contract).source.contains("public static let version = 7"))
        #expect(TypeScriptDeclarations(contract: contract).source.contains("export declare const CONTRACT_VERSION: 7;"))
    }
}
