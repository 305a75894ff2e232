/// A place in a message that the contract names: a field (`id`), a nested field (`data.identifier`), an element
/// (`[0]`, Cordova's callback id at `body[0]`) or a place inside a field's JSON text (`payload.id`, where
/// `payload` is declared `"encoding": "json"`).
///
/// One type for every reference: the request id, a play step's `echo` and a correlation rule. It is resolved once,
/// at contract load, against the message's declared shape, so a path that names nothing is refused there; the
/// validators, the judge and the play then only follow its steps. A bare name (no `.` or `[`) is a top-level field,
/// as it always was.
package struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One step into a value.
    package enum Step: Sendable, Hashable {
        /// A field of an object (or, for digits, an element of an array whose type is not declared).
        case key(String)
        /// An element of an array.
        case index(Int)
        /// The string here is JSON text: the path goes on inside what it holds.
        case text
    }

    /// The steps from the message (its object, or its body when it is not an object).
    package let steps: [Step]
    /// How violations and errors name the place: `data.identifier`, `body[0]`, `payload(json).id`.
    package let description: String

    /// A path of one top-level field, as a bare name always meant.
    package init(field name: String) {
        steps = [.key(name)]
        description = BodyValue.displayKey(name)
    }

    /// A resolved path; `prefix` is where the message's value sits in a violation (`body`, `body(json)`, or
    /// nothing for an object's fields).
    init(steps: [Step], prefix: String) {
        self.steps = steps
        var text = prefix
        for step in steps {
            switch step {
            case .key(let name): text += (text.isEmpty ? "" : ".") + BodyValue.displayKey(name)
            case .index(let index): text += "[\(index)]"
            case .text: text += "(json)"
            }
        }
        description = text
    }

    /// Whether the path is one top-level field: the form every contract wrote before paths.
    package var isField: Bool { steps.count == 1 && { if case .key = steps[0] { true } else { false } }() }

    /// Whether `text` is written as a path (it has a `.` or a `[`) rather than a bare field name.
    package static func isPath(_ text: String) -> Bool { text.contains(".") || text.contains("[") }

    // MARK: Parsing

    /// A token of the written path, before the message's shape says what a name of digits is.
    enum Token: Equatable {
        case name(String)
        case index(Int)
        case text
    }

    /// Splits a written path: names separated by dots, `[n]` elements, `(json)` after a name. Nil for text that
    /// is no path (an empty name, an unclosed bracket, a bracket without digits).
    static func tokens(_ text: String) -> [Token]? {
        guard isPath(text) else { return text.isEmpty ? nil : [.name(text)] }
        var tokens: [Token] = []
        var rest = Substring(text)
        var expectName = true
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let digits = rest[rest.index(after: rest.startIndex)..<close]
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let index = Int(digits) else { return nil }
                tokens.append(.index(index))
                rest = rest[rest.index(after: close)...]
                expectName = false
                continue
            }
            if !expectName {
                guard rest.first == "." else { return nil }
                rest = rest.dropFirst()
            }
            let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
            var name = rest[..<end]
            rest = rest[end...]
            let suffix = "(json)"
            let inText = name.hasSuffix(suffix)
            if inText { name = name.dropLast(suffix.count) }
            if name.isEmpty {
                // `[0]` may start a path, and `(json)` may follow an element: nothing else has no name.
                guard tokens.isEmpty && rest.first == "[" && !inText || inText && tokens.last != nil else {
                    return nil
                }
            } else {
                tokens.append(.name(String(name)))
            }
            if inText { tokens.append(.text) }
            expectName = false
            if rest.first == "." && rest.dropFirst().isEmpty { return nil }
        }
        return tokens.isEmpty ? nil : tokens
    }

    // MARK: Resolving against the declared shape

    /// Resolves `text` in `spec`'s declared shape: its fields (with the implicit ones, such as the request id and
    /// the discriminator), or its body. Returns the path and the type declared where it ends (nil for a place
    /// under `any`, whose shape is not declared). A path that names nothing throws `.invalidValue` without a path:
    /// the caller knows which key of the file held the text.
    static func resolve(_ text: String, in spec: MessageSpec, implicit: [String: FieldType] = [:]) throws(ContractError)
        -> (path: FieldPath, type: FieldType?)
    {
        guard var tokens = tokens(text) else {
            throw ContractError(
                code: .invalidValue, path: "",
                problem: "\"\(text)\" is not a path",
                remedy: "write field names separated by dots and elements as [0], e.g. data.identifier or body[0]")
        }
        let root: FieldType
        let prefix: String
        if let body = spec.body {
            root = body
            prefix = "body"
            // `body[0]` and `[0]` name the same element.
            if tokens.first == .name("body") { tokens.removeFirst() }
        } else {
            var fields = spec.fields
            for (name, type) in implicit where fields[name] == nil { fields[name] = FieldSpec(type) }
            root = .object(fields)
            prefix = spec.jsonText ? "body(json)" : ""
            if spec.jsonText, tokens.starts(with: [.name("body"), .text]) { tokens.removeFirst(2) }
        }
        var steps: [Step] = []
        var type: FieldType? = root
        var index = 0
        func here() -> String { FieldPath(steps: steps, prefix: prefix).description }
        while index < tokens.count {
            let token = tokens[index]
            guard let current = type else {
                // Under `any`: no declared shape to check; digits reach an element or a field at run time.
                switch token {
                case .name(let name): steps.append(.key(name))
                case .index(let element): steps.append(.index(element))
                case .text: steps.append(.text)
                }
                index += 1
                continue
            }
            // A name of digits is an element of an array or tuple; `[n]` always is.
            var element: Int?
            switch token {
            case .index(let number): element = number
            case .name(let name) where !name.isEmpty && name.allSatisfy(\.isASCIIDigit): element = Int(name)
            default: element = nil
            }
            switch (current, token) {
            case (.json(let content), .text):
                steps.append(.text)
                type = content
            case (.json(let content), _):
                // A field of JSON text: the path goes on inside the text (`payload.id` is `payload(json).id`).
                steps.append(.text)
                type = content
                continue
            case (.any, _):
                type = nil
                continue
            case (.object(let fields), .name(let name)):
                guard let field = fields[name] else {
                    let place = steps.isEmpty ? "\"\(spec.kind)\"" : here()
                    throw ContractError(
                        code: .invalidValue, path: "",
                        problem: "\(place) has no field \"\(name)\"",
                        remedy: "name one of its fields: \(fields.keys.sorted().joined(separator: ", "))")
                }
                steps.append(.key(name))
                type = field.type
            case (.array(let items), _) where element != nil:
                steps.append(.index(element!))
                type = items
            case (.tuple(let items), _) where element != nil:
                guard element! < items.count else {
                    throw ContractError(
                        code: .invalidValue, path: "",
                        problem: "\(steps.isEmpty ? prefix : here()) has \(items.count) elements, so no [\(element!)]",
                        remedy: "name an element from [0] to [\(items.count - 1)]")
                }
                steps.append(.index(element!))
                type = items[element!]
            default:
                let place = steps.isEmpty ? (prefix.isEmpty ? "\"\(spec.kind)\"" : prefix) : here()
                let what =
                    switch token {
                    case .name(let name): "field \"\(name)\""
                    case .index(let number): "element [\(number)]"
                    case .text: "JSON text"
                    }
                throw ContractError(
                    code: .invalidValue, path: "",
                    problem: "\(place) is declared \(current), which has no \(what)",
                    remedy: "end the path at \(place), or declare the shape it names")
            }
            index += 1
        }
        return (FieldPath(steps: steps, prefix: prefix), type)
    }
}

