/// A message's field must equal a field of an earlier message of another kind: Turbo's `data.identifier`, which
/// every message of a visit repeats from `visitStarted`; a reply's id, equal to its request's.
///
/// Written on the later message: `"correlation": {"field": "data.identifier", "message": "visitStarted"}`. Each
/// `message` that arrives (or that native sends) opens its value; the later message must carry the value of the
/// latest one. A message that `settles` (the default: the answer) closes it, so a second answer with the same
/// value is a double callback; one that does not (Turbo's `visitRendered`) only has to name an open value.
package struct CorrelationRule: Codable, Sendable, Equatable {
    /// The path in this message.
    package var field: String
    /// The kind of the earlier message.
    package var message: String
    /// The path in the earlier message; `field` when left out.
    package var messageField: String?
    /// Whether this message answers the earlier one, so that one answer only is taken.
    package var settles: Bool
    /// `field` and `messageField`, resolved in the two messages' shapes when the contract is: nil until then, or
    /// when one names nothing (the definition check refuses that).
    package internal(set) var paths: (field: FieldPath, messageField: FieldPath)?

    package init(field: String, message: String, messageField: String? = nil, settles: Bool = true) {
        self.field = field
        self.message = message
        self.messageField = messageField
        self.settles = settles
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case field, message, messageField, settles }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        field = try container.decode(String.self, forKey: .field)
        message = try container.decode(String.self, forKey: .message)
        messageField = try container.decodeIfPresent(String.self, forKey: .messageField)
        settles = try container.decodeIfPresent(Bool.self, forKey: .settles) ?? true
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(field, forKey: .field)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(messageField, forKey: .messageField)
        if !settles { try container.encode(false, forKey: .settles) }
    }

    package static func == (left: CorrelationRule, right: CorrelationRule) -> Bool {
        left.field == right.field && left.message == right.message && left.messageField == right.messageField
            && left.settles == right.settles
    }

    /// Resolves both paths; nil where one names nothing.
    mutating func resolve(in spec: MessageSpec, among messages: [MessageSpec]) {
        paths = nil
        guard let earlier = messages.first(where: { $0.kind == message }),
            let own = try? FieldPath.resolve(field, in: spec, implicit: spec.implicitFields),
            let other = try? FieldPath.resolve(messageField ?? field, in: earlier, implicit: earlier.implicitFields)
        else { return }
        paths = (own.path, other.path)
    }

    /// Refuses a rule that names no earlier message, or a path that names nothing in its message.
    func check(of spec: MessageSpec, in contract: BridgeContract, path: String) throws(ContractError) {
        func invalid(_ key: String, _ problem: String, _ remedy: String) -> ContractError {
            ContractError(code: .invalidValue, path: "\(path).\(key)", problem: problem, remedy: remedy)
        }
        let others = contract.messages.filter { $0.kind != spec.kind }.map(\.kind)
        guard message != spec.kind, let earlier = contract.messages.first(where: { $0.kind == message }) else {
            throw invalid(
                "message", "\"\(message)\" is not another message of the contract",
                "name the earlier message whose field this one repeats, one of: \(others.joined(separator: ", "))")
        }
        let own: (path: FieldPath, type: FieldType?)
        do {
            own = try FieldPath.resolve(field, in: spec, implicit: spec.implicitFields)
        } catch {
            throw invalid("field", error.problem, error.remedy)
        }
        let other: (path: FieldPath, type: FieldType?)
        do {
            other = try FieldPath.resolve(messageField ?? field, in: earlier, implicit: earlier.implicitFields)
        } catch {
            throw invalid(
                messageField == nil ? "field" : "messageField", "in \"\(message)\": " + error.problem,
                error.remedy + (messageField == nil ? ", or name its place there with messageField" : ""))
        }
        for (key, place, type) in [("field", own.path, own.type), ("messageField", other.path, other.type)] {
            if let type, type.jsTypeName == "Object" || type.jsTypeName == "Array" {
                throw invalid(
                    messageField == nil ? "field" : key,
                    "\(place) is declared \(type): a correlated field is one value",
                    "name a string or number field inside it")
            }
        }
        if let mine = own.type?.jsTypeName, let theirs = other.type?.jsTypeName, mine != theirs {
            throw invalid(
                "field",
                "\(own.path) is declared \(own.type!) and \"\(message)\"'s \(other.path) \(other.type!): they can never be equal",
                "declare both with the same type")
        }
    }
}

extension MessageSpec {
    /// The fields an object message carries besides those it declares: its discriminator values and the request id
    /// at a top-level field. Paths may name them.
    var implicitFields: [String: FieldType] {
        guard isObject else { return [:] }
        var implicit: [String: FieldType] = match.mapValues(FieldType.constant)
        if let requestIDField { implicit[requestIDField] = .string }
        return implicit
    }
}

