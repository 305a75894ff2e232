import BridgeContract
import ContractTools
import Foundation
import Testing

/// Type-checks generated Swift types with `swiftc -typecheck` against the built BridgeContract module (nothing is
/// written: no output path a failing compiler could delete).
enum SwiftCompiler {
    static let executable = ToolRun.find("swiftc")

    /// The built modules: beside the test bundle (`.build/debug/Modules`).
    static var modules: URL? {
        #if os(macOS)
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
            .deletingLastPathComponent()
        #else
        let products: URL? = Bundle.main.bundleURL
        #endif
        guard let modules = products?.appendingPathComponent("Modules") else { return nil }
        let module = modules.appendingPathComponent("BridgeContract.swiftmodule")
        return FileManager.default.fileExists(atPath: module.path) ? modules : nil
    }

    /// The errors of `files` (name → source) type-checked together: `(file, line, message)`.
    static func errors(_ files: [String: String]) throws -> [(file: String, line: Int, message: String)] {
        guard let executable else { throw ToolRun.Failure(description: "swiftc is not on PATH") }
        guard let modules else { throw ToolRun.Failure(description: "the built BridgeContract module is not found") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swift-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, source) in files { try Data(source.utf8).write(to: directory.appendingPathComponent(name)) }
        let outcome = try ToolRun.run(
            executable, ["-typecheck", "-swift-version", "6", "-I", modules.path] + files.keys.sorted(),
            in: directory, timeout: 300)
        // `Use.swift:3:17: error: cannot convert …`
        let errors = (outcome.output + outcome.errors).split(separator: "\n").compactMap {
            line -> (String, Int, String)? in
            let parts = line.split(separator: ":", maxSplits: 3).map(String.init)
            guard parts.count == 4, parts[3].hasPrefix(" error:"), let row = Int(parts[1]) else { return nil }
            return ((parts[0] as NSString).lastPathComponent, row, parts[3])
        }
        if outcome.status != 0 && errors.isEmpty {
            throw ToolRun.Failure(
                description: "swiftc exited \(outcome.status) without an error line: \(outcome.errors)")
        }
        return errors
    }
}

@Suite(
    "Swift types of the contract",
    .enabled(if: SwiftCompiler.executable != nil && SwiftCompiler.modules != nil, "swiftc or the built module missing"))
struct SwiftTypesTests {
    @Test(
        "the generated types compile under Swift 6, for each contract language example",
        arguments: LanguageContracts.all + LanguageContracts.discriminatorPaths)
    func compiles(example: LanguageContracts.Example) throws {
        let errors = try SwiftCompiler.errors(["Types.swift": SwiftTypes(contract: try example.contract()).source])
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("code using the default contract's types compiles, and a wrong payload type does not")
    func wrongPayloadTypeDoesNotCompile() throws {
        let types = SwiftTypes(contract: .default)
        // The default value is called by its handler, "bridge": never the library's own BridgeContract.
        #expect(types.namespace == "BridgeContractTypes")
        // Named as the bundled file is.
        var contract = BridgeContract.default
        contract.name = "default"
        let source = SwiftTypes(contract: contract).source
        let correct = """
            import BridgeContract
            func use(_ body: Any) throws -> String {
                let sync = DefaultContract.NativeToPage.sync(DefaultContract.SyncMessage(value: "hello"))
                switch try DefaultContract.PageToNative(body: body) {
                case .ready: return try sync.receiverCall().script
                }
            }

            """
        #expect(try SwiftCompiler.errors(["Types.swift": source, "Use.swift": correct]).isEmpty)
        let wrong = """
            import BridgeContract
            let sync = DefaultContract.SyncMessage(value: 42)

            """
        let errors = try SwiftCompiler.errors(["Types.swift": source, "Use.swift": wrong])
        #expect(errors.count == 1 && errors.first?.file == "Use.swift" && errors.first?.line == 2, "\(errors)")
        #expect(errors.first?.message.contains("'Int'") == true && errors.first?.message.contains("'String'") == true)
    }

    @Test("names are Swift-safe and collision-free: odd kinds, keywords, fields that are no identifiers")
    func safeNames() throws {
        let contract = try BridgeContract(
            jsonData: Data(
                #"""
                {"version": 3, "name": "odd names", "handler": "h", "receiver": "window.r", "discriminator": "type",
                 "messages": [
                   {"kind": "a-b", "direction": "page-to-native", "fields": {"default": {"type": "string"},
                     "x y": {"type": "integer"}, "xY": {"type": "boolean"}, "self": {"type": "number"},
                     "1st": {"type": "string", "optional": true}, "kind": {"type": "string"}}},
                   {"kind": "aB", "direction": "page-to-native", "fields": {"String": {"type": "object", "fields": {
                     "String": {"type": "string"}}}}},
                   {"kind": "default", "direction": "native-to-page", "fields": {"\"\\\u2028": {"type": "string"}}},
                   {"kind": "9 lives */", "direction": "native-to-page", "body": {"type": "array", "items": {
                     "type": "object", "fields": {"n": {"type": "integer"}}}}}
                 ]}
                """#.utf8))
        let types = SwiftTypes(contract: contract)
        #expect(types.namespace == "OddNamesContract")
        for name in ["ABMessage", "AB2Message", "DefaultMessage", "M9LivesMessage", "public var xY2: Bool"] {
            #expect(types.source.contains(name), "\(name)")
        }
        #expect(types.source.contains("version 3") && types.source.contains("public static let version = 3"))
        let use = """
            import BridgeContract
            let first = OddNamesContract.ABMessage(_1st: nil, default: "d", kind: "k", self_: 1.5, xY: 1, xY2: true)
            let second = OddNamesContract.AB2Message(String: .init(String: "s"))
            let call = try? OddNamesContract.NativeToPage.`default`(.init(field: "f")).receiverCall()
            let lives = OddNamesContract.M9LivesMessage(value: [.init(n: 1)])

            """
        let errors = try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": use])
        #expect(errors.isEmpty, "\(errors)")
        let declarations = TypeScriptDeclarations(contract: contract).source
        #expect(declarations.contains("export interface ABMessage {") && declarations.contains("AB2Message"))
        #expect(declarations.contains(#""9 lives *\/""#))
    }

    @Test("a contract that dispatches an event: its types compile and build the contract that dispatches")
    func dispatchContractCompiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let contract = try BridgeContract.load(
            contentsOf: root.appendingPathComponent(
                "BridgeTestingTests/Fixtures/Protocols/react-native-webview/contract.json"))
        let types = SwiftTypes(contract: contract)
        // Said as the file says it: no receiver to call, the event instead.
        #expect(types.source.contains(#"handler: "ReactNativeWebView", dispatching: "message", on: "window","#))
        #expect(!types.source.contains("window.dispatchEvent"))
        let use = """
            import BridgeContract
            func ping() throws -> String {
                let contract: BridgeContract = ReactNativeWebviewContract.contract
                precondition(contract.dispatchedEvent?.event == "message")
                return try ReactNativeWebviewContract.NativeToPage.ping(.init(id: "n-1")).receiverCall().script
            }

            """
        let errors = try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": use])
        #expect(errors.isEmpty, "\(errors)")
        let wrong = """
            import BridgeContract
            let user = ReactNativeWebviewContract.UserMessage(id: "1", name: 7)

            """
        let refused = try SwiftCompiler.errors(["Types.swift": types.source, "Use.swift": wrong])
        #expect(refused.count == 1 && refused.first?.file == "Use.swift" && refused.first?.line == 2, "\(refused)")
    }
}
