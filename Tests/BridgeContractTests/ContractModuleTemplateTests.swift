import Foundation
import Testing

@testable import BridgeContract

/// The web side's module is JavaScript of its own, `Resources/ContractModule.js`: the library injects only the
/// contract, as JSON data, into its one slot.
@Suite("The JavaScript module's source", .enabled(if: Node.executable != nil, "node is not installed"))
struct ContractModuleTemplateTests {
    /// A scratch directory with `files` written into it.
    private func directory(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contract-js-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test("the resource is valid JavaScript, and a module without a contract refuses to load, saying how to make one")
    func templateIsJavaScript() throws {
        let scratch = try directory([
            "template.mjs": ContractModule.template,
            "runner.mjs": """
            try { await import("./template.mjs"); console.log("loaded"); } catch (e) { console.log(e.message); }
            """,
        ])
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try Node.run(scratch.appendingPathComponent("template.mjs"), options: ["--check"])
        let output = try Node.run(scratch.appendingPathComponent("runner.mjs"))
        #expect(
            output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "this module holds no contract: generate it with `webbridge contract js --contract FILE`")
    }

    @Test("the library writes only the contract, as JSON text, into the module's one slot")
    func onlyTheContractIsInjected() throws {
        let template = ContractModule.template
        let slot = try #require(template.range(of: ContractModule.slot))
        #expect(template[slot.upperBound...].range(of: ContractModule.slot) == nil, "the template has two slots")
        let before = template[..<slot.lowerBound]
        // A contract with no message sent as JSON text gets the template without its last part (the text's sender
        // and parser): the module it had before they were written.
        let end = template.range(of: ContractModule.textSection)?.lowerBound ?? template.endIndex
        let contracts = try [BridgeContract.default] + LanguageContracts.all.map { try $0.contract() }
        for contract in contracts {
            let text = contract.messages.contains(where: \.jsonText)
            let after = template[slot.upperBound..<(text ? template.endIndex : end)]
            let source = ContractModule(contract: contract).source
            #expect(source.hasPrefix(before) && source.hasSuffix(after), "\(contract.handler): text outside the slot")
            let literal = source.dropFirst(before.count).dropLast(after.count)
            // One JavaScript string, the JSON of the contract file and its rules: data, never code.
            let decoded = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
            let json = try #require(decoded?.first, "\(contract.handler): the slot holds no string")
            let injected = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(Set(injected.keys) == ["contract", "handlers", "discriminator", "defaultTransport", "messages"])
            let file = try JSONSerialization.data(withJSONObject: try #require(injected["contract"]))
            #expect(try BridgeContract(jsonData: file) == contract.protocolOnly)
        }
    }

    @Test("each message's rules in the module are the ones the Swift validator reads")
    func rulesAreTheLibrarys() throws {
        for example in LanguageContracts.all {
            let contract = try example.contract()
            let source = ContractModule(contract: contract).source
            let scratch = try directory([
                "contract.mjs": source,
                "runner.mjs": """
                import { MESSAGES } from "./contract.mjs";
                console.log(JSON.stringify(Object.entries(MESSAGES).map(([kind, m]) =>
                  [kind, m.handler, m.transport, m.call, m.carriesRequestID])));
                """,
            ])
            defer { try? FileManager.default.removeItem(at: scratch) }
            let output = try Node.run(scratch.appendingPathComponent("runner.mjs"))
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]])
            for (row, spec) in zip(rows, contract.messages) {
                let toNative = spec.direction == .pageToNative
                #expect(row[0] as? String == spec.kind)
                #expect(row[1] as? String == (toNative ? spec.handler : nil), "\(example) \(spec.kind)")
                #expect(row[2] as? String == (toNative ? spec.transport.rawValue : nil), "\(example) \(spec.kind)")
                #expect(row[3] as? String == (toNative ? nil : spec.call), "\(example) \(spec.kind)")
                #expect(row[4] as? Bool == contract.carriesRequestID(spec), "\(example) \(spec.kind)")
            }
            #expect(rows.count == contract.messages.count)
        }
    }
}