extension BridgeContract {
    /// Refuses a request-id path that names nothing in a message that carries the id, or names no string there.
    func checkRequestIDPath(_ text: String) throws(ContractError) {
        guard FieldPath.isPath(text) else { return }
        guard FieldPath.tokens(text) != nil else {
            throw ContractError(
                code: .invalidValue, path: "requestID.field", problem: "\"\(text)\" is not a path",
                remedy: "write field names separated by dots and elements as [0], e.g. data.identifier or body[0]")
        }
        for spec in messages
        where spec.acknowledges != nil || messages.contains(where: { $0.acknowledges == spec.kind }) {
            let resolved: (path: FieldPath, type: FieldType?)
            do {
                resolved = try FieldPath.resolve(text, in: spec)
            } catch {
                throw ContractError(
                    code: .invalidValue, path: "requestID.field",
                    problem: "\"\(spec.kind)\" carries the request id, and \(error.problem)",
                    remedy: error.remedy + "; the request id's path must exist in every request and its answer")
            }
            if let type = resolved.type, type != .string {
                throw ContractError(
                    code: .invalidValue, path: "requestID.field",
                    problem:
                        "the request id at \"\(spec.kind)\"'s \(resolved.path) is declared \(type); a request id is a String",
                    remedy: "declare it {\"type\": \"string\"}")
            }
        }
    }
}

extension BridgeContract {
    /// `value` with the trigger's fields a play step echoes copied in: a top-level name into an object value, as
    /// always; a path to the same place in the value.
    package func echoing(_ echo: [String], of trigger: ValidatedMessage, into value: JSONValue) -> JSONValue {
        var value = value
        let spec = message(trigger.kind, direction: trigger.direction)
        for name in echo {
            if !FieldPath.isPath(name) {
                guard case .object(var fields) = value else { continue }
                fields[name] = trigger.jsonValue(of: name)
                value = .object(fields)
            } else if let spec, let path = try? FieldPath.resolve(name, in: spec, implicit: spec.implicitFields).path,
                let copied = trigger.jsonValue(at: path)
            {
                value = path.setting(copied, in: value)
            }
        }
        return value
    }
}

extension BridgeContract {
    /// `value` with each pair's value in the trigger copied to its place in the sent message `sent`.
    package func echoing(
        _ pairs: [PlayStep.EchoPair], of trigger: ValidatedMessage, into value: JSONValue, sending sent: MessageSpec
    ) -> JSONValue {
        guard let spec = message(trigger.kind, direction: trigger.direction) else { return value }
        var value = value
        for pair in pairs {
            guard let from = try? FieldPath.resolve(pair.from, in: spec, implicit: spec.implicitFields).path,
                let to = try? FieldPath.resolve(pair.to, in: sent, implicit: sent.implicitFields).path,
                let copied = trigger.jsonValue(at: from)
            else { continue }
            value = to.setting(copied, in: value)
        }
        return value
    }
}

extension PlayStep {
    /// `value` with a sample of the trigger's value at `pair.from` set at `pair.to`; refuses a path that names
    /// nothing in its message.
    func echoSample(
        _ pair: EchoPair, into value: JSONValue, sending sent: MessageSpec, contract: BridgeContract, path: String
    ) throws(ContractError) -> JSONValue {
        guard let trigger = contract.message(after, direction: .pageToNative) else {
            throw ContractError(
                code: .invalidValue, path: path, problem: "echo copies fields of a page message",
                remedy: "use it only after a page-to-native message")
        }
        let from: (path: FieldPath, type: FieldType?)
        do {
            from = try FieldPath.resolve(pair.from, in: trigger, implicit: trigger.implicitFields)
        } catch {
            throw ContractError(
                code: .invalidValue, path: path + ".from", problem: "\"\(after)\": " + error.problem,
                remedy: error.remedy)
        }
        let to: (path: FieldPath, type: FieldType?)
        do {
            to = try FieldPath.resolve(pair.to, in: sent, implicit: sent.implicitFields)
        } catch {
            throw ContractError(
                code: .invalidValue, path: path + ".to", problem: "\"\(sent.kind)\": " + error.problem,
                remedy: error.remedy)
        }
        return to.path.setting(from.type?.sample ?? to.type?.sample ?? .string("ok"), in: value)
    }

    /// `value` with a sample at each path `echo` names in the trigger; refuses a path that names nothing there.
    func echoSample(into value: JSONValue, contract: BridgeContract, path: String) throws(ContractError)
        -> JSONValue
    {
        guard let trigger = contract.message(after, direction: .pageToNative) else {
            throw ContractError(
                code: .invalidValue, path: path, problem: "echo copies fields of a page message",
                remedy: "use it only after a page-to-native message")
        }
        var value = value
        for name in echo ?? [] {
            do {
                let resolved = try FieldPath.resolve(name, in: trigger, implicit: trigger.implicitFields)
                value = resolved.path.setting(resolved.type?.sample ?? .string("ok"), in: value)
            } catch {
                throw ContractError(
                    code: .invalidValue, path: path, problem: "\"\(after)\": " + error.problem, remedy: error.remedy)
            }
        }
        return value
    }
}
