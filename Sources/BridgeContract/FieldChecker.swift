/// The names a message's top level may carry besides its declared fields: `kind` and the request id.
///
/// Two names at most: a plain pair spares every message a `Set`'s allocation and hashing.
struct ReservedNames {
    /// The one discriminator field, when the contract has one and the message no `match` of its own.
    var discriminator: String?
    /// The discriminator fields that named the message otherwise (the contract's dictionary: no set is built).
    var match: [String: JSONValue] = [:]
    var requestID: String?

    /// None: nested objects reserve nothing.
    static let none = ReservedNames()

    func contains(_ name: String) -> Bool { name == discriminator || name == requestID || match[name] != nil }
}

/// Checks fields recursively, recording violations with their full path.
struct FieldChecker {
    let mode: ValidationMode
    let record: (String, ContractViolation.Rule, String, String) -> Void
    /// Whether objects keep their typed fields; without, only the violations come out (nothing is copied).
    var collects = true

    func check(
        _ object: [String: BodyValue], against specs: [String: FieldSpec], reserved: ReservedNames, prefix: String
    )
        -> [String: FieldValue]
    {
        var typed: [String: FieldValue] = collects ? Dictionary(minimumCapacity: specs.count) : [:]
        func visit(_ name: String, _ spec: FieldSpec) {
            guard let value = object[name] else {
                if !spec.optional {
                    record(prefix + BodyValue.displayKey(name), .missingField, spec.type.description, "Missing")
                }
                return
            }
            if let checked = check(value, as: spec.type, path: prefix + BodyValue.displayKey(name)), collects {
                typed[name] = checked
            }
        }
        // Sorted so violations come in a stable order (one field needs no sorted copy); paths are built only for
        // a violation.
        if specs.count > 1 {
            for (name, spec) in specs.sorted(by: { $0.key < $1.key }) { visit(name, spec) }
        } else {
            for (name, spec) in specs { visit(name, spec) }
        }
        func isUnexpected(_ name: String) -> Bool { specs[name] == nil && !reserved.contains(name) }
        if mode == .strict, object.keys.contains(where: isUnexpected) {
            for name in object.keys.sorted() where isUnexpected(name) {
                record(prefix + BodyValue.displayKey(name), .unexpectedField, "no such field", object[name]!.typeName)
            }
        }
        return typed
    }

    func check(_ value: BodyValue, as type: FieldType, path makePath: @autoclosure () -> String) -> FieldValue? {
        var path: String { makePath() }
        if let scalar = type.scalarValue(value) { return scalar }
        // Past here a scalar type was not met: name why.
        switch (type, value) {
        case (.number, .number(let number)), (.integer, .number(let number)):
            guard number.isFinite else {
                record(path, .notFinite, type.description, "Number")
                return nil
            }
            record(path, .notInteger, type.description, "Number")
            return nil
        case (.constant(let constant), _):
            switch (constant, value) {
            case (.number, .number), (.string, .string), (.boolean, .boolean), (.null, .null):
                record(path, .constantMismatch, type.description, value.typeName)
                return nil
            default:
                record(path, .wrongType, type.description, value.typeName)
                return nil
            }
        case (.array(let itemType), .array(let items)):
            var typed: [FieldValue] = []
            var complete = true
            for (index, item) in items.enumerated() {
                if let checked = check(item, as: itemType, path: "\(makePath())[\(index)]") {
                    if collects { typed.append(checked) }
                } else {
                    complete = false
                }
            }
            return complete ? .array(typed) : nil
        case (.object(let specs), .object(let fields)):
            return .object(check(fields, against: specs, reserved: .none, prefix: path + "."))
        case (.any, _):
            // Anything that is there; its typed value is its JSON form.
            guard let json = JSONValue.converted(value) else {
                record(path, .wrongType, type.description, value.typeName)
                return nil
            }
            return FieldValue(json)
        case (.tuple(let types), .array(let items)):
            var typed: [FieldValue] = []
            var complete = true
            for (index, itemType) in types.enumerated() {
                guard index < items.count else {
                    record("\(makePath())[\(index)]", .missingField, itemType.description, "Missing")
                    complete = false
                    continue
                }
                if let checked = check(items[index], as: itemType, path: "\(makePath())[\(index)]") {
                    if collects { typed.append(checked) }
                } else {
                    complete = false
                }
            }
            if mode == .strict, items.count > types.count {
                for index in types.count..<items.count {
                    record("\(makePath())[\(index)]", .unexpectedField, "no such element", items[index].typeName)
                }
            }
            return complete ? .array(typed) : nil
        case (.json(let content), .string(let text)):
            // The text is checked as what it holds; the typed value stays the text the sender wrote.
            guard let parsed = BodyValue(jsonText: text) else {
                record(path, .notJSON, type.description, "String")
                return nil
            }
            return check(parsed, as: content, path: path + "(json)") == nil ? nil : .string(text)
        default:
            record(path, .wrongType, type.description, value.typeName)
            return nil
        }
    }
}
