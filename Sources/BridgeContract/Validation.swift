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
public enum FieldValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
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

    /// The value as JSON.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        case .integer(let integer): .number(Double(integer))
        case .boolean(let flag): .boolean(flag)
        case .array(let items): .array(items.map(\.jsonValue))
        case .object(let fields): .object(fields.mapValues(\.jsonValue))
        }
    }

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
    /// The value of a message that is not an object (a bare string, a call's array argument).
    public let body: FieldValue?
    /// The name of the request-id field, for the description.
    let requestIDField: String?
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

    public var description: String {
        if let body { return "\(kind) (\(body.structure))" }
        var all = fields
        for (name, value) in discriminatorValues { all[name] = value }
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
        validate(body, direction: direction, mode: mode, handler: nil)
    }

    /// Checks a body posted to `handler` (the contract's by default) through `transport`.
    public func validate(
        _ body: Any?, direction: Direction, mode: ValidationMode, handler: String?,
        transport: MessageSpec.Transport = .postMessage
    ) -> Validation {
        // Most messages are flat: checked in one pass, with the general path's result.
        if let message = validFlat(
            body, direction: direction, mode: mode, handler: handler ?? self.handler,
            transport: transport)
        {
            return .valid(message)
        }
        return validateInGeneral(body, direction: direction, mode: mode, handler: handler, transport: transport)
    }

    /// The general path: any body; every violation comes from here.
    func validateInGeneral(
        _ body: Any?, direction: Direction, mode: ValidationMode, handler: String?,
        transport: MessageSpec.Transport = .postMessage
    ) -> Validation {
        validate(BodyValue(body), direction: direction, mode: mode, handler: handler, transport: transport)
    }

    /// Checks a message native is about to send as `spec` (its name is known, so nothing is matched).
    public func validate(_ body: Any?, as spec: MessageSpec, mode: ValidationMode = .strict) -> Validation {
        var violations: [ContractViolation] = []
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: spec.direction))
        }
        let value = BodyValue(body)
        if let type = spec.body {
            let typed = FieldChecker(mode: mode, record: violation).check(value, as: type, path: "body")
            guard violations.isEmpty, let typed else { return .invalid(violations) }
            return .valid(ValidatedMessage(kind: spec.kind, direction: spec.direction, fields: [:], body: typed))
        }
        guard case .object(let object) = value else {
            violation("body", .bodyNotObject, "Object", value.typeName)
            return .invalid(violations)
        }
        for (name, expected) in matchValues(of: spec).sorted(by: { $0.key < $1.key }) {
            guard let field = object[name] else {
                let type = FieldType.constant(expected)
                violation(BodyValue.displayKey(name), .missingField, type.description, "Missing")
                continue
            }
            _ = FieldChecker(mode: mode, record: violation).check(
                field, as: .constant(expected), path: BodyValue.displayKey(name))
        }
        return checkFields(object, of: spec, violations: violations, mode: mode)
    }

    /// Checks a value against a type on its own (native's reply to a page message), path first.
    public func validate(_ value: Any?, as type: FieldType, path: String) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        _ = FieldChecker(mode: .strict) { path, rule, expected, found in
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: .nativeToPage))
        }.check(BodyValue(value), as: type, path: path)
        return violations
    }

    /// The body native sends for `spec`: the play's value with the discriminator values and the request id added.
    public func outgoing(_ spec: MessageSpec, value: JSONValue, requestID: String?) -> Any {
        guard spec.isObject, case .object(var fields) = value else { return value.foundationValue }
        for (name, constant) in matchValues(of: spec) {
            switch constant {
            case .string(let text): fields[name] = .string(text)
            case .number(let number): fields[name] = .number(number)
            case .boolean(let flag): fields[name] = .boolean(flag)
            }
        }
        if let field = self.requestID?.field, carriesRequestID(spec), let requestID {
            fields[field] = .string(requestID)
        }
        // A constant field has one possible value: native need not spell it out.
        for (name, field) in spec.fields where fields[name] == nil && !field.optional {
            if case .constant = field.type { fields[name] = field.type.sample }
        }
        return JSONValue.object(fields).foundationValue
    }

    /// Checks a body already sorted into JS types.
    ///
    /// - Parameter collectingFields: false when only the violations matter (a message native is about to send):
    ///   the valid result then carries no typed field values.
    func validate(
        _ value: BodyValue, direction: Direction, mode: ValidationMode, handler: String? = nil,
        transport: MessageSpec.Transport = .postMessage, collectingFields: Bool = true
    ) -> Validation {
        var violations: [ContractViolation] = []
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        let handler = handler ?? self.handler
        func isCandidate(_ spec: MessageSpec) -> Bool {
            self.isCandidate(spec, direction: direction, handler: handler, transport: transport)
        }
        // Built only off the hot path (a bare message, a violation): a valid object message never needs the list.
        var candidates: [MessageSpec] { messages.filter(isCandidate) }
        var expectedKind: String {
            let kinds = candidates.filter(\.isObject).map(\.kind)
            return kinds.isEmpty ? "no kind (none declared)" : "one of: \(kinds.joined(separator: ", "))"
        }
        guard case .object(let object) = value else {
            let candidates = candidates
            // A bare message: a constant names it; otherwise the first whose type fits.
            let bare = candidates.filter { !$0.isObject }
            let ordered =
                bare.filter { if case .constant = $0.body { true } else { false } }
                + bare.filter {
                    if case .constant = $0.body { false } else { true }
                }
            for spec in ordered {
                // A nested object's violations don't make its check return nil: count them.
                var fits = true
                let typed = FieldChecker(mode: mode) { _, _, _, _ in fits = false }
                    .check(value, as: spec.body!, path: "body")
                if fits, let typed {
                    return .valid(ValidatedMessage(kind: spec.kind, direction: direction, fields: [:], body: typed))
                }
            }
            if bare.isEmpty {
                violation("body", .bodyNotObject, "Object", value.typeName)
            } else {
                let names = bare.map { "\($0.kind) (\($0.body!))" }.joined(separator: ", ")
                let objects = candidates.contains(where: \.isObject) ? "an Object or " : ""
                violation("body", .unknownKind, "\(objects)one of: \(names)", value.typeName)
            }
            return .invalid(violations)
        }
        // The message whose discriminator values all match; the most specific wins ({type} < {type, pluginId}).
        var best: (index: Int, count: Int)?
        for index in messages.indices where messages[index].isObject && isCandidate(messages[index]) {
            guard let count = matchCount(messages[index], object) else { continue }
            if best == nil || count > best!.count { best = (index, count) }
        }
        guard let index = best?.index else {
            describeUnmatched(object, candidates: candidates, direction: direction, expectedKind, violation)
            return .invalid(violations)
        }
        return checkFields(
            object, of: messages[index], violations: violations, mode: mode, collecting: collectingFields)
    }

    /// Whether a message arriving this way could be `spec`: its direction, and for the page's, its handler and
    /// transport.
    @inline(__always)  // the flat paths call it per message and candidate: a call copies the spec
    func isCandidate(_ spec: MessageSpec, direction: Direction, handler: String, transport: MessageSpec.Transport)
        -> Bool
    {
        spec.direction == direction
            && (direction == .nativeToPage
                || (handlerName(of: spec) == handler && (spec.transport ?? .postMessage) == transport))
    }

    /// How many discriminator values name `spec` when the object has all of them; nil when one differs.
    ///
    /// The one-field discriminator (`kind`) is compared in place: no dictionary per message and candidate.
    private func matchCount(_ spec: MessageSpec, _ object: [String: BodyValue]) -> Int? {
        if let name = singleDiscriminator(of: spec) {
            guard case .string(let kind)? = object[name], kind == spec.kind else { return nil }
            return 1
        }
        let match = matchValues(of: spec)
        return matchesAll(match, object) ? match.count : nil
    }

    /// Whether every discriminator value is in the object, exactly.
    private func matchesAll(_ match: [String: ConstantValue], _ object: [String: BodyValue]) -> Bool {
        match.allSatisfy { name, constant in object[name].map { ConstantValue.matches(constant, $0) } ?? false }
    }

    /// Names why no message matched: the first discriminator field that is missing, mistyped or unknown.
    private func describeUnmatched(
        _ object: [String: BodyValue], candidates: [MessageSpec], direction: Direction,
        _ expectedKind: @autoclosure () -> String, _ violation: (String, ContractViolation.Rule, String, String) -> Void
    ) {
        var fields = discriminator
        for spec in candidates where spec.isObject {
            for name in matchValues(of: spec).keys.sorted() where !fields.contains(name) { fields.append(name) }
        }
        let used = fields.filter { name in candidates.contains { matchValues(of: $0)[name] != nil } }
        for name in used.isEmpty ? [discriminator[0]] : used {
            let path = BodyValue.displayKey(name)
            let declared = candidates.compactMap { matchValues(of: $0)[name] }
            guard let value = object[name] else {
                violation(path, .missingField, "\(declared.first?.typeName ?? "String"), \(expectedKind())", "Missing")
                return
            }
            if !declared.isEmpty, !declared.contains(where: { $0.typeName == value.typeName }) {
                violation(path, .wrongType, "\(declared[0].typeName), \(expectedKind())", value.typeName)
                return
            }
        }
        // Every discriminator field is there with the right type: the combination names nothing. The values are
        // message data: name the rule and the known kinds, not what came.
        let name = used.first ?? discriminator[0]
        let otherWay = messages.contains { spec in
            spec.direction != direction && spec.isObject
                && matchesAll(matchValues(of: spec), object)
        }
        violation(
            BodyValue.displayKey(name), otherWay ? .wrongDirection : .unknownKind, expectedKind(),
            object[name]?.typeName ?? "Missing")
    }

    /// Checks the fields of an object message named `spec`.
    private func checkFields(
        _ object: [String: BodyValue], of spec: MessageSpec, violations existing: [ContractViolation],
        mode: ValidationMode, collecting: Bool = true
    ) -> Validation {
        var violations = existing
        let direction = spec.direction
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        // The one-field discriminator needs no dictionary: its name is reserved, its value is the kind.
        let single = singleDiscriminator(of: spec)
        let match = single == nil ? matchValues(of: spec) : [:]
        var requestIDValue: String?
        var reserved = ReservedNames(discriminator: single, match: match)
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
        let fields = FieldChecker(mode: mode, record: violation, collects: collecting).check(
            object, against: spec.fields, reserved: reserved, prefix: "")
        guard violations.isEmpty else { return .invalid(violations) }
        guard collecting else { return .valid(ValidatedMessage(kind: spec.kind, direction: direction, fields: [:])) }
        var message = ValidatedMessage(
            kind: spec.kind, direction: direction, requestID: requestIDValue, requestIDField: requestID?.field,
            fields: fields)
        message.kindField = single
        for (name, constant) in match { message.matchValues[name] = constant.fieldValue }
        return .valid(message)
    }
}

