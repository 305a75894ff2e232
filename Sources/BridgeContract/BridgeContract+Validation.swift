import Foundation

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
        transport: MessageSpec.Transport = .default
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
        var value = BodyValue(body)
        if let type = spec.body {
            let typed = FieldChecker(mode: mode, record: violation).check(value, as: type, path: "body")
            guard violations.isEmpty, let typed else { return .invalid(violations) }
            return Self.bare(spec, value, typed: typed, direction: spec.direction)
        }
        let place = Place(inText: spec.jsonText)
        if spec.jsonText {
            // The message is its JSON text: parsed first, then checked as the object it holds.
            guard case .string(let text) = value else {
                violation("body", .wrongType, "JSON text of Object", value.typeName)
                return .invalid(violations)
            }
            guard let parsed = BodyValue(jsonText: text) else {
                violation("body", .notJSON, "JSON text of Object", "String")
                return .invalid(violations)
            }
            value = parsed
        }
        guard case .object(let object) = value else {
            violation(place.body, .bodyNotObject, "Object", value.typeName)
            return .invalid(violations)
        }
        for (name, expected) in spec.match.sorted(by: { $0.key < $1.key }) {
            let path = spec.matchDisplay(name, prefix: place.prefix)
            guard let field = spec.matchValue(name, in: object) else {
                violation(path, .missingField, FieldType.constant(expected).description, "Missing")
                continue
            }
            _ = FieldChecker(mode: mode, record: violation).check(field, as: .constant(expected), path: path)
        }
        let result = checkFields(object, of: spec, violations: violations, mode: mode, place: place)
        // A value at a path is a declared field too: its violation is told once.
        guard !spec.matchPaths.isEmpty, case .invalid(let found) = result else { return result }
        return .invalid(found.enumerated().filter { !found[..<$0.offset].contains($0.element) }.map(\.element))
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
        // An id below the top level goes to its path (Cordova's `body[0]`, Turbo's `data.identifier`).
        let deepID =
            spec.requestIDField == nil ? spec.requestIDPath.flatMap { path in requestID.map { (path, $0) } } : nil
        guard spec.isObject, case .object(var fields) = value else {
            return (deepID.map { $0.setting(.string($1), in: value) } ?? value).foundationValue
        }
        for (name, constant) in spec.match where !FieldPath.isPath(name) { fields[name] = constant }
        if let field = spec.requestIDField, let requestID { fields[field] = .string(requestID) }
        // A constant field has one possible value: native need not spell it out.
        for (name, field) in spec.fields where fields[name] == nil && !field.optional {
            if case .constant = field.type { fields[name] = field.type.sample }
        }
        var message = JSONValue.object(fields)
        // A discriminator value below the top level goes to its path (`data.type`).
        for (name, path) in spec.matchPaths {
            message = path.setting(spec.match[name]!, in: message)
        }
        if let (path, id) = deepID { message = path.setting(.string(id), in: message) }
        // A message of JSON text is sent as its text.
        return spec.jsonText ? message.text : message.foundationValue
    }

    /// Checks a body already sorted into JS types.
    ///
    /// - Parameter collectingFields: false when only the violations matter (a message native is about to send):
    ///   the valid result then carries no typed field values.
    func validate(
        _ value: BodyValue, direction: Direction, mode: ValidationMode, handler: String? = nil,
        transport: MessageSpec.Transport = .default, collectingFields: Bool = true
    ) -> Validation {
        // The candidates are the messages of the body's route.
        let route = MessageRoute(direction, handler: handler ?? self.handler, transport: transport)
        if case .string(let text) = value, messages.contains(where: { $0.jsonText && $0.route == route }) {
            return validateText(text, route: route, direction: direction, mode: mode, collecting: collectingFields)
        }
        return identify(value, route: route, direction: direction, mode: mode, collecting: collectingFields)
    }

    /// Names the message a value is among those of its route (inside JSON text, the messages sent as text) and
    /// checks it.
    func identify(
        _ value: BodyValue, route: MessageRoute, direction: Direction, mode: ValidationMode, collecting: Bool,
        place: Place = Place(inText: false)
    ) -> Validation {
        var violations: [ContractViolation] = []
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        // Built only off the hot path (a bare message, a violation): a valid object message never needs the list.
        var candidates: [MessageSpec] { messages.filter { $0.route == route && $0.jsonText == place.inText } }
        var expectedKind: String {
            let kinds = candidates.filter(\.isObject).map(\.kind)
            return kinds.isEmpty ? "no kind (none declared)" : "one of: \(kinds.joined(separator: ", "))"
        }
        guard case .object(let object) = value else {
            let candidates = candidates
            // A bare message: a constant names it; otherwise the first whose type fits.
            let bare = candidates.filter { !$0.isObject }
            if let found = firstFit(value, among: bare, direction: direction, mode: mode) { return found }
            // The one bare message of the value's JS type shows where the value breaks it (`body[3]`).
            let shaped = bare.filter { !$0.body!.isConstant && $0.body!.jsTypeName == value.typeName }
            if bare.isEmpty {
                violation(place.body, .bodyNotObject, "Object", value.typeName)
            } else if shaped.count == 1 {
                _ = FieldChecker(mode: mode, record: violation).check(value, as: shaped[0].body!, path: "body")
            } else {
                let objects = candidates.contains(where: \.isObject) ? "an Object or " : ""
                violation("body", .unknownKind, "\(objects)one of: \(Self.bareNames(bare))", value.typeName)
            }
            return .invalid(violations)
        }
        // The message whose discriminator values all match; the most specific wins ({type} < {type, pluginId}).
        var best: (index: Int, count: Int)?
        for index in messages.indices
        where messages[index].isObject && messages[index].route == route && messages[index].jsonText == place.inText {
            guard let count = matchCount(messages[index], object) else { continue }
            if best == nil || count > best!.count { best = (index, count) }
        }
        guard let index = best?.index else {
            let candidates = candidates
            let texts = place.inText ? [] : messages.filter { $0.route == route && $0.jsonText }
            if !candidates.contains(where: \.isObject), !candidates.isEmpty || !texts.isEmpty {
                // A channel of bare messages and texts only (a string channel): the object is the wrong body, not a
                // message missing its discriminator.
                let expected =
                    texts.isEmpty
                    ? Self.bareExpectation(candidates) : Self.textExpectation(texts: texts, bare: candidates)
                violation("body", .wrongType, expected, value.typeName)
            } else {
                describeUnmatched(
                    object, candidates: candidates, direction: direction, prefix: place.prefix, expectedKind,
                    violation)
            }
            return .invalid(violations)
        }
        return checkFields(
            object, of: messages[index], violations: violations, mode: mode, collecting: collecting, place: place)
    }

    /// The first of `specs` (bare messages) the value fits, constants first; nil when none does.
    func firstFit(_ value: BodyValue, among specs: [MessageSpec], direction: Direction, mode: ValidationMode)
        -> Validation?
    {
        let ordered = specs.filter { $0.body!.isConstant } + specs.filter { !$0.body!.isConstant }
        for spec in ordered {
            // A nested object's violations don't make its check return nil: count them.
            var fits = true
            let typed = FieldChecker(mode: mode) { _, _, _, _ in fits = false }
                .check(value, as: spec.body!, path: "body")
            if fits, let typed { return Self.bare(spec, value, typed: typed, direction: direction) }
        }
        return nil
    }

    /// A bare message that fits its type, with the request id it carries at a path into its body (Cordova's
    /// `body[0]`); invalid when that id is empty.
    static func bare(_ spec: MessageSpec, _ value: BodyValue, typed: FieldValue, direction: Direction) -> Validation {
        guard spec.requestIDPath != nil else {
            return .valid(ValidatedMessage(kind: spec.kind, direction: direction, fields: [:], body: typed))
        }
        var violations: [ContractViolation] = []
        let id = requestID(in: value, of: spec) { path, rule, expected, found in
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        guard violations.isEmpty else { return .invalid(violations) }
        var message = ValidatedMessage(kind: spec.kind, direction: direction, requestID: id, fields: [:], body: typed)
        message.requestIDField = nil
        return .valid(message)
    }

    /// The request id a message carries at a path below its top level (`data.identifier`, `body[0]`); records why
    /// there is none. Nil for a message that carries no id there.
    static func requestID(
        in value: BodyValue, of spec: MessageSpec, record: (String, ContractViolation.Rule, String, String) -> Void
    ) -> String? {
        guard spec.requestIDField == nil, let path = spec.requestIDPath else { return nil }
        switch path.value(in: value) {
        case nil: record(path.description, .missingField, "String (request id)", "Missing")
        case .string(let id)? where id.isEmpty:
            record(path.description, .emptyRequestID, "String (request id)", "String")
        case .string(let id)?: return id
        case let other?: record(path.description, .wrongType, "String (request id)", other.typeName)
        }
        return nil
    }

    /// The bare messages of a route as a violation lists them: `ready (String), ping (Number)`.
    static func bareNames(_ bare: [MessageSpec]) -> String {
        bare.map { "\($0.kind) (\($0.body!))" }.joined(separator: ", ")
    }

    /// What a route of bare messages only expects: their one body type (`String`), else each message and type.
    private static func bareExpectation(_ bare: [MessageSpec]) -> String {
        let types = Set(bare.map { "\($0.body!)" })
        return types.count == 1 ? types.first! : "one of: \(bareNames(bare))"
    }

    /// How many discriminator values name `spec` when the object has all of them; nil when one differs.
    ///
    /// The one-field discriminator (`kind`) is compared in place: no dictionary per message and candidate.
    private func matchCount(_ spec: MessageSpec, _ object: [String: BodyValue]) -> Int? {
        if let name = spec.kindField {
            guard case .string(let kind)? = object[name], kind == spec.kind else { return nil }
            return 1
        }
        return spec.matchesAll(object) ? spec.match.count : nil
    }

    /// Names why no message matched: the first discriminator field that is missing, mistyped or unknown.
    private func describeUnmatched(
        _ object: [String: BodyValue], candidates: [MessageSpec], direction: Direction, prefix: String,
        _ expectedKind: @autoclosure () -> String, _ violation: (String, ContractViolation.Rule, String, String) -> Void
    ) {
        var fields = discriminator
        for spec in candidates where spec.isObject {
            for name in spec.match.keys.sorted() where !fields.contains(name) { fields.append(name) }
        }
        let used = fields.filter { name in candidates.contains { $0.match[name] != nil } }
        // A path is followed as the first message that names a value there resolved it.
        let owner = { (name: String) in candidates.first { $0.isObject && $0.match[name] != nil } }
        func value(_ name: String) -> BodyValue? { owner(name).map { $0.matchValue(name, in: object) } ?? object[name] }
        func display(_ name: String) -> String {
            owner(name)?.matchDisplay(name, prefix: prefix) ?? prefix + BodyValue.displayKey(name)
        }
        for name in used.isEmpty ? [discriminator[0]] : used {
            let path = display(name)
            let declared = candidates.compactMap { $0.match[name] }
            guard let value = value(name) else {
                violation(path, .missingField, "\(declared.first?.typeName ?? "String"), \(expectedKind())", "Missing")
                return
            }
            if !declared.isEmpty, !declared.contains(where: { $0.typeName == value.typeName }) {
                violation(path, .wrongType, "\(declared[0].typeName), \(expectedKind())", value.typeName)
                return
            }
        }
        // Every discriminator field is there with the right type: the combination names nothing. Blame the first
        // field whose value no message declares (Capacitor's unknown pluginId, not its type "message"). The values
        // are message data: name the rule and the known kinds, not what came.
        let unmatched = used.first { name in
            !candidates.contains { spec in
                guard let constant = spec.match[name], let value = spec.matchValue(name, in: object) else {
                    return false
                }
                return JSONValue.matches(constant, value)
            }
        }
        let name = unmatched ?? used.first ?? discriminator[0]
        let otherWay = messages.contains { spec in
            spec.direction != direction && spec.isObject && spec.jsonText == !prefix.isEmpty
                && spec.matchesAll(object)
        }
        violation(
            display(name), otherWay ? .wrongDirection : .unknownKind, expectedKind(), value(name)?.typeName ?? "Missing"
        )
    }

    /// Checks the fields of an object message named `spec`.
    private func checkFields(
        _ object: [String: BodyValue], of spec: MessageSpec, violations existing: [ContractViolation],
        mode: ValidationMode, collecting: Bool = true, place: Place
    ) -> Validation {
        var violations = existing
        let direction = spec.direction
        func violation(_ path: String, _ rule: ContractViolation.Rule, _ expected: String, _ found: String) {
            violations.append(
                ContractViolation(path: path, rule: rule, expected: expected, found: found, direction: direction))
        }
        // The one-field discriminator needs no dictionary: its name is reserved, its value is the kind.
        let single = spec.kindField
        let match = single == nil ? spec.match : [:]
        var requestIDValue: String?
        var reserved = ReservedNames(discriminator: single, match: match)
        if let idField = spec.requestIDField {
            reserved.requestID = idField
            let path = place.prefix + idField
            switch object[idField] {
            case nil:
                violation(path, .missingField, "String (request id)", "Missing")
            case .string(let id)? where id.isEmpty:
                violation(path, .emptyRequestID, "String (request id)", "String")
            case .string(let id)?:
                requestIDValue = id
            case let other?:
                violation(path, .wrongType, "String (request id)", other.typeName)
            }
        }
        let fields = FieldChecker(mode: mode, record: violation, collects: collecting).check(
            object, against: spec.fields, reserved: reserved, prefix: place.prefix)
        // An id deeper down is typed by its declared field; what is left is that it is there and not empty.
        if violations.isEmpty, spec.requestIDField == nil, spec.requestIDPath != nil {
            requestIDValue = Self.requestID(in: .object(object), of: spec, record: violation)
        }
        guard violations.isEmpty else { return .invalid(violations) }
        guard collecting else { return .valid(ValidatedMessage(kind: spec.kind, direction: direction, fields: [:])) }
        var message = ValidatedMessage(
            kind: spec.kind, direction: direction, requestID: requestIDValue, requestIDField: requestID?.field,
            fields: fields)
        // An id below the top level is in its field already: the description names no field of its own for it.
        if spec.requestIDField == nil { message.requestIDField = nil }
        message.kindField = single
        // A value at a path is in its declared field already.
        for (name, constant) in match where !FieldPath.isPath(name) {
            message.matchValues[name] = constant.fieldValue
        }
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
        case (.null, .null), (.constant(.null), .null): return .null
        default: return nil
        }
    }
}

extension JSONValue {
    /// Whether a body value is exactly this constant (a JS boolean never equals a number).
    static func matches(_ constant: JSONValue, _ value: BodyValue) -> Bool {
        switch (constant, value) {
        case (.string(let expected), .string(let text)): expected == text
        case (.number(let expected), .number(let number)): expected == number
        case (.boolean(let expected), .boolean(let flag)): expected == flag
        case (.null, .null): true
        default: false
        }
    }

    /// The constant as a checked field value, for descriptions.
    var fieldValue: FieldValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): Int(exactly: number).map(FieldValue.integer) ?? .number(number)
        case .boolean(let flag): .boolean(flag)
        case .null: .null
        case .array, .object: FieldValue(self)
        }
    }
}