// MARK: Following a path

extension FieldPath {
    /// The value at the path in a body as it came; nil where it reaches nothing (a field left out, an element past
    /// the end, text that is not JSON).
    func value(in body: BodyValue) -> BodyValue? {
        var current = body
        for step in steps {
            switch (step, current) {
            case (.key(let name), .object(let fields)):
                guard let next = fields[name] else { return nil }
                current = next
            case (.key(let name), .array(let items)):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                current = items[index]
            case (.index(let index), .array(let items)):
                guard items.indices.contains(index) else { return nil }
                current = items[index]
            case (.text, .string(let text)):
                guard let parsed = BodyValue(jsonText: text) else { return nil }
                current = parsed
            default:
                return nil
            }
        }
        return current == .undefined ? nil : current
    }

    /// The value at the path in a message's JSON form; nil where it reaches nothing.
    package func value(in json: JSONValue) -> JSONValue? {
        var current = json
        for step in steps {
            switch (step, current) {
            case (.key(let name), .object(let fields)):
                guard let next = fields[name] else { return nil }
                current = next
            case (.key(let name), .array(let items)):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                current = items[index]
            case (.index(let index), .array(let items)):
                guard items.indices.contains(index) else { return nil }
                current = items[index]
            case (.text, .string(let text)):
                guard let parsed = BodyValue(jsonText: text).flatMap(JSONValue.converted) else { return nil }
                current = parsed
            default:
                return nil
            }
        }
        return current
    }

    /// `json` with `new` at the path: objects and elements on the way are made as needed (missing elements are
    /// `null`), and JSON text on the way is parsed and written again.
    package func setting(_ new: JSONValue, in json: JSONValue) -> JSONValue {
        Self.set(new, in: json, steps[...])
    }

    private static func set(_ new: JSONValue, in value: JSONValue?, _ steps: ArraySlice<Step>) -> JSONValue {
        guard let step = steps.first else { return new }
        let rest = steps.dropFirst()
        switch (step, value) {
        case (.key(let name), .array?) where Int(name) != nil:
            return set(new, in: value, [.index(Int(name)!)] + rest)
        case (.key(let name), _):
            var fields: [String: JSONValue] = [:]
            if case .object(let existing)? = value { fields = existing }
            fields[name] = set(new, in: fields[name], rest)
            return .object(fields)
        case (.index(let index), _):
            var items: [JSONValue] = []
            if case .array(let existing)? = value { items = existing }
            while items.count <= index { items.append(.null) }
            items[index] = set(new, in: items[index], rest)
            return .array(items)
        case (.text, _):
            var inner: JSONValue?
            if case .string(let text)? = value { inner = BodyValue(jsonText: text).flatMap(JSONValue.converted) }
            return .string(set(new, in: inner, rest).text)
        }
    }
}

extension Character {
    /// `0` to `9`, and no other digit.
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
