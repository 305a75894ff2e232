/// What the Swift types `SwiftTypes` generates stand on: decoding goes through the contract's validation (the same
/// rules, the same violations with path and remedy), encoding through its receiver call.

/// A value typed code reads from a validated message and writes back as JSON: `String`, `Int`, `Double`, `Bool`,
/// arrays of them, and the generated payload structs.
public protocol ContractValue: Sendable {
    /// The value from a field the contract already checked; `path` names it when it is not of this type.
    init(contractValue: FieldValue, path: String) throws(ContractError)
    /// The value as JSON, for the receiver call or a reply.
    var contractJSON: JSONValue { get }
}

extension ContractError {
    /// A value of another type than the generated code expects: only a contract other than the one it was generated
    /// from gives one (`path` is where, `expected` the type).
    static func mismatch(_ path: String, _ expected: String, _ found: FieldValue) -> ContractError {
        ContractError(violations: [
            ContractViolation(path: path, rule: .wrongType, expected: expected, found: found.typeName)
        ])
    }

    /// A kind the contract validated that the generated types don't know: they were generated from another contract.
    public static func notGenerated(_ direction: Direction) -> ContractError {
        ContractError(violations: [
            ContractViolation(
                path: "body", rule: .unknownKind, expected: "a kind these types were generated for", found: "String",
                direction: direction)
        ])
    }
}

extension String: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        guard case .string(let text) = contractValue else { throw .mismatch(path, "String", contractValue) }
        self = text
    }
    public var contractJSON: JSONValue { .string(self) }
}

extension Int: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        switch contractValue {
        case .integer(let integer): self = integer
        case .number(let number) where Int(exactly: number) != nil: self = Int(exactly: number)!
        default: throw .mismatch(path, "Integer", contractValue)
        }
    }
    public var contractJSON: JSONValue { .number(Double(self)) }
}

extension Double: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        guard let number = contractValue.numberValue else { throw .mismatch(path, "Number", contractValue) }
        self = number
    }
    public var contractJSON: JSONValue { .number(self) }
}

extension Bool: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        guard case .boolean(let flag) = contractValue else { throw .mismatch(path, "Boolean", contractValue) }
        self = flag
    }
    public var contractJSON: JSONValue { .boolean(self) }
}

extension Array: ContractValue where Element: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        guard case .array(let items) = contractValue else { throw .mismatch(path, "Array", contractValue) }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            elements.append(try Element(contractValue: item, path: "\(path)[\(index)]"))
        }
        self = elements
    }
    public var contractJSON: JSONValue { .array(map(\.contractJSON)) }
}

/// `null` or `any`: read as its JSON.
extension JSONValue: ContractValue {
    public init(contractValue: FieldValue, path: String) throws(ContractError) { self = contractValue.jsonValue }
    public var contractJSON: JSONValue { self }
}

extension FieldValue {
    /// Element `index` of a positional array the contract checked (a tuple), as a typed value.
    public func element<Value: ContractValue>(_ index: Int, path: String) throws(ContractError) -> Value {
        guard case .array(let items) = self else { throw .mismatch(path, "Array", self) }
        guard items.indices.contains(index) else {
            throw ContractError(violations: [
                ContractViolation(path: "\(path)[\(index)]", rule: .missingField, expected: "a value", found: "Missing")
            ])
        }
        return try Value(contractValue: items[index], path: "\(path)[\(index)]")
    }
}

/// The fields of a checked object, read by name into typed values.
public struct ContractFields: Sendable {
    let fields: [String: FieldValue]
    /// The object's path, empty at the top of a message.
    let path: String
    /// The message's own request id and bare value, at the top of a message.
    private var message: ValidatedMessage?

    /// The fields of a message the contract validated.
    public init(_ message: ValidatedMessage) {
        fields = message.fields
        path = ""
        self.message = message
    }

    /// The fields of a nested object the contract checked.
    public init(contractValue: FieldValue, path: String) throws(ContractError) {
        guard case .object(let fields) = contractValue else { throw .mismatch(path, "Object", contractValue) }
        self.fields = fields
        self.path = path
    }