extension FieldType {
    /// The typed value of a body value that meets this scalar type (string, number, integer, boolean, constant);
    /// nil when it doesn't, and for arrays and objects. The one success rule for scalars: the validator and the
    /// flat paths all use it.
    func scalarValue(_ value: BodyValue) -> FieldValue? {
        switch (self, value) {
        case (.string, .string(let text)): return .string(text)
        case (.number, .number(let number)): return number.isFinite ? .number(number) : nil
        // Beyond 2^53 a JS number is no longer an exact integer.
        case (.integer, .number(let number)):
            guard number.isFinite, number.rounded() == number, abs(number) <= 9_007_199_254_740_991 else { return nil }
            return Int(exactly: number).map(FieldValue.integer)
        case (.boolean, .boolean(let flag)): return .boolean(flag)
        case (.constant(.number(let expected)), .number(let number)) where number == expected:
            return Int(exactly: number).map(FieldValue.integer) ?? .number(number)
        case (.constant(.string(let expected)), .string(let text)) where text == expected: return .string(text)
        case (.constant(.boolean(let expected)), .boolean(let flag)) where flag == expected: return .boolean(flag)
        default: return nil
        }
    }
}

extension ConstantValue {
    /// Whether a body value is exactly this constant (a JS boolean never equals a number).
    static func matches(_ constant: ConstantValue, _ value: BodyValue) -> Bool {
        switch (constant, value) {
        case (.string(let expected), .string(let text)): expected == text
        case (.number(let expected), .number(let number)): expected == number
        case (.boolean(let expected), .boolean(let flag)): expected == flag
        default: false
        }
    }

