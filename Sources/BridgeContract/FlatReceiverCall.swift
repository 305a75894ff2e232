import Foundation

extension ReceiverCall {
    /// The common native → page message (a flat object of strings, numbers and booleans, named by the contract's
    /// one discriminator field) checked against its message and written in one pass, with no dictionary rebuilt.
    ///
    /// Nil whenever anything needs the general path: a nested or unusual value, any violation, a contract whose
    /// native → page messages are named by more than one field. The general path then decides, so every refusal
    /// and its violations come from one place. A differential test proves that what this accepts, the general path
    /// accepts with the same script.
    init?(flat message: [String: any Sendable], contract: BridgeContract) {
        guard contract.discriminator.count == 1, BridgeContract.isScriptPath(contract.receiver) else { return nil }
        let discriminator = contract.discriminator[0]
        guard let named = message[discriminator], let kindValue = BodyValue(scalar: named),
            case .string(let kind) = kindValue
        else { return nil }
        // The first native → page object message of that kind, as the validator picks it; a `match` anywhere
        // among them could outrank it, so such contracts take the general path.
        var found: Int?
        for index in contract.messages.indices where contract.messages[index].direction == .nativeToPage {
            guard contract.messages[index].match == nil else { return nil }
            if found == nil, contract.messages[index].isObject, contract.messages[index].kind == kind { found = index }
        }
        guard let found else { return nil }
        let spec = contract.messages[found]
        let idField = contract.requestID.flatMap { contract.carriesRequestID(spec) ? $0.field : nil }

        var members: [(key: String, value: BodyValue)] = []
        members.reserveCapacity(message.count)
        var requiredSeen = 0
        var idSeen = false
        for (name, value) in message {
            // The kind was sorted already: one dynamic cast fewer.
            guard let scalar = name == discriminator ? kindValue : BodyValue(scalar: value) else { return nil }
            if let field = spec.fields[name] {
                guard field.type.scalarValue(scalar) != nil else { return nil }
                if !field.optional { requiredSeen += 1 }
            } else if name != discriminator && name != idField {
                return nil  // strict: a field the message doesn't declare
            }
            if name == idField {
                guard case .string(let id) = scalar, !id.isEmpty else { return nil }
                idSeen = true
            }
            members.append((name, scalar))
        }
        guard idSeen || idField == nil, requiredSeen == spec.fields.values.count(where: { !$0.optional }) else {
            return nil
        }

        // Sorted as the writer sorts an object's keys (Swift's string order), so the text is the general path's.
        members.sort { $0.key < $1.key }
        var writer = JSONWriter(capacity: contract.receiver.utf8.count + 96)
        writer.append(contract.receiver)
        writer.append(UInt8(ascii: "("))
        do { try writer.write(members: members) } catch { return nil }
        writer.append(UInt8(ascii: ")"))
        self.init(script: writer.text, receiver: contract.receiver, members: members)
    }
}

extension BodyValue {
    /// A string, a finite number or a boolean, sorted exactly as `BodyValue(_:)` sorts it; nil for anything else.
    ///
    /// Only the exact types a caller writes in a literal (and NSNumber): any other value takes the general path.
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
