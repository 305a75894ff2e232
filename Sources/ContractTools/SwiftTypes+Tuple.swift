import BridgeContract

extension SwiftTypeWriter {
    /// A positional array's struct: one property per position (`item0`, `item1`, …), read from and written as
    /// the array, each element typed (Cordova's `[callbackId, service, action, args]`).
    func tuple(_ items: [FieldType], field: String, taken: inout Set<String>) -> (String, [String]) {
        let name = TypedNames.unique(TypedNames.upperCamel(field), suffix: "Tuple", &taken)
        var inner = self.taken
        var nested: [String] = []
        var properties: [Property] = []
        for (index, item) in items.enumerated() {
            let (swift, decls) = swiftType(item, field: "\(field) item \(index)", taken: &inner)
            nested += decls
            properties.append(
                Property(name: "item\(index)", type: swift, role: .body, optional: false, doc: "Element [\(index)]."))
        }
        var lines = [
            "", "/// The positional array in \(Self.literal(field)).",
            "public struct \(name): ContractValue, Equatable {",
        ]
        lines += indent(memberwise(properties), by: 1)
        lines += indent(
            ["", "public init(contractValue: FieldValue, path: String) throws(TypedMessageError) {"], by: 1)
        lines += properties.enumerated().map { index, property in
            "        self.\(property.name) = try contractValue.element(\(index), path: path)"
        }
        let elements = properties.map { "\($0.name).contractJSON" }.joined(separator: ", ")
        lines += indent(
            [
                "}", "", "/// The elements as a JSON array, in order.",
                "public var contractJSON: JSONValue { .array([\(elements)]) }",
            ], by: 1)
        lines += indent(nested, by: 1)
        lines.append("}")
        return (name, lines)
    }
}
