/// A message that satisfies the contract, with its typed field values.
///
/// Its `description` is the structure only (`ready {kind: String, version: Number}`), safe to log.
public struct ValidatedMessage: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let kind: String
    public let direction: Direction
    /// The request id, when the contract declares one and the message carries it.
    public let requestID: String?
    /// The declared fields that came (lenient mode leaves undeclared ones out).
    public let fields: [String: FieldValue]
    /// The value of a message that is not an object (a bare string, a call's array argument).
    public let body: FieldValue?
    /// The name of the request-id field, for the description; nil when the id sits deeper (in a declared field).
    var requestIDField: String?
    /// The contract's one discriminator field, whose value is the kind, when that named the message: kept as a
    /// name, not a dictionary, so the common message costs no allocation for it.
    var kindField: String?
    /// The discriminator values of a `match` that named the message, for the description.
    var matchValues: [String: FieldValue] = [:]

    /// Every discriminator field that named the message, with its value.
    var discriminatorValues: [String: FieldValue] {
        var values = matchValues
        if let kindField { values[kindField] = .string(kind) }
        return values
    }

    /// The value of a field as JSON, for native to echo it back (never for a log).
    public func jsonValue(of field: String) -> JSONValue? {
        if field == requestIDField, let requestID { return .string(requestID) }
        if let value = fields[field] { return value.jsonValue }
        return field == kindField ? .string(kind) : matchValues[field]?.jsonValue
    }

    /// A message with these values; `requestIDField` names the id's field in the description.
    public init(
        kind: String, direction: Direction, requestID: String? = nil, requestIDField: String? = nil,
        fields: [String: FieldValue], body: FieldValue? = nil
    ) {
        self.kind = kind
        self.direction = direction
        self.requestID = requestID
        self.requestIDField = requestID == nil ? nil : (requestIDField ?? "id")
        self.fields = fields
        self.body = body
    }

    public subscript(field: String) -> FieldValue? { fields[field] }

    /// The message as JSON: its body, or its fields with the discriminator values and the request id (never for a
    /// log). What a path is followed in.
    package var jsonValue: JSONValue {
        if let body { return body.jsonValue }
        var all = fields.mapValues(\.jsonValue)
        for (name, value) in discriminatorValues { all[name] = value.jsonValue }
        if let requestIDField, let requestID { all[requestIDField] = .string(requestID) }
        return .object(all)
    }

    /// The value at a path of the message, as JSON (never for a log).
    package func jsonValue(at path: FieldPath) -> JSONValue? { path.value(in: jsonValue) }

    public var description: String {
        if let body { return "\(kind) (\(body.structure))" }
        var all = fields
        for (name, value) in discriminatorValues { all[name] = value }
        if let requestIDField, let requestID { all[requestIDField] = .string(requestID) }
        return "\(kind) \(FieldValue.object(all).structure)"
    }

    public var debugDescription: String { description }
}
