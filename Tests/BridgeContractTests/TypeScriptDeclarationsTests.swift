import BridgeContract
import ContractTools
import Foundation
import Testing

/// Runs Debian's `tsc --strict --noEmit` on a page written against the generated module and its declarations.
enum TypeScript {
    static let compiler = ToolRun.find("tsc")

    /// One error tsc reported: where in the page, and its text.
    struct Diagnostic: CustomStringConvertible {
        let line: Int
        let column: Int
        let message: String
        var description: String { "page.mts(\(line),\(column)): \(message)" }
    }

    /// The page's errors: empty when it compiles. The module, its declarations and the page share a directory.
    /// The text of the one inline `<script>` of an HTML page.
    static func inlineScript(of page: URL) throws -> String {
        let html = try String(contentsOf: page, encoding: .utf8)
        guard let start = html.range(of: "<script>")?.upperBound, let end = html.range(of: "</script>")?.lowerBound
        else { throw ToolRun.Failure(description: "\(page.lastPathComponent) has no inline script") }
        return String(html[start..<end])
    }

    /// With `javaScript`, the page is `page.mjs`, checked with `--allowJs --checkJs` (its types in JSDoc).
    static func errors(
        _ contract: BridgeContract, page: String, javaScript: Bool = false, module: String = "bridge-contract"
    ) throws -> [Diagnostic] {
        guard let compiler else { throw ToolRun.Failure(description: "tsc is not installed (scripts/setup.sh)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contract-ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(ContractModule(contract: contract).source.utf8)
            .write(to: directory.appendingPathComponent("\(module).mjs"))
        try Data(TypeScriptDeclarations(contract: contract).source.utf8)
            .write(to: directory.appendingPathComponent("\(module).d.mts"))
        let file = javaScript ? "page.mjs" : "page.mts"
        try Data(page.utf8).write(to: directory.appendingPathComponent(file))
        let outcome = try ToolRun.run(
            compiler,
            ["--strict", "--noEmit", "--pretty", "false", "--module", "nodenext", "--target", "es2020", file]
                + (javaScript ? ["--allowJs", "--checkJs"] : []),
            in: directory)
        // `page.mts(3,16): error TS2322: …`, then indented lines that continue it.
        var diagnostics: [Diagnostic] = []
        for line in outcome.output.split(separator: "\n").map(String.init) {
            if line.hasPrefix(" "), let last = diagnostics.popLast() {
                diagnostics.append(
                    Diagnostic(line: last.line, column: last.column, message: last.message + "\n" + line))
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            let position = parts.first?.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: ",")
            guard parts.count == 2, let position, position.count == 2, let row = Int(position[0]),
                let column = Int(position[1])
            else {
                throw ToolRun.Failure(description: "tsc printed what is no diagnostic of the page: \(line)")
            }
            diagnostics.append(Diagnostic(line: row, column: column, message: parts[1]))
        }
        if outcome.status != 0 && diagnostics.isEmpty {
            throw ToolRun.Failure(description: "tsc exited \(outcome.status) without a diagnostic: \(outcome.errors)")
        }
        return diagnostics
    }

    /// The errors of a page whose line `bad` is wrong: all on that line, one naming `field` (the error is at the
    /// field, or its text names it).
    static func rejection(_ contract: BridgeContract, imports: String, bad: String, field: String) throws {
        let page =
            "import { \(imports) } from \"./bridge-contract.mjs\";\nasync function page() {\n\(bad)\n}\nexport { page };\n"
        let errors = try TypeScript.errors(contract, page: page)
        #expect(
            !errors.isEmpty && errors.allSatisfy { $0.line >= 3 && $0.line < 3 + bad.split(separator: "\n").count },
            "\(bad): \(errors)")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let named = errors.contains { error in
            let line = error.line >= 1 && error.line <= lines.count ? String(lines[error.line - 1]) : ""
            let at = line.dropFirst(max(0, error.column - 1))
            return at.hasPrefix(field) || error.message.contains("'\(field)'")
                || error.message.contains("'\"\(field)\"'")
        }
        #expect(named, "\(bad): the error does not name \(field): \(errors)")
    }
}

/// A page that uses every message of `example` as the contract allows: each valid body as its type, posted or
/// prompted, each reply as its type, each native → page body handed to its typed receiver.
private func correctPage(_ example: LanguageContracts.Example, _ contract: BridgeContract) -> String {
    let text = contract.messages.contains(where: \.jsonText)
    var lines = [
        "import { postToNative, promptToNative, \(text ? "postJSONToNative, " : "")type Messages, type Replies, "
            + "type Receivers } from \"./bridge-contract.mjs\";",
        "export async function page(): Promise<void> {",
    ]
    for (kind, bodies) in example.valid.sorted(by: { $0.key < $1.key }) {
        let literal = ReceiverCall.stringLiteral(kind)
        for body in bodies {
            // A message sent as JSON text is typed as the message inside its text; it travels as the text.
            let spec =
                contract.message(kind, direction: .pageToNative) ?? contract.message(kind, direction: .nativeToPage)
            let message = spec?.jsonText == true ? (jsonTextContent(body) ?? body) : body
            lines.append("  { const message: Messages[\(literal)] = \(message); void message; }")
            if let spec = contract.message(kind, direction: .pageToNative) {
                let send =
                    spec.jsonText ? "postJSONToNative" : spec.transport == .prompt ? "promptToNative" : "postToNative"
                lines.append("  \(send)(\(message));")
            } else if let spec = contract.message(kind, direction: .nativeToPage) {
                let call = ReceiverCall.stringLiteral(spec.call)
                lines.append("  { const receive: Receivers[\(call)] = (message) => message; receive(\(body)); }")
            }
        }
    }
    for (kind, replies) in example.replies.sorted(by: { $0.key < $1.key }) {
        for reply in replies {
            lines.append("  { const reply: Replies[\(ReceiverCall.stringLiteral(kind))] = \(reply); void reply; }")
        }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
}

/// The JSON inside `body`, a JSON string literal whose text is JSON: the message a JSON-text message carries.
private func jsonTextContent(_ body: String) -> String? {
    guard let text = try? JSONDecoder().decode(String.self, from: Data(body.utf8)) else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) == nil ? nil : text
}

@Suite(
    "TypeScript declarations of the contract module",
    .enabled(if: TypeScript.compiler != nil, "tsc is not installed (scripts/setup.sh installs node-typescript)"))
struct TypeScriptDeclarationsTests {
    @Test(
        "a page using every message as its contract allows compiles under tsc --strict",
        arguments: LanguageContracts.all + LanguageContracts.discriminatorPaths)
    func correctPageCompiles(example: LanguageContracts.Example) throws {
        let contract = try example.contract()
        let errors = try TypeScript.errors(contract, page: correctPage(example, contract))
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("tuples, null and any: a correct page compiles; a wrong element or a non-null null does not")
    func positionalShapes() throws {
        let example = LanguageContracts.positional
        let contract = try example.contract()
        let errors = try TypeScript.errors(contract, page: correctPage(example, contract))
        #expect(errors.isEmpty, "\(errors)")
        try TypeScript.rejection(
            contract, imports: "postToNative", bad: #"postToNative(["cb1", "Device", 3, []]);"#, field: "3")
        try TypeScript.rejection(
            contract, imports: "type Messages",
            bad: #"const r: Messages["result"] = { kind: "result", status: 1, message: 1, keepCallback: true, "#
                + #"error: "x", args: ["a", 2] }; void r;"#,
            field: "error")
    }

    @Test("the default contract's page compiles: the fixture's ready and receiver")
    func defaultPageCompiles() throws {
        let page = """
            import { postToNative, validateFromNative, describeViolations, CONTRACT_VERSION, type Receivers } from "./bridge-contract.mjs";
            const receive: Receivers["window.bridgeReceive"] = (message) => {
              const result = validateFromNative(message);
              if (!result.valid) throw new Error(describeViolations(result.violations));
              const text: string = message.value;
              return text;
            };
            postToNative({ kind: "ready", version: CONTRACT_VERSION });
            export { receive };

            """
        #expect(try TypeScript.errors(.default, page: page).isEmpty)
    }

    @Test("a misspelt kind does not compile")
    func misspeltKind() throws {
        try TypeScript.rejection(
            .default, imports: "postToNative", bad: #"postToNative({ kind: "redy", version: 1 });"#, field: "kind")
        try TypeScript.rejection(
            try LanguageContracts.hotwire.contract(), imports: "postToNative",
            bad: #"postToNative({ component: "from", event: "connect", id: "1", data: {}});"#, field: "component")
    }

    @Test("a field of the wrong type does not compile, nested too")
    func wrongFieldType() throws {
        try TypeScript.rejection(
            .default, imports: "postToNative", bad: #"postToNative({ kind: "ready", version: "1" });"#, field: "version"
        )
        try TypeScript.rejection(
            try LanguageContracts.custom.contract(), imports: "postToNative",
            bad: #"postToNative({ type: "hello", payload: { appVersion: "2", features: "a" } });"#, field: "features")
    }

    @Test("a missing required field does not compile")
    func missingField() throws {
        try TypeScript.rejection(
            .default, imports: "postToNative", bad: #"postToNative({ kind: "ready" });"#, field: "version")
        try TypeScript.rejection(
            try LanguageContracts.capacitor.contract(), imports: "postToNative",
            bad: #"postToNative({ type: "js.error", error: { message: "m", url: "u", line: 1, col: 2 } });"#,
            field: "errorObject")
    }

    @Test("a field the contract does not declare does not compile")
    func extraField() throws {
        try TypeScript.rejection(
            .default, imports: "postToNative", bad: #"postToNative({ kind: "ready", version: 1, extra: true });"#,
            field: "extra")
        // Declared by another message of the union, not by this one.
        try TypeScript.rejection(
            try LanguageContracts.replyHandler.contract(), imports: "postToNative",
            bad: #"postToNative({ kind: "ready", version: 1, userId: 7 });"#, field: "userId")
    }

    @Test("a reply used as another type does not compile: reply handler, prompt, answer of a request")
    func wrongReply() throws {
        try TypeScript.rejection(
            try LanguageContracts.replyHandler.contract(), imports: "postToNative",
            bad: #"const admin: string = (await postToNative({ kind: "getUser", userId: 7 })).admin; void admin;"#,
            field: "admin")
        try TypeScript.rejection(
            try LanguageContracts.capacitor.contract(), imports: "promptToNative",
            bad: #"const on: boolean = promptToNative({ type: "CapacitorCookies.isEnabled" }); void on;"#, field: "on")
        try TypeScript.rejection(
            try LanguageContracts.hotwire.contract(), imports: "type AnswerOf, type FormConnectMessage",
            bad: """
                const answer = (request: FormConnectMessage): AnswerOf<FormConnectMessage> =>
                  ({ component: "form", event: "connect", id: request.id, data: { title: 1 } }); void answer;
                """, field: "title")
    }

    @Test("Examples/Checkout's page type-checks against its contract; the page sending items as text does not")
    func checkoutPage() throws {
        // Checked here, outside the example's engine tests: a compiler started inside an engine process can meet
        // JavaScriptCore's thread suspension.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Checkout")
        let contract = try BridgeContract.load(
            contentsOf: checkout.appendingPathComponent("Sources/CheckoutBridge/Resources/checkout-contract.json"))
        func script(_ page: String) throws -> String {
            try TypeScript.inlineScript(
                of: checkout.appendingPathComponent("Tests/CheckoutBridgeTests/Fixtures/\(page)"))
        }
        #expect(
            try TypeScript.errors(
                contract, page: script("checkout.html"), javaScript: true, module: "checkout-contract"
            ).isEmpty)
        let text = try script("checkout-items-as-text.html")
        let errors = try TypeScript.errors(contract, page: text, javaScript: true, module: "checkout-contract")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains(#"items: "3""#) })
        let items = try #require(lines[row].range(of: "items")).lowerBound
        // At the field: line and column of `items` in the page's script.
        #expect(errors.count == 1 && errors.first?.line == row + 1, "\(errors)")
        #expect(errors.first?.column == lines[row].distance(from: lines[row].startIndex, to: items) + 1, "\(errors)")
    }

    @Test(
        "the engine proof's pages type-check against their contracts, and fail with a field broken",
        arguments: ["default", "hotwire", "capacitor"])
    func typedPages(name: String) throws {
        let typedCode = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TypedCodeTests")
        let contract = try BridgeContract.load(
            contentsOf: typedCode.appendingPathComponent("Contracts/\(name)-contract.json"))
        let script = try TypeScript.inlineScript(of: typedCode.appendingPathComponent("Pages/\(name).html"))
        #expect(try TypeScript.errors(contract, page: script, javaScript: true).isEmpty)
        // The page's typed message with one field of another type.
        let breaks = [
            #"version: 1 }"#: #"version: "1" }"#, "submitTitle: components": "submitTitle: 1 || components",
            #"level: "info""#: "level: 1",
        ]
        let broken = try #require(breaks.first { script.contains($0.key) })
        let errors = try TypeScript.errors(
            contract, page: script.replacingOccurrences(of: broken.key, with: broken.value), javaScript: true)
        #expect(errors.count == 1, "\(errors)")
    }

    @Test("the declarations name the contract version, as the module does")
    func namesVersion() throws {
        let source = TypeScriptDeclarations(contract: try LanguageContracts.custom.contract()).source
        #expect(source.contains("export declare const CONTRACT_VERSION: 2;"))
        #expect(source.contains("version 2"))
    }

    @Test("a contract of 120 messages: a correct page compiles; a misspelt kind and a wrong field type do not")
    func manyMessages() throws {
        // Real bridges have 50 and more messages; a union of them once made tsc 4.8 refuse every call (TS2590).
        var messages = (0..<120).map { index in
            #"{"kind": "event\#(index)", "direction": "page-to-native", "fields": {"count": {"type": "integer"}, "#
                + #""label": {"type": "string"}, "meta": {"type": "object", "fields": {"flag": {"type": "boolean"}}}}}"#
        }
        messages.append(#"{"kind": "ask", "direction": "page-to-native", "fields": {}, "reply": {"type": "string"}}"#)
        let contract = try BridgeContract(
            jsonData: Data(
                #"{"version": 1, "handler": "h", "receiver": "window.r", "discriminator": "kind", "messages": [\#(messages.joined(separator: ", "))]}"#
                    .utf8))
        let page = """
            import { postToNative } from "./bridge-contract.mjs";
            postToNative({ kind: "event7", count: 1, label: "a", meta: { flag: true } });
            postToNative({ kind: "evnt7", count: 1, label: "a", meta: { flag: true } });
            postToNative({ kind: "event119", count: "1", label: "a", meta: { flag: true } });
            postToNative({ kind: "event0", count: 1, label: "a", meta: { flag: 1 } });
            postToNative({ kind: "event1", count: 1, label: "a", meta: { flag: true }, extra: 1 });
            const reply: string = await postToNative({ kind: "ask" });
            export { reply };

            """
        let errors = try TypeScript.errors(contract, page: page)
        #expect(!errors.contains { $0.message.contains("TS2590") }, "\(errors)")
        // One error on each broken line, at the field: line 3 `kind`, 4 `count`, 5 `flag`, 6 `extra`.
        #expect(errors.map(\.line) == [3, 4, 5, 6], "\(errors)")
        #expect(errors.map(\.column) == [16, 34, 62, 76], "\(errors)")
    }
}
