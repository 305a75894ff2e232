import BridgeContract
import ContractTools
import Foundation
import Testing

@Suite("The contract file")
struct BridgeContractFileTests {
    @Test("the bundled DefaultContract.json is the default contract, in canonical form")
    func bundledDefault() throws {
        let url = try #require(BridgeContract.defaultContractURL)
        #expect(try BridgeContract.load(contentsOf: url) == .default)
        #expect(try Data(contentsOf: url) == BridgeContract.default.jsonData())
    }

    @Test("the default contract is the documented one: ready {version: 1}, sync {value: String}")
    func defaultIsDesign() throws {
        let contract = BridgeContract.default
        #expect(contract.version == 1)
        #expect(contract.handler == "bridge")
        #expect(contract.receiver == "window.bridgeReceive")
        #expect(contract.requestID == nil)
        #expect(
            contract.message("ready", direction: .pageToNative)?.fields == ["version": FieldSpec(.constant(.number(1)))]
        )
        #expect(contract.message("sync", direction: .nativeToPage)?.fields == ["value": FieldSpec(.string)])
        #expect(contract.messages.count == 2)
    }

    @Test("a contract with every feature survives a round trip through its file")
    func roundTrip() throws {
        let text = typedContract.jsonData()
        #expect(try BridgeContract(jsonData: text) == typedContract)
        #expect(try BridgeContract(jsonData: text).jsonData() == text)
    }

    struct BadFile: Sendable, CustomStringConvertible {
        let name: String
        let json: String
        let code: ContractError.Code
        let path: String
        var description: String { name }
    }

    static let minimal = #""handler": "bridge", "receiver": "window.bridgeReceive", "version": 1"#
    static func file(_ messages: String, extra: String = "") -> String {
        "{\(minimal), \"messages\": [\(messages)]\(extra)}"
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "not JSON", json: "{", code: .notJSON, path: ""),
        BadFile(name: "a JSON array", json: "[]", code: .wrongType, path: ""),
        BadFile(
            name: "missing handler", json: #"{"receiver": "r", "version": 1, "messages": []}"#, code: .missingKey,
            path: "handler"),
        BadFile(
            name: "version a string", json: #"{"handler": "b", "receiver": "r", "version": "1", "messages": []}"#,
            code: .wrongType, path: "version"),
        BadFile(
            name: "version 0", json: #"{"handler": "b", "receiver": "r", "version": 0, "messages": []}"#,
            code: .invalidValue, path: "version"),
        BadFile(
            name: "unknown top-level key", json: file("", extra: #", "verison": 2"#), code: .unknownKey, path: "verison"
        ),
        BadFile(
            name: "receiver not a script name",
            json: #"{"handler": "b", "receiver": "alert(1)", "version": 1, "messages": []}"#, code: .invalidValue,
            path: "receiver"),
        BadFile(
            name: "empty handler", json: #"{"handler": "", "receiver": "r", "version": 1, "messages": []}"#,
            code: .invalidValue, path: "handler"),
        BadFile(name: "name a number", json: file("", extra: #", "name": 1"#), code: .wrongType, path: "name"),
        BadFile(name: "name empty", json: file("", extra: #", "name": " ""#), code: .invalidValue, path: "name"),
        BadFile(
            name: "name on two lines", json: file("", extra: #", "name": "a\nPASS""#), code: .invalidValue,
            path: "name"),
        BadFile(
            name: "unknown direction", json: file(#"{"kind": "ready", "direction": "up"}"#), code: .invalidValue,
            path: "messages[0].direction"),
        BadFile(
            name: "unknown field type",
            json: file(#"{"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "strng"}}}"#),
            code: .invalidValue, path: "messages[0].fields.version.type"),
        BadFile(
            name: "misspelt optional",
            json: file(
                #"{"kind": "ready", "direction": "page-to-native", "fields": {"v": {"type": "string", "optinal": true}}}"#
            ),
            code: .unknownKey, path: "messages[0].fields.v.optinal"),
        BadFile(
            name: "constant without value",
            json: file(
                #"{"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant"}}}"#),
            code: .missingKey, path: "messages[0].fields.version.value"),
        BadFile(
            name: "constant an object",
            json: file(
                #"{"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": {}}}}"#
            ),
            code: .wrongType, path: "messages[0].fields.version.value"),
        BadFile(
            name: "value on a string field",
            json: file(
                #"{"kind": "ready", "direction": "page-to-native", "fields": {"v": {"type": "string", "value": 1}}}"#),
            code: .unknownKey, path: "messages[0].fields.v.value"),
        BadFile(
            name: "array without items",
            json: file(#"{"kind": "ready", "direction": "page-to-native", "fields": {"v": {"type": "array"}}}"#),
            code: .missingKey, path: "messages[0].fields.v.items"),
        BadFile(
            name: "duplicate kind",
            json: file(#"{"kind": "a", "direction": "page-to-native"}, {"kind": "a", "direction": "native-to-page"}"#),
            code: .invalidValue, path: "messages[1].kind"),
        BadFile(
            name: "kind declared as a field",
            json: file(#"{"kind": "a", "direction": "page-to-native", "fields": {"kind": {"type": "string"}}}"#),
            code: .invalidValue, path: "messages[0].fields.kind"),
        BadFile(
            name: "acknowledges without a request id",
            json: file(
                #"{"kind": "a", "direction": "page-to-native"}, {"kind": "b", "direction": "native-to-page", "acknowledges": "a"}"#
            ),
            code: .invalidValue, path: "messages[1].acknowledges"),
        BadFile(
            name: "acknowledges a kind of the same direction",
            json: file(
                #"{"kind": "a", "direction": "page-to-native"}, {"kind": "b", "direction": "page-to-native", "acknowledges": "a"}"#,
                extra: #", "requestID": {"field": "id"}"#),
            code: .invalidValue, path: "messages[1].acknowledges"),
    ]

    @Test("a broken contract file is refused, naming the JSON path and a remedy", arguments: badFiles)
    func badFile(_ bad: BadFile) {
        do {
            _ = try BridgeContract(jsonData: Data(bad.json.utf8))
            Issue.record("accepted \(bad.name)")
        } catch {
            #expect(error.code == bad.code)
            #expect(error.path == bad.path)
            #expect(!error.remedy.isEmpty)
            #expect(error.description.contains("Remedy: "))
            if !bad.path.isEmpty { #expect(error.description.hasPrefix(bad.path + ": ")) }
        }
    }

    /// A new empty directory for files a test writes.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("loading names the file, and a missing file is unreadable and said to be missing")
    func loadNamesFile() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("bridge.json")
        #expect(
            throws: ContractError(
                code: .unreadable, file: url.path, path: "", problem: "the contract file does not exist",
                remedy: "check that the path exists and is readable")
        ) { try BridgeContract.load(contentsOf: url) }
        try Data(#"{"version": 1, "handler": 1, "receiver": "r", "messages": []}"#.utf8).write(to: url)
        do {
            _ = try BridgeContract.load(contentsOf: url)
            Issue.record("accepted a broken file")
        } catch {
            #expect(error.description.hasPrefix("\(url.path): handler: expected string (wrong-type). Remedy: "))
        }
    }

    @Test("a contract's name: its file's \"name\", else the file's base name, else its handler; never locked")
    func name() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unnamed = directory.appendingPathComponent("checkout.json")
        try BridgeContract.default.jsonData().write(to: unnamed)
        let loaded = try BridgeContract.load(contentsOf: unnamed)
        #expect(loaded.name == nil && loaded.displayName == "checkout")
        // The file it came from is not part of the contract.
        #expect(loaded == .default)
        #expect(BridgeContract.default.displayName == "bridge")
        #expect(try BridgeContract(jsonData: BridgeContract.default.jsonData()).displayName == "bridge")
        var named = BridgeContract.default
        named.name = "Checkout bridge"
        let text = named.jsonData()
        #expect(String(decoding: text, as: UTF8.self).contains(#""name" : "Checkout bridge""#))
        let namedFile = directory.appendingPathComponent("bridge.json")
        try text.write(to: namedFile)
        let reloaded = try BridgeContract.load(contentsOf: namedFile)
        #expect(reloaded == named && reloaded.displayName == "Checkout bridge")
        #expect(reloaded.jsonData() == text)
        // Not protocol: the lock never records it, the diff never compares it.
        #expect(ContractLock(contract: named).jsonData() == ContractLock(contract: .default).jsonData())
        let diff = ContractDiff(locked: .default, current: named)
        #expect(diff.changes.isEmpty && !diff.lockIsStale)
    }

    @Test("a name of the wrong type is refused, naming the field, the rule and the remedy")
    func nameOfTheWrongType() {
        do {
            _ = try BridgeContract(jsonData: Data(Self.file("", extra: #", "name": ["checkout"]"#).utf8))
            Issue.record("accepted a name that is an array")
        } catch {
            #expect(
                error.description
                    == "name: expected string (wrong-type). Remedy: write a string here; see Docs/CONTRACT.md for the file format"
            )
        }
    }
}
