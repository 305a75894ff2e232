import Foundation

/// The outcome of checking a message body against the contract.
///
/// Its `description` is a log line with structure and violations only, never a value.
public enum Validation: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case valid(ValidatedMessage)
    case invalid([ContractViolation])

    /// The message, when valid.
    public var message: ValidatedMessage? {
        if case .valid(let message) = self { return message }
        return nil
    }

    /// The violations; empty when valid.
    public var violations: [ContractViolation] {
        if case .invalid(let violations) = self { return violations }
        return []
    }

    public var description: String {
        switch self {
        case .valid(let message): "valid: \(message)"
        case .invalid(let violations): "invalid:\n" + describe(violations)
        }
    }

    public var debugDescription: String { description }
}

/// A field value whose type the contract checked.
///
/// Its `description` is the structure (`String`, `[Number]`), so interpolating it into a log leaks nothing.
public indirect enum FieldValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    case string(String)
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case array([FieldValue])
    case object([String: FieldValue])

    /// The JS type name, for structure descriptions.
    var typeName: String {
        switch self {
        case .string: "String"
        case .number, .integer: "Number"
        case .boolean: "Boolean"
        case .array: "Array"
        case .object: "Object"
        }
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var numberValue: Double? {
        switch self {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    public var intValue: Int? { if case .integer(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .boolean(let value) = self { value } else { nil } }

    public var description: String { structure }
    public var debugDescription: String { structure }

    var structure: String {
        switch self {
        case .array(let items): "[" + items.map(\.structure).joined(separator: ", ") + "]"
        case .object(let fields):
            "{" + fields.keys.sorted().map { "\($0): \(fields[$0]!.structure)" }.joined(separator: ", ") + "}"
        default: typeName
        }
    }
}

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
    /// The name of the request-id field, for the description.
    let requestIDField: String?

    /// A message with these values; `requestIDField` names the id's field in the description.
    public init(
        kind: String, direction: Direction, requestID: String? = nil, requestIDField: String? = nil,
        fields: [String: FieldValue]
    ) {
        self.kind = kind
        self.direction = direction
        self.requestID = requestID
        self.requestIDField = requestID == nil ? nil : (requestIDField ?? "id")
        self.fields = fields
    }

    public subscript(field: String) -> FieldValue? { fields[field] }

    public var description: String {
        var all = fields
        all["kind"] = .string(kind)
        if let requestIDField, let requestID { all[requestIDField] = .string(requestID) }
        return "\(kind) \(FieldValue.object(all).structure)"
    }

    public var debugDescription: String { description }
}

extension BridgeContract {
    /// Checks a body as WebKit hands it to a message handler (or as the native side builds one).
    ///
    /// Returns the typed message, or every violation found (path, rule, expected and found type).
    public func validate(_ body: Any?, direction: Direction = .pageToNative, mode: ValidationMode = .strict)
        -> Validation
    {
        validate(BodyValue(body), direction: direction, mode: mode)
    }

    /// Checks a body already sorted into JS types.
    func validate(_ value: BodyValue, direction: Direction, mode: ValidationMode) -> Validation {
        var violations: [ContractViolation] = []
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        guard case .object(let object) = value else {
            violation("body", .bodyNotObject, "Object", value.typeName)
            return .invalid(violations)
        }
        // Built only for a violation: a valid message never needs the list of kinds.
        var expectedKind: String {
            let kinds = messages.filter { $0.direction == direction }.map(\.kind)
            return kinds.isEmpty ? "no kind (none declared)" : "one of: \(kinds.joined(separator: ", "))"
        }
        guard let kindValue = object["kind"] else {
            violation("kind", .missingField, "String, \(expectedKind)", "Missing")
            return .invalid(violations)
        }
        guard case .string(let kind) = kindValue else {
            violation("kind", .wrongType, "String, \(expectedKind)", kindValue.typeName)
            return .invalid(violations)
        }
        guard let spec = message(kind, direction: direction) else {
            // The kind's value is message data: name the rule and the known kinds, not what came.
            let otherWay = messages.contains { $0.kind == kind && $0.direction != direction }
            violation("kind", otherWay ? .wrongDirection : .unknownKind, expectedKind, "String")
            return .invalid(violations)
        }

        var requestIDValue: String?
        var reserved = ReservedNames()
        if let idField = requestID?.field, carriesRequestID(spec) {
            reserved.requestID = idField
            switch object[idField] {
            case nil:
                violation(idField, .missingField, "String (request id)", "Missing")
            case .string(let id)? where id.isEmpty:
                violation(idField, .emptyRequestID, "String (request id)", "String")
            case .string(let id)?:
                requestIDValue = id
            case let other?:
                violation(idField, .wrongType, "String (request id)", other.typeName)
            }
        }
        let fields = FieldChecker(mode: mode, record: violation).check(
            object, against: spec.fields, reserved: reserved, prefix: "")
        guard violations.isEmpty else { return .invalid(violations) }
        return .valid(
            ValidatedMessage(
                kind: kind, direction: direction, requestID: requestIDValue, requestIDField: requestID?.field,
                fields: fields))
    }
}

/// The names a message's top level may carry besides its declared fields: `kind` and the request id.
///
/// Two names at most: a plain pair spares every message a `Set`'s allocation and hashing.
private struct ReservedNames {
    var kind: String? = "kind"
    var requestID: String?

    /// None: nested objects reserve nothing.
    static let none = ReservedNames(kind: nil, requestID: nil)

    func contains(_ name: String) -> Bool { name == kind || name == requestID }
}

/// Checks fields recursively, recording violations with their full path.
private struct FieldChecker {
    let mode: ValidationMode
    let record: (String, ContractViolation.Rule, String, String) -> Void

    func check(
        _ object: [String: BodyValue], against specs: [String: FieldSpec], reserved: ReservedNames, prefix: String
    )
        -> [String: FieldValue]
    {
        var typed: [String: FieldValue] = [:]
        // Sorted so violations come in a stable order; paths are built only for a violation.
        let ordered = specs.count > 1 ? specs.sorted(by: { $0.key < $1.key }) : Array(specs)
        for (name, spec) in ordered {
            guard let value = object[name] else {
                if !spec.optional {
                    record(prefix + BodyValue.displayKey(name), .missingField, spec.type.description, "Missing")
                }
                continue
            }
            if let checked = check(value, as: spec.type, path: prefix + BodyValue.displayKey(name)) {
                typed[name] = checked
            }
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
        switch (type, value) {
        case (.string, .string(let text)):
            return .string(text)
        case (.number, .number(let number)):
            guard number.isFinite else {
                record(path, .notFinite, type.description, "Number")
                return nil
            }
            return .number(number)
        case (.integer, .number(let number)):
            guard number.isFinite else {
                record(path, .notFinite, type.description, "Number")
                return nil
            }
            // Beyond 2^53 a JS number is no longer an exact integer.
            guard number.rounded() == number, abs(number) <= 9_007_199_254_740_991, let integer = Int(exactly: number)
            else {
                record(path, .notInteger, type.description, "Number")
                return nil
            }
            return .integer(integer)
        case (.boolean, .boolean(let flag)):
            return .boolean(flag)
        case (.constant(let constant), _):
            switch (constant, value) {
            case (.number(let expected), .number(let number)) where number == expected:
                return Int(exactly: number).map(FieldValue.integer) ?? .number(number)
            case (.string(let expected), .string(let text)) where text == expected:
                return .string(text)
            case (.boolean(let expected), .boolean(let flag)) where flag == expected:
                return .boolean(flag)
            case (.number, .number), (.string, .string), (.boolean, .boolean):
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
                    typed.append(checked)
                } else {
                    complete = false
                }
            }
            return complete ? .array(typed) : nil
        case (.object(let specs), .object(let fields)):
            return .object(check(fields, against: specs, reserved: .none, prefix: path + "."))
        default:
            record(path, .wrongType, type.description, value.typeName)
            return nil
        }
    }
}
