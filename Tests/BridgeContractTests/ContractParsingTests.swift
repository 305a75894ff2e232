import BridgeContract
import ContractTools
import Foundation
import Testing

/// Valid JSON that the decoder alone reads wrongly or refuses as "not valid JSON": each gets its own rule and path.
@Suite("Contract and lock parsing")
struct ContractParsingTests {
    /// The default contract's text with `version` written as `version` (raw JSON) and `extra` members appended.
    static func contract(version: String = "1", ready: String = #""version": {"type": "constant", "value": 1}"#)
        -> String
    {
        """
        {"version": \(version), "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [
          {"kind": "ready", "direction": "page-to-native", "fields": {\(ready)}},
          {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}
        ]}
        """
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let json: String
        let code: ContractError.Code
        let path: String
        let problem: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a duplicate key at the top", json: contract(version: #"2, "version": 1"#), code: .invalidValue,
            path: "version", problem: #"the key "version" appears more than once in this object"#),
        Case(
            name: "a duplicate key deep inside",
            json: contract(ready: #""version": {"type": "constant", "value": 1, "type": "string"}"#),
            code: .invalidValue, path: "messages[0].fields.version.type",
            problem: #"the key "type" appears more than once in this object"#),
        Case(
            name: "a duplicate key spelled with an escape",
            json: contract(ready: #""version": {"type": "constant", "value": 1}, "vers\u0069on": {"type": "string"}"#),
            code: .invalidValue, path: "messages[0].fields.version",
            problem: #"the key "version" appears more than once in this object"#),
        Case(
            name: "a version with a fraction", json: contract(version: "1.5"), code: .wrongType, path: "version",
            problem: "expected an integer, found a number with a fraction or exponent"),
        Case(
            name: "a version beyond 64 bits", json: contract(version: "9223372036854775808"), code: .invalidValue,
            path: "version", problem: "the integer does not fit in 64 bits (the largest is 9223372036854775807)"),
        Case(
            name: "a number beyond a double",
            json: contract(ready: #""version": {"type": "constant", "value": 1e400}"#),
            code: .invalidValue, path: "messages[0].fields.version.value",
            problem: "the number is beyond the range of a double-precision number"),
        Case(
            name: "objects nested 255 deep",
            json: contract(
                ready: String(repeating: #""a": {"#, count: 255) + String(repeating: "}", count: 255)),
            code: .invalidValue, path: "messages[0].fields" + String(repeating: ".a", count: 61),
            problem: "the JSON nests deeper than 64 levels"),
        Case(
            name: "a syntax error", json: "{\"version\": 1,\n  \"handler\": bridge}", code: .notJSON, path: "",
            problem: "the file is not valid JSON: expected a value at line 2, column 14"),
    ]

    @Test("valid JSON the decoder misreads gets the real rule and path", arguments: cases)
    func contractCase(_ check: Case) {
        do {
            _ = try BridgeContract(jsonData: Data(check.json.utf8))
            Issue.record("accepted \(check.name)")
        } catch {
            #expect(error.code == check.code, "\(error)")
            #expect(error.path == check.path, "\(error)")
            #expect(error.problem == check.problem, "\(error)")
            #expect(!error.problem.contains("not valid JSON") || check.code == .notJSON, "\(error)")
        }
    }

    @Test("another encoding, invalid UTF-8 or a lone surrogate is named, with where it is")
    func encodingCases() throws {
        let text = Self.contract()
        var invalid = Data(text.utf8)
        let at = try #require(invalid.firstIndex(of: UInt8(ascii: "R")))
        invalid[at] = 0xC3
        invalid[at + 1] = 0x28
        let cases: [(name: String, data: Data, says: [String])] = [
            ("UTF-16 with a byte-order mark", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!, ["UTF-16"]),
            ("UTF-16 without a mark", text.data(using: .utf16BigEndian)!, ["UTF-16"]),
            ("invalid UTF-8", invalid, ["not valid UTF-8", "line 1, column \(at + 1)"]),
            (
                "a lone surrogate",
                Data(Self.contract(ready: #""version": {"type": "constant", "value": "\ud800"}"#).utf8),
                ["lone UTF-16 surrogate", "line 2, column "]
            ),
        ]
        for check in cases {
            do {
                _ = try BridgeContract(jsonData: check.data)
                Issue.record("accepted \(check.name)")
            } catch {
                #expect(error.code == .notJSON, "\(check.name): \(error)")
                for words in check.says {
                    #expect(error.problem.contains(words), "\(check.name): \(error)")
                }
            }
        }
    }

    @Test("a lock file gets the same rules, with the path inside it")
    func lockCase() throws {
        let lock = String(decoding: ContractLock(contract: .default).jsonData(), as: UTF8.self)
        let duplicated = lock.replacingOccurrences(
            of: #""lockFormat" : 1"#, with: #""lockFormat" : 1, "lockFormat" : 2"#)
        #expect(duplicated != lock, "the lock format changed: update this test")
        #expect(throws: ContractError.self) { try ContractLock(jsonData: Data(duplicated.utf8)) }
        do {
            _ = try ContractLock(jsonData: Data(duplicated.utf8))
        } catch {
            #expect(error.path == "lockFormat")
        }
        let fractional = lock.replacingOccurrences(of: #""lockFormat" : 1"#, with: #""lockFormat" : 1.5"#)
        do {
            _ = try ContractLock(jsonData: Data(fractional.utf8))
            Issue.record("accepted lockFormat 1.5")
        } catch {
            #expect(error.path == "lockFormat" && error.code == .wrongType, "\(error)")
        }
    }

    @Test("the default contract and a nested but shallow contract still load")
    func validStillLoads() throws {
        #expect(try BridgeContract(jsonData: Data(Self.contract().utf8)) == .default)
        #expect(try BridgeContract(jsonData: BridgeContract.default.jsonData()) == .default)
    }
}
