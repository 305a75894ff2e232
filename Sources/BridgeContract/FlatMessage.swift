import Foundation

extension BridgeContract {
    /// Walks a flat message (an object of strings, numbers and booleans, named by the contract's one discriminator
    /// field) against the message it names, in one pass, for the two flat paths: `ReceiverCall(flat:contract:)`
    /// and `validFlat`.
    ///
    /// `classify` is `BodyValue(scalar:)`, called where the values' type is known: inside a generic function an
    /// existential value would reach it boxed once more, and its type tests would fail. `visit` gets every key
    /// with its scalar and, for a declared field, its typed value; it returns false to give up. The result is the
    /// message's index and the request id, or nil whenever the general path must decide: a nested or unusual
    /// value, any violation, a candidate named by `match` (it could outrank the kind).
    @inline(__always)  // so both callers get the closures inlined: per message, a call through them costs 0.2-0.4 µs
    func walkFlat<Value>(
        _ object: [String: Value], direction: Direction, mode: ValidationMode, handler: String,
        transport: MessageSpec.Transport, classify: (Value) -> BodyValue?,
        visit: (String, BodyValue, FieldValue?) -> Bool
    ) -> (index: Int, requestID: String?)? {
        guard discriminator.count == 1 else { return nil }
        let name = discriminator[0]
        guard let named = object[name], let kindValue = classify(named), case .string(let kind) = kindValue
        else { return nil }
        // The first candidate of that kind, as the validator picks it. The specs are read in place: passing one
        // by value copies the whole struct (a retain per property), four times a message.
        let route = MessageRoute(direction, handler: handler, transport: transport)
        let found: Int? = messages.withUnsafeBufferPointer { specs in
            var found: Int?
            for index in specs.indices where specs[index].route == route {
                guard specs[index].kindField != nil else { return nil }
                if found == nil, specs[index].body == nil, specs[index].kind == kind { found = index }
            }
            return found
        }
        guard let found else { return nil }
        return messages.withUnsafeBufferPointer { specs in
            let idField = specs[found].requestIDField
            return walkFields(
                object, of: specs[found], index: found, discriminator: name, kind: kindValue, idField: idField,
                mode: mode, classify: classify, visit: visit)
        }
    }

    /// The fields of a flat message against the message it names (see `walkFlat`).
    @inline(__always)
    private func walkFields<Value>(
        _ object: [String: Value], of spec: borrowing MessageSpec, index found: Int, discriminator name: String,
        kind kindValue: BodyValue, idField: String?, mode: ValidationMode, classify: (Value) -> BodyValue?,
        visit: (String, BodyValue, FieldValue?) -> Bool
    ) -> (index: Int, requestID: String?)? {
        var requiredSeen = 0
        var requestIDValue: String?
        for (key, value) in object {
            // The kind was classified already.
            guard let scalar = key == name ? kindValue : classify(value) else { return nil }
            var typed: FieldValue?
            if let field = spec.fields.scanned(key) {
                typed = field.type.scalarValue(scalar)
                guard typed != nil else { return nil }
                if !field.optional { requiredSeen += 1 }
            } else if key != name && key != idField && mode == .strict {
                return nil  // a field the message doesn't declare
            }
            if key == idField {
                guard case .string(let id) = scalar, !id.isEmpty else { return nil }
                requestIDValue = id
            }
            guard visit(key, scalar, typed) else { return nil }
        }
        guard idField == nil || requestIDValue != nil,
            requiredSeen == spec.fields.values.count(where: { !$0.optional })
        else { return nil }
        return (found, requestIDValue)
    }
}

extension Dictionary where Key == String {
    /// The value for `key`. A small dictionary (a message's declared fields) is scanned: comparing a few short
    /// keys costs less than hashing one.
    @inline(__always)
    fileprivate func scanned(_ key: String) -> Value? {
        guard count <= 8 else { return self[key] }
        for (name, value) in self where name == key { return value }
        return nil
    }
}

extension BodyValue {
    /// A string, a finite number or a boolean, sorted exactly as `BodyValue(_:)` sorts it; nil for anything else.
    ///
    /// Only the exact types a caller writes in a literal, and Apple's NSString and NSNumber: any other value takes
    /// the general path.
    init?(scalar value: Any) {
        // Opened as its own type: the tests below compare metadata, and no dynamic cast runs.
        guard let scalar = BodyValue.scalar(of: value) else { return nil }
        self = scalar
    }

    private static func scalar<Value>(of value: Value) -> BodyValue? {
        if Value.self == String.self {
            return .string(unsafeBitCast(value, to: String.self))
        } else if Value.self == Bool.self {
            return .boolean(unsafeBitCast(value, to: Bool.self))
        } else if Value.self == Int.self {
            return .number(Double(unsafeBitCast(value, to: Int.self)))
        } else if Value.self == Double.self {
            let number = unsafeBitCast(value, to: Double.self)
            return number.isFinite ? .number(number) : nil
        } else if Value.self is NSString.Type, let text = value as? String {
            // Apple's message bodies carry NSString.
            return .string(text)
        } else if Value.self is NSNumber.Type, let number = value as? NSNumber {
            guard Platform.isBoolean(number) else {
                return number.doubleValue.isFinite ? .number(number.doubleValue) : nil
            }
            return .boolean(number.boolValue)
        }
        return nil
    }
}
