import Foundation

extension BridgeContract {
    /// The common message (a flat object of strings, numbers and booleans, named by the contract's one
    /// discriminator field) validated in one pass, without sorting the whole body into JS types first.
    ///
    /// Nil whenever anything needs the general validator: a nested or unusual value, any violation, a contract
    /// whose candidate messages are named by more than one field. The general path then decides, so every
    /// violation comes from one place. A differential test proves that what this accepts, the general path accepts
    /// with the same message.
    func validFlat(
        _ body: Any?, direction: Direction, mode: ValidationMode, handler: String, transport: MessageSpec.Transport
    ) -> ValidatedMessage? {
        // A cast, not a type test: the engine module's body is the dictionary boxed in an Optional.
        guard discriminator.count == 1, let object = body as? [String: Any] else { return nil }
        let name = discriminator[0]
        guard let named = object[name], let kindValue = BodyValue(scalar: named), case .string(let kind) = kindValue
        else { return nil }
        // The first candidate of that kind, as the validator picks it; a `match` among them could outrank it.
        var found: Int?
        for index in messages.indices
        where isCandidate(messages[index], direction: direction, handler: handler, transport: transport) {
            guard messages[index].match == nil else { return nil }
            if found == nil, messages[index].isObject, messages[index].kind == kind { found = index }
        }
        guard let found else { return nil }
        let spec = messages[found]
        let idField = requestID.flatMap { carriesRequestID(spec) ? $0.field : nil }

        var fields: [String: FieldValue] = Dictionary(minimumCapacity: spec.fields.count)
        var requiredSeen = 0
        var requestIDValue: String?
        for (key, value) in object {
            // The kind was sorted already: one dynamic cast fewer.
            guard let scalar = key == name ? kindValue : BodyValue(scalar: value) else { return nil }
            if let field = spec.fields[key] {
                guard let typed = field.type.scalarValue(scalar) else { return nil }
                fields[key] = typed
                if !field.optional { requiredSeen += 1 }
            } else if key != name && key != idField && mode == .strict {
                return nil  // a field the message doesn't declare
            }
            if key == idField {
                guard case .string(let id) = scalar, !id.isEmpty else { return nil }
                requestIDValue = id
            }
        }
        guard idField == nil || requestIDValue != nil,
            requiredSeen == spec.fields.values.count(where: { !$0.optional })
        else { return nil }
        var message = ValidatedMessage(
            kind: spec.kind, direction: direction, requestID: requestIDValue, requestIDField: requestID?.field,
            fields: fields)
        message.discriminatorValues[name] = .string(spec.kind)
        return message
    }
}
