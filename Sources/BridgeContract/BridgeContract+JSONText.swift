extension BridgeContract {
    /// Where a message's fields are: at the top of the body, or inside the JSON text the body is.
    struct Place {
        /// Whether the object was parsed from the body's JSON text (a message declared `"encoding": "json"`).
        var inText: Bool
        /// The path of the value: `body`, or `body(json)` inside the text.
        var body: String { inText ? "body(json)" : "body" }
        /// What precedes a field's name in a violation's path: nothing, or `body(json).`.
        var prefix: String { inText ? "body(json)." : "" }
    }

    /// Names and checks a string on a route that carries messages as JSON text.
    ///
    /// A bare constant names it first (`"ready"`); then its JSON text, parsed, names a message sent as text by its
    /// discriminator values; then the other bare messages by type. Text that is not JSON and that no bare message
    /// takes is the violation `not-json`; JSON text that names no message is described inside the text.
    func validateText(
        _ text: String, route: MessageRoute, direction: Direction, mode: ValidationMode, collecting: Bool
    ) -> Validation {
        let value = BodyValue.string(text)
        let bare = messages.filter { $0.route == route && !$0.isObject }
        if let found = firstFit(value, among: bare.filter { $0.body!.isConstant }, direction: direction, mode: mode) {
            return found
        }
        var inText: Validation?
        if let parsed = BodyValue(jsonText: text) {
            let result = identify(
                parsed, route: route, direction: direction, mode: mode, collecting: collecting,
                place: Place(inText: true))
            if case .valid = result { return result }
            inText = result
        }
        let others = bare.filter { !$0.body!.isConstant }
        if let found = firstFit(value, among: others, direction: direction, mode: mode) { return found }
        if let inText { return inText }
        let texts = messages.filter { $0.route == route && $0.jsonText }
        return .invalid([
            ContractViolation(
                path: "body", rule: .notJSON, expected: Self.textExpectation(texts: texts, bare: bare), found: "String",
                direction: direction)
        ])
    }

    /// What a route of messages sent as JSON text expects: `JSON text of one of: a, b, or one of: ready (String)`.
    static func textExpectation(texts: [MessageSpec], bare: [MessageSpec]) -> String {
        let alternatives = bare.isEmpty ? "" : ", or one of: \(bareNames(bare))"
        return "JSON text of one of: \(texts.map(\.kind).joined(separator: ", "))\(alternatives)"
    }
}
