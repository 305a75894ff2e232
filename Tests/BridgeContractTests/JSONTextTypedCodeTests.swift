import ContractTools
import Foundation
import Testing

@testable import BridgeContract

/// The worked contracts whose messages travel as JSON text, from the protocol fixtures: react-native-webview posts
/// `JSON.stringify(m)` and is answered with text as the data of a message event it listens for; webview_flutter's
/// channel posts the same way and is answered with text through a call of `window.fromFlutter`.
private enum TextContracts {
    static let names = ["react-native-webview", "webview-flutter"]

    static func contract(_ name: String) throws -> BridgeContract {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try BridgeContract.load(
            contentsOf: root.appendingPathComponent("BridgeTestingTests/Fixtures/Protocols/\(name)/contract.json"))
    }
}

@Suite("Typed code of messages sent as JSON text: postJSONToNative and parseJSONFromNative")
struct JSONTextTypedCodeTests {
    @Test(
        "a page posting and parsing JSON text as its contract allows compiles under tsc --strict",
        .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"),
        arguments: TextContracts.names)
    func correctPageCompiles(name: String) throws {
        let contract = try TextContracts.contract(name)
        // react-native-webview's native side dispatches a message event: the page listens, it implements no receiver.
        let dispatched = contract.dispatchedEvent != nil
        let receiver =
            dispatched
            ? "NativeMessageListener = (event) => {\n    const text: string = event.data;"
            : "Receivers[\(ReceiverCall.stringLiteral(contract.receiver))] = (text) => {"
        let page = """
            import { postJSONToNative, parseJSONFromNative, describeViolations, \
            type \(dispatched ? "NativeMessageListener" : "Receivers") } from "./bridge-contract.mjs";
            export async function page(): Promise<void> {
              postJSONToNative({ type: "ready", version: 1 });
              postJSONToNative({ type: "getUser", id: "7", userId: "42" });
              const receive: \(receiver)
                const result = parseJSONFromNative(text);
                if (!result.valid) throw new Error(describeViolations(result.violations));
                if (result.kind === "user") { const name: string = result.message.name; void name; }
                if (result.kind === "ping") { const id: string = result.message.id; postJSONToNative({ type: "pong", id }); }
              };
              const user = parseJSONFromNative("{}", { kind: "user" });
              if (user.valid) { const name: string = user.message.name; const id: string = user.message.id; void name; void id; }
              \(dispatched ? "window.addEventListener(\"message\", receive);" : "void receive;")
            }

            """
        let errors = try TypeScript.errors(contract, page: page)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test(
        "a misspelt kind, a wrong field type and a parsed field used as another type do not compile",
        .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"),
        arguments: TextContracts.names)
    func wrongUseIsRefused(name: String) throws {
        let contract = try TextContracts.contract(name)
        let imports = "postJSONToNative, parseJSONFromNative, postToNative"
        try TypeScript.rejection(
            contract, imports: imports, bad: #"postJSONToNative({ type: "redy", version: 1 });"#, field: "type")
        try TypeScript.rejection(
            contract, imports: imports, bad: #"postJSONToNative({ type: "getUser", id: "7", userId: 42 });"#,
            field: "userId")
        try TypeScript.rejection(
            contract, imports: imports, bad: #"parseJSONFromNative("{}", { kind: "usr" });"#, field: "kind")
        try TypeScript.rejection(
            contract, imports: imports,
            bad: #"const u = parseJSONFromNative("{}", { kind: "user" }); "#
                + #"if (u.valid) { const n: number = u.message.name; }"#,
            field: "n")
        // The object itself is not what goes on a channel of JSON text: postToNative would post it as an object.
        try TypeScript.rejection(
            contract, imports: imports, bad: #"postToNative({ type: "ready", version: 1 });"#, field: "{ type")
    }

    @Test(
        "a react-native-webview listener types the event's data as native's text, and implements no receiver",
        .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"))
    func dispatchListenerIsTyped() throws {
        let contract = try TextContracts.contract("react-native-webview")
        let imports = "parseJSONFromNative, type NativeMessageListener, type Receivers"
        let listen = "const listen: NativeMessageListener = (event) => { "
        try TypeScript.rejection(
            contract, imports: imports,
            bad: listen + #"const r = parseJSONFromNative(event.data); if (r.valid && r.kind === "usr") { } };"#,
            field: "usr")
        try TypeScript.rejection(
            contract, imports: imports,
            bad: listen + #"const r = parseJSONFromNative(event.data, { kind: "user" }); "#
                + "if (r.valid) { const n: number = r.message.name; void n; } };",
            field: "n")
        try TypeScript.rejection(
            contract, imports: imports, bad: listen + "const n: number = event.data; void n; };", field: "n")
        // No page function stands for window.dispatchEvent any more.
        try TypeScript.rejection(
            contract, imports: imports,
            bad: #"const receive: Receivers["window.dispatchEvent"] = (text) => { void text; };"#,
            field: "\"window.dispatchEvent\"")
    }

    @Test("the module posts the text, and parses native's text: the typed message, or the paths inside the text")
    func moduleSendsAndParses() throws {
        let runner = """
            import { postJSONToNative, parseJSONFromNative, BridgeContractError } from "./contract.mjs";
            const posted = [];
            globalThis.webkit = { messageHandlers: { ReactNativeWebView: { postMessage: (m) => { posted.push(m); } } } };
            const lines = [];
            const failure = (e) => (e instanceof BridgeContractError ? "" : "NOT A CONTRACT ERROR ") + e.message.split("\\n").slice(1).join(" | ");
            const described = (r) => r.valid ? JSON.stringify(r) : r.violations.map((v) => `${v.path} ${v.rule} ${v.found}`).join(" | ");
            postJSONToNative({ type: "getUser", id: "7", userId: "42" });
            try { postJSONToNative({ type: "getUser", id: "7", userId: 42 }); lines.push("posted a bad message"); } catch (e) { lines.push(failure(e)); }
            try { postJSONToNative({ type: "redy", version: 1 }); lines.push("posted an unknown kind"); } catch (e) { lines.push(failure(e)); }
            lines.push(JSON.stringify(posted));
            lines.push(described(parseJSONFromNative('{"type":"user","id":"7","name":"Ada"}')));
            lines.push(described(parseJSONFromNative('{"type":"user","id":"7","name":3}')));
            lines.push(described(parseJSONFromNative('{"type":"user","id":"7","name":3}', { kind: "user" })));
            lines.push(described(parseJSONFromNative("ready")));
            lines.push(described(parseJSONFromNative("ready", { kind: "user" })));
            lines.push(described(parseJSONFromNative({ type: "ping", id: "1" })));
            console.log(lines.join("\\n"));
            """
        let directory = try moduleDirectory(try TextContracts.contract("react-native-webview"), runner: runner)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Node.run(directory.appendingPathComponent("runner.mjs")).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "body(json).userId: expected String, found Number (wrong-type, page-to-native)",
                "body(json).type: expected one of: ready, getUser, pong, found String (unknown-kind, page-to-native)",
                #"["{\"type\":\"getUser\",\"id\":\"7\",\"userId\":\"42\"}"]"#,
                #"{"valid":true,"kind":"user","requestID":"7","message":{"type":"user","id":"7","name":"Ada"}}"#,
                "body(json).name wrong-type Number",
                "body(json).name wrong-type Number",
                "body not-json String",
                "body not-json String",
                "body wrong-type Object",
            ])
    }

    @Test("a contract without a message sent as JSON text gets the module and declarations it had, byte for byte")
    func otherContractsUnchanged() throws {
        let template = ContractModule.template
        let section = try #require(template.range(of: ContractModule.textSection))
        for example in LanguageContracts.all {
            let contract = try example.contract()
            if contract.messages.contains(where: \.jsonText) { continue }
            let module = ContractModule(contract: contract).source
            let declarations = TypeScriptDeclarations(contract: contract).source
            #expect(!module.contains("postJSONToNative") && !declarations.contains("JSONFromNative"))
            #expect(!declarations.contains("PostedAsText") && !declarations.contains("(message: string)"))
        }
        let text = try TextContracts.contract("react-native-webview")
        #expect(ContractModule(contract: text).source.hasSuffix(template[section.lowerBound...]))
    }
}
