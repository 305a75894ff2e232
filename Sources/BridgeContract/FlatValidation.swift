import Foundation

extension BridgeContract {
    /// The common message (a flat object of strings, numbers and booleans, named by the contract's one
    /// discriminator field) validated in one pass, without sorting the whole body into JS types first.
    ///
    /// Nil whenever anything needs the general validator (see `walkFlat`), which then decides, so every violation
    /// comes from one place. A differential test proves that what this accepts, the general path accepts with the
    /// same message.
    func validFlat(
        _ body: Any?, direction: Direction, mode: ValidationMode, handler: String, transport: MessageSpec.Transport
    ) -> ValidatedMessage? {
        // A cast, not a type test: a body may be an NSDictionary, or come boxed in an Optional.
        guard let object = body as? [String: Any] else { return nil }
        var fields: [String: FieldValue] = [:]
        guard
            let (index, requestIDValue) = walkFlat(
                object, direction: direction, mode: mode, handler: handler, transport: transport,
                classify: { BodyValue(scalar: $0) },
                visit: { key, _, typed in
                    // Only declared fields are kept (lenient mode leaves undeclared ones out).
                    if let typed { fields[key] = typed }
                    return true
                })
        else { return nil }
        var message = ValidatedMessage(
            kind: messages[index].kind, direction: direction, requestID: requestIDValue,
            requestIDField: requestID?.field,
            fields: fields)
        message.kindField = discriminator[0]
        return message
    }
}
