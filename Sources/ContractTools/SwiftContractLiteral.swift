import BridgeContract

/// The contract as a Swift expression of the library's own initializers: what the generated types validate with,
/// equal to the contract read from its file (without its check section and its name), built without parsing.
struct SwiftContractLiteral {
    let contract: BridgeContract

    init(_ contract: BridgeContract) { self.contract = contract.protocolOnly }

    private func literal(_ text: String) -> String { SwiftTypeWriter.literal(text) }

    var declaration: [String] {
        // A contract that dispatches an event says so instead of naming a receiver, as its file does.
        let delivery =
            contract.dispatchedEvent.map { "dispatching: \(literal($0.event)), on: \(literal($0.target))" }
            ?? "receiver: \(literal(contract.receiver))"
        var lines = [
            "public static let contract = BridgeContract(",
            "    version: \(contract.version), handler: \(literal(contract.handler)), \(delivery),",
            "    messages: [",
        ]
        lines += contract.messages.map { "        " + message($0) + "," }
        lines.append("    ],")
        var tail: [String] = []
        if let requestID = contract.requestID {
            tail.append("requestID: RequestIDSpec(field: \(literal(requestID.field)))")
        }
        tail.append("discriminator: [\(contract.discriminator.map(literal).joined(separator: ", "))]")
        if let frames = contract.frames {
            tail.append("frames: FrameRule(origins: [\(frames.origins.map(literal).joined(separator: ", "))])")
        }
        lines.append("    " + tail.joined(separator: ", ") + ")")
        return lines
    }

    private func message(_ spec: MessageSpec) -> String {
        var arguments = [
            "kind: \(literal(spec.kind))",
            "direction: .\(spec.direction == .pageToNative ? "pageToNative" : "nativeToPage")",
        ]
        if !spec.fields.isEmpty { arguments.append("fields: \(fields(spec.fields))") }
        if let acknowledges = spec.acknowledges { arguments.append("acknowledges: \(literal(acknowledges))") }
        // What the file declared, as it declared it: the contract resolves the rest, as it does for the file.
        if let match = spec.declared.match {
            let pairs = match.sorted { $0.key < $1.key }.map(Self.pair)
            arguments.append("match: [\(pairs.isEmpty ? ":" : pairs.joined(separator: ", "))]")
        }
        if let body = spec.body { arguments.append("body: \(type(body))") }
        if let handler = spec.declared.handler { arguments.append("handler: \(literal(handler))") }
        if let transport = spec.declared.transport { arguments.append("transport: .\(transport.rawValue)") }
        if let reply = spec.reply { arguments.append("reply: \(type(reply))") }
        if let call = spec.declared.call { arguments.append("call: \(literal(call))") }
        if spec.pageError { arguments.append("pageError: true") }
        // Sent as its JSON text: without it the types would decode and send the object itself.
        if spec.jsonText { arguments.append("jsonText: true") }
        return "MessageSpec(\(arguments.joined(separator: ", ")))"
    }

    private func fields(_ fields: [String: FieldSpec]) -> String {
        if fields.isEmpty { return "[:]" }
        let pairs = fields.sorted { $0.key < $1.key }.map { name, spec in
            "\(literal(name)): FieldSpec(\(type(spec.type))\(spec.optional ? ", optional: true" : ""))"
        }
        return "[\(pairs.joined(separator: ", "))]"
    }

    /// A JSON value as a Swift literal of `JSONValue` (the generated types' constants, the contract's values).
    static func constant(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): ".string(\(SwiftTypeWriter.literal(text)))"
        case .number(let number): ".number(\(number))"
        case .boolean(let flag): ".boolean(\(flag))"
        case .null: ".null"
        // A contract's constants are scalars (it refuses others); these keep the literal total.
        case .array(let items): ".array([\(items.map(constant).joined(separator: ", "))])"
        case .object(let fields):
            ".object([\(fields.isEmpty ? ":" : fields.sorted { $0.key < $1.key }.map(pair).joined(separator: ", "))])"
        }
    }

    private static func pair(_ field: (key: String, value: JSONValue)) -> String {
        "\(SwiftTypeWriter.literal(field.key)): \(constant(field.value))"
    }

    private func type(_ type: FieldType) -> String {
        switch type {
        case .string: ".string"
        case .number: ".number"
        case .integer: ".integer"
        case .boolean: ".boolean"
        case .constant(let value): ".constant(\(Self.constant(value)))"
        case .array(let items): ".array(\(self.type(items)))"
        case .object(let fields): ".object(\(self.fields(fields)))"
        case .json(let content): ".json(\(self.type(content)))"
        case .tuple(let items): ".tuple([\(items.map(self.type).joined(separator: ", "))])"
        case .null: ".null"
        case .any: ".any"
        }
    }
}