    private func path(of name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// A field the contract requires.
    public func required<Value: ContractValue>(_ name: String) throws(ContractError) -> Value {
        guard let value = fields[name] else {
            throw ContractError(violations: [
                ContractViolation(path: path(of: name), rule: .missingField, expected: "a value", found: "Missing")
            ])
        }
        return try Value(contractValue: value, path: path(of: name))
    }

    /// The request id of a message that carries one.
    public func requestID() throws(ContractError) -> String {
        guard let id = message?.requestID else {
            throw ContractError(violations: [
                ContractViolation(path: "requestID", rule: .missingField, expected: "String", found: "Missing")
            ])
        }
        return id
    }

    /// The value of a bare message.
    public func body<Value: ContractValue>() throws(ContractError) -> Value {
        guard let body = message?.body else {
            throw ContractError(violations: [
                ContractViolation(path: "body", rule: .missingField, expected: "a value", found: "Missing")
            ])
        }
        return try Value(contractValue: body, path: "body")
    }

    /// A field the contract declares optional: nil when absent.
    public func optional<Value: ContractValue>(_ name: String) throws(ContractError) -> Value? {
        guard let value = fields[name] else { return nil }
        return try Value(contractValue: value, path: path(of: name))
    }
}

extension JSONValue {
    /// An object of the fields given, leaving out those that are nil (absent optional fields).
    public static func fields(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (name, value) in pairs {
            if let value { object[name] = value }
        }
        return .object(object)
    }
}

extension BridgeContract {
    /// A body WebKit handed over, validated for typed code: the message, or the violations thrown.
    public func typedMessage(
        _ body: Any?, direction: Direction, mode: ValidationMode, handler: String?, transport: MessageSpec.Transport
    ) throws(ContractError) -> ValidatedMessage {
        switch validate(body, direction: direction, mode: mode, handler: handler, transport: transport) {
        case .valid(let message): return message
        case .invalid(let violations): throw ContractError(violations: violations)
        }
    }

    /// The call that delivers the native → page message `kind` with `value` (its declared fields, or a bare
    /// message's value): its discriminator values, its constants and `requestID` added, checked as that message,
    /// and encoded by `ReceiverCall` into a call of the message's page function, or into the dispatch of the
    /// contract's event with it as its data.
    public func typedCall(
        _ kind: String, value: JSONValue, requestID: String?, encoder: ReceiverCall.Encoder = .jsonSerialization
    ) throws(ContractError) -> ReceiverCall {
        guard let spec = message(kind, direction: .nativeToPage) else {
            throw ContractError(
                code: .violatesContract,
                violations: [
                    ContractViolation(
                        path: "body", rule: .unknownKind, expected: "a native-to-page message", found: "Object",
                        direction: .nativeToPage)
                ])
        }
        let body = outgoing(spec, value: value, requestID: requestID)
        let violations = validate(body, as: spec).violations
        guard violations.isEmpty else { throw ContractError(code: .violatesContract, violations: violations) }
        if let dispatch = spec.dispatch { return try ReceiverCall(dispatching: dispatch, argument: body) }
        return try ReceiverCall(function: spec.call, argument: body, encoder: encoder)
    }

    /// Native's reply to the page → native message `kind` (a reply handler's reply, a prompt's text), checked
    /// against its reply type: the value to hand WebKit.
    public func typedReply(_ kind: String, value: JSONValue) throws(ContractError) -> Any {
        let reply = value.foundationValue
        guard let type = message(kind, direction: .pageToNative)?.reply else {
            throw ContractError(violations: [
                ContractViolation(
                    path: "reply", rule: .unexpectedField, expected: "no reply", found: value.structure,
                    direction: .nativeToPage)
            ])
        }
        let violations = validate(reply, as: type, path: "reply")
        guard violations.isEmpty else { throw ContractError(violations: violations) }
        return reply
    }
}
