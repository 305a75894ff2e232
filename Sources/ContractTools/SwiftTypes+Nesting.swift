import BridgeContract

extension SwiftTypes {
    /// The deepest nesting of arrays typed Swift is generated for. swiftc's type checker takes time exponential in
    /// the depth past about 16 (depth 18: 2 s, 20: 6 s, 22: 17 s, 24: 49 s on the 2-core CI machine).
    package static let maxArrayNesting = 16

    /// Why typed Swift is not generated for `contract`, naming the field, the rule and the remedy; nil when it is.
    package static func unsupported(_ contract: BridgeContract) -> String? {
        for (index, spec) in contract.messages.enumerated() {
            var places: [(String, FieldType)] = spec.fields.sorted { $0.key < $1.key }.map {
                ("messages[\(index)].fields\(fieldPath($0.key))", $0.value.type)
            }
            if let body = spec.body { places.append(("messages[\(index)].body", body)) }
            if let reply = spec.reply { places.append(("messages[\(index)].reply", reply)) }
            for (path, type) in places {
                if let (deepPath, depth) = deepest(type, path: path), depth > maxArrayNesting {
                    return "\(deepPath): arrays nest \(depth) levels deep; typed Swift is generated for at most "
                        + "\(maxArrayNesting) (swiftc's type checker slows down exponentially past that). Remedy: "
                        + "nest fewer arrays (an object holding the inner array), or validate this message without "
                        + "typed Swift"
                }
            }
        }
        return nil
    }

    private static func fieldPath(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
        return plain && !name.isEmpty ? "." + name : "[\(ReceiverCall.stringLiteral(name))]"
    }

    /// The path and depth of the deepest run of nested arrays in `type`.
    private static func deepest(_ type: FieldType, path: String) -> (String, Int)? {
        switch type {
        case .array(var items):
            var depth = 1
            var itemsPath = path + ".items"
            while case .array(let inner) = items {
                depth += 1
                itemsPath += ".items"
                items = inner
            }
            if let inner = deepest(items, path: itemsPath), inner.1 > depth { return inner }
            return (path, depth)
        case .object(let fields):
            return fields.sorted { $0.key < $1.key }.compactMap {
                deepest($0.value.type, path: path + ".fields" + fieldPath($0.key))
            }.max { $0.1 < $1.1 }
        default: return nil
        }
    }
}