    /// The constant as a checked field value, for descriptions.
    var fieldValue: FieldValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): Int(exactly: number).map(FieldValue.integer) ?? .number(number)
        case .boolean(let flag): .boolean(flag)
        }
    }
}

/// The names a message's top level may carry besides its declared fields: `kind` and the request id.
///
/// Two names at most: a plain pair spares every message a `Set`'s allocation and hashing.
private struct ReservedNames {
    /// The one discriminator field, when the contract has one and the message no `match` of its own.
    var discriminator: String?
    /// The discriminator fields that named the message otherwise (the contract's dictionary: no set is built).
    var match: [String: ConstantValue] = [:]
    var requestID: String?

    /// None: nested objects reserve nothing.
    static let none = ReservedNames()

    func contains(_ name: String) -> Bool { name == discriminator || name == requestID || match[name] != nil }
}

/// Checks fields recursively, recording violations with their full path.
private struct FieldChecker {
    let mode: ValidationMode
    let record: (String, ContractViolation.Rule, String, String) -> Void
    /// Whether objects keep their typed fields; without, only the violations come out (nothing is copied).
    var collects = true

    func check(
        _ object: [String: BodyValue], against specs: [String: FieldSpec], reserved: ReservedNames, prefix: String
    )
        -> [String: FieldValue]
    {
        var typed: [String: FieldValue] = collects ? Dictionary(minimumCapacity: specs.count) : [:]
        func visit(_ name: String, _ spec: FieldSpec) {
            guard let value = object[name] else {
                if !spec.optional {
                    record(prefix + BodyValue.displayKey(name), .missingField, spec.type.description, "Missing")
                }
                return
            }
            if let checked = check(value, as: spec.type, path: prefix + BodyValue.displayKey(name)), collects {
                typed[name] = checked
            }
        }
        // Sorted so violations come in a stable order (one field needs no sorted copy); paths are built only for
        // a violation.
        if specs.count > 1 {
            for (name, spec) in specs.sorted(by: { $0.key < $1.key }) { visit(name, spec) }
        } else {
            for (name, spec) in specs { visit(name, spec) }
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
        if let scalar = type.scalarValue(value) { return scalar }
        // Past here a scalar type was not met: name why.
        switch (type, value) {
        case (.number, .number(let number)), (.integer, .number(let number)):
            guard number.isFinite else {
                record(path, .notFinite, type.description, "Number")
                return nil
            }
            record(path, .notInteger, type.description, "Number")
            return nil
        case (.constant(let constant), _):
            switch (constant, value) {
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
                    if collects { typed.append(checked) }
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

extension BridgeContract {
    /// The page → native message that opens the conversation: the first one that answers nothing.
    public var readyKind: String {
        messages.first { $0.direction == .pageToNative && $0.acknowledges == nil }?.kind ?? "ready"
    }
}
