import BridgeContract
import Foundation
import Testing

/// Positional arrays (tuples), `null` and `any`.
@Suite("Tuples, null and any")
struct ShapesTests {
    private func contract() throws -> BridgeContract { try LanguageContracts.positional.contract() }

    private func lines(_ validation: Validation) -> [String] {
        validation.violations.map { "\($0.path) \($0.rule.rawValue) \($0.expected) / \($0.found)" }
    }

    @Test("a tuple names the index in every violation")
    func tupleIndex() throws {
        let contract = try contract()
        #expect(contract.validate(["cb1", "Device", "getInfo", [Any]()]).message?.kind == "exec")
        #expect(contract.validate(["cb1", "Camera", "take", [1, NSNull(), ["a": true]]]).message?.kind == "exec")
        #expect(
            lines(contract.validate(["cb1", "Device", "getInfo", "x"])) == ["body[3] wrong-type Array of Any / String"])
        #expect(
            lines(contract.validate(["cb1", "Device", 7])) == [
                "body[2] wrong-type String / Number", "body[3] missing-field Array of Any / Missing",
            ])
        #expect(
            lines(contract.validate(["a", "b", "c", [Any](), true])) == [
                "body[4] unexpected-field no such element / Boolean"
            ])
        #expect(contract.validate(["a", "b", "c", [Any](), true], mode: .lenient).message?.kind == "exec")
        let result = try #require(contract.message("result", direction: .nativeToPage))
        let body: [String: Any] = [
            "kind": "result", "status": 1, "message": "m", "keepCallback": true, "error": NSNull(), "args": ["a", "2"],
        ]
        #expect(lines(contract.validate(body, as: result)) == ["args[1] wrong-type Integer / String"])
    }

    @Test("null is a type and a constant; any takes every value that is there")
    func nullAndAny() throws {
        let contract = try contract()
        #expect(contract.validate(NSNull()).message?.kind == "gap")
        let result = try #require(contract.message("result", direction: .nativeToPage))
        var body: [String: Any] = [
            "kind": "result", "status": 1, "message": ["x": [1, "y"]], "keepCallback": true, "error": NSNull(),
            "args": ["a", 2],
        ]
        let valid = try #require(contract.validate(body, as: result).message)
        #expect(valid.fields["error"] == .null)
        #expect(valid.fields["message"] == .object(["x": .array([.number(1), .string("y")])]))
        body["error"] = "boom"
        body["message"] = NSNull()
        #expect(lines(contract.validate(body, as: result)) == ["error wrong-type Null / String"])
        body.removeValue(forKey: "message")
        body["error"] = NSNull()
        #expect(lines(contract.validate(body, as: result)) == ["message missing-field Any / Missing"])
        // A match on null names the message; another value does not.
        #expect(
            contract.validate(["kind": "done", "error": NSNull(), "code": NSNull()], direction: .nativeToPage).message?
                .kind == "done")
        #expect(
            lines(contract.validate(["kind": "done", "error": NSNull(), "code": 0], direction: .nativeToPage)) == [
                "code wrong-type Null / Number"
            ])
    }

    @Test("the file round-trips, and a list of items on an array is refused with the tuple as remedy")
    func definitions() throws {
        let contract = try contract()
        #expect(try BridgeContract(jsonData: contract.jsonData()) == contract)
        let json = ContractLanguageTests.file(
            #"{"kind": "a", "direction": "page-to-native", "body": {"type": "array", "items": [{"type": "string"}]}}"#)
        do {
            _ = try BridgeContract(jsonData: Data(json.utf8))
            Issue.record("accepted a list of items on an array")
        } catch {
            #expect("\(error)".contains("messages[0].body.items: an array's items is the one type of every element"))
            #expect("\(error)".contains(#"{"type": "tuple", "items": [{…}, {…}]}"#))
        }
        let typeList = ContractLanguageTests.file(
            #"{"kind": "a", "direction": "page-to-native", "fields": {"x": {"type": "nul"}}}"#)
        #expect(throws: (any Error).self) { try BridgeContract(jsonData: Data(typeList.utf8)) }
        // A null constant loads (it was refused with "write a JSON scalar").
        let constant = ContractLanguageTests.file(
            #"{"kind": "a", "direction": "page-to-native", "fields": {"x": {"type": "constant", "value": null}}}"#)
        #expect(try BridgeContract(jsonData: Data(constant.utf8)).messages[0].fields["x"]?.type == .constant(.null))
        // A constant is one JSON value, but only a scalar: an array or object names its own type.
        for (json, path) in [
            (#""fields": {"x": {"type": "constant", "value": [1]}}"#, "messages[0].fields.x.value"),
            (#""match": {"kind": {"a": 1}}"#, "messages[0].match.kind"),
        ] {
            let file = ContractLanguageTests.file(#"{"kind": "a", "direction": "page-to-native", \#(json)}"#)
            #expect(throws: (any Error).self) { try BridgeContract(jsonData: Data(file.utf8)) }
            do {
                _ = try BridgeContract(jsonData: Data(file.utf8))
            } catch {
                #expect("\(error)".contains("\(path): a constant must be a string, a number, a boolean or null"))
            }
        }
    }

    @Test("Docs/CONTRACT.md's tuple example loads, and the violation it shows is the library's own")
    func documented() throws {
        let block = try ContractDocumentationTests.block(after: "### Tuples, null and any")
        let contract = try BridgeContract(
            jsonData: Data(ContractLanguageTests.file(block).utf8))
        let violations = contract.validate(["cb1", "Device", "getInfo", "x"]).violations
        let document = try #require(ContractDocumentationTests.document)
        #expect(violations.count == 1)
        for violation in violations {
            let shown = violation.description.components(separatedBy: ". Remedy:")[0]
            #expect(document.contains("\n\(shown)\n"), "\(shown)")
        }
    }
}
