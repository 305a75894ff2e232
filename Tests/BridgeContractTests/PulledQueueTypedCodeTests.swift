import ContractTools
import Foundation
import Testing

@testable import BridgeContract

/// WKWebViewJavascriptBridge's page queues its messages and native pulls the queue (`_fetchQueue()`), so the
/// contract declares them on the pseudo-handler `queue`, which no page posts to: the typed code must not offer it.
@Suite("Typed code of messages native pulls from a queue")
struct PulledQueueTypedCodeTests {
    static func contract() throws -> BridgeContract {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try BridgeContract.load(
            contentsOf: root.appendingPathComponent(
                "BridgeTestingTests/Fixtures/Protocols/wkwebview-javascript-bridge/contract.json"))
    }

    @Test("the queue is no handler the page posts to: not in HANDLERS, and its messages not Posted")
    func declarationsOfferNoPost() throws {
        let contract = try Self.contract()
        #expect(contract.pulledHandlers == ["queue"])
        #expect(contract.postedHandlerNames == ["iOS_Native_FlushMessageQueue", "iOS_Native_InjectJavascript"])
        let source = TypeScriptDeclarations(contract: contract).source
        #expect(source.contains("export type Posted = InjectMessage | FlushMessage;"))
        #expect(
            !source.contains(
                #"HANDLERS: readonly ["iOS_Native_FlushMessageQueue", "iOS_Native_InjectJavascript", "queue"]"#))
        #expect(source.contains(#"/** "getUser": page → native, queued for native to pull as "queue". */"#))
    }

    @Test(
        "tsc --strict refuses posting a queued message, and accepts the page's own posts",
        .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"))
    func postingAQueuedMessageDoesNotCompile() throws {
        let contract = try Self.contract()
        let correct = """
            import { postToNative, type Messages } from "./bridge-contract.mjs";
            export function page(): void {
              postToNative(null, { handler: "iOS_Native_FlushMessageQueue" });
              const queued: Messages["getUser"] = { handlerName: "getUser", data: { userId: "42" }, callbackID: "cb_1" };
              void queued;
            }

            """
        let errors = try TypeScript.errors(contract, page: correct)
        #expect(errors.isEmpty, "\(errors)")
        try TypeScript.rejection(
            contract, imports: "postToNative",
            bad: #"postToNative({ handlerName: "getUser", data: { userId: "42" }, callbackID: "cb_1" });"#,
            field: "{ handlerName")
    }

    @Test(
        "the module never posts to messageHandlers.queue: a queued message is refused by postToNative",
        .enabled(if: Node.executable != nil, "node is not installed"))
    func moduleDoesNotPostToTheQueue() throws {
        let runner = """
            import { postToNative, validate, HANDLERS } from "./contract.mjs";
            const posted = [];
            const handler = (name) => ({ postMessage: (m) => { posted.push(name); } });
            globalThis.webkit = { messageHandlers: { queue: handler("queue"), iOS_Native_FlushMessageQueue: handler("flush") } };
            const lines = [JSON.stringify(HANDLERS)];
            try { postToNative({ handlerName: "getUser", data: { userId: "42" }, callbackID: "cb_1" }); lines.push("posted"); }
            catch (e) { lines.push(e.message.split("\\n").slice(1).join(" | ")); }
            postToNative(null, { handler: "iOS_Native_FlushMessageQueue" });
            lines.push(JSON.stringify(posted));
            const queued = validate({ handlerName: "getUser", data: { userId: "42" }, callbackID: "cb_1" }, "page-to-native", { handler: "queue" });
            lines.push(String(queued.valid));
            console.log(lines.join("\\n"));
            """
        let directory = try moduleDirectory(try Self.contract(), runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Node.run(directory.appendingPathComponent("runner.mjs")).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first == #"["iOS_Native_FlushMessageQueue","iOS_Native_InjectJavascript"]"#)
        // Refused as no message of the page's own handlers (the flush handler's null body), never posted.
        #expect(lines.dropFirst().first == "body: expected Null, found Object (wrong-type, page-to-native)", "\(lines)")
        #expect(lines.dropFirst(2).first == #"["flush"]"#)
        // The page's own code may still check what it queues.
        #expect(lines.last == "true")
    }
}
