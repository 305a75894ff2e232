extension BridgeContract {
    /// Checks what the JSON shape alone can't: names, references and uniqueness.
    package func checkDefinition() throws(ContractError) {
        func invalid(_ path: String, _ problem: String, _ remedy: String) -> ContractError {
            ContractError(code: .invalidValue, path: path, problem: problem, remedy: remedy)
        }
        if let name {
            if name.allSatisfy(\.isWhitespace) {
                throw invalid(
                    "name", "the contract name is empty", "name the contract, e.g. \"checkout\", or leave the key out")
            }
            if name.unicodeScalars.contains(where: BridgeContract.breaksALine) {
                throw invalid(
                    "name", "the contract name holds a control character",
                    "write the name on one line of printable text: reports print it")
            }
        }
        if version < 1 {
            throw invalid(
                "version", "the contract version must be 1 or more",
                "start at 1 and bump it on every incompatible change")
        }
        if version > BridgeContract.maximumVersion {
            throw invalid(
                "version",
                "the contract version \(version) is above \(BridgeContract.maximumVersion), the largest integer "
                    + "JavaScript reads exactly (the page and the web module see the version as a Number)",
                "number versions from 1 and bump by 1 on every incompatible change; "
                    + "renumber this contract and its lock from 1")
        }
        if handler.isEmpty {
            throw invalid("handler", "the handler name is empty", "name the message handler, e.g. \"bridge\"")
        }
        try checkDelivery(invalid: invalid)
        if discriminator.isEmpty || discriminator.contains(where: \.isEmpty) {
            throw invalid(
                "discriminator", "the discriminator must name at least one field, none of them empty",
                "write a field name such as \"type\", or an array such as [\"component\", \"event\"]")
        }
        for (index, field) in discriminator.enumerated() where discriminator[..<index].contains(field) {
            throw invalid(
                "discriminator", "the discriminator names \"\(field)\" twice",
                "name each field once: [\(discriminator.uniqued.map { "\"\($0)\"" }.joined(separator: ", "))]")
        }
        if let requestID {
            if requestID.field.isEmpty || discriminator.contains(requestID.field) {
                throw invalid(
                    "requestID.field", "the request-id field must be a non-empty name other than the discriminator",
                    "name it, e.g. \"id\", or a path such as data.identifier or body[0]")
            }
        }
        if let frames { try frames.check() }
        var seen = Set<String>()
        var named: [String: String] = [:]
        for (index, message) in messages.enumerated() {
            let path = "messages[\(index)]"
            if message.kind.isEmpty {
                throw invalid("\(path).kind", "the kind is empty", "give every message a non-empty kind")
            }
            if !seen.insert(message.kind).inserted {
                throw invalid(
                    "\(path).kind", "kind \"\(message.kind)\" is declared twice", "give each message its own kind")
            }
            if message.direction == .pageToNative, message.kind == CheckPlay.didFinish {
                throw invalid(
                    "\(path).kind",
                    "\"\(CheckPlay.didFinish)\" names the page's load in the check's steps (after: didFinish), "
                        + "so a page message of that kind could not be told apart from it",
                    "rename the message, e.g. \"finished\"")
            }
            try checkShape(message, path: path, invalid: invalid)
            if message.isObject {
                let match = message.match
                if match.isEmpty {
                    throw invalid(
                        "\(path).match", "with several discriminator fields a message must name its values",
                        "add \"match\": {\(discriminator.map { "\"\($0)\": …" }.joined(separator: ", "))}")
                }
                // Two messages the same values name could never be told apart.
                let signature =
                    "\(message.route)\(message.jsonText ? " text" : "") "
                    + match.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                if let other = named[signature] {
                    throw invalid(
                        "\(path).match", "\"\(message.kind)\" is named by the same values as \"\(other)\"",
                        "give each message its own discriminator values")
                }
                named[signature] = message.kind
                try checkMatchPaths(message, path: path)
                let carried = message.requestIDField
                for name in message.fields.keys where match[name] != nil || name == carried || name.isEmpty {
                    throw invalid(
                        "\(path).fields.\(name)", "field \"\(name)\" is reserved or empty",
                        "the discriminator and the request-id field are implicit; don't declare them as fields")
                }
            }
            if let body = message.body, !body.isConstant {
                // Bare values are tried in declaration order: one an earlier type takes whole is never reached.
                let earlier = messages[..<index].first { other in
                    other.route == message.route && other.body.map { !$0.isConstant && $0.takesAll(of: body) } == true
                }
                if let earlier {
                    throw invalid(
                        "\(path).body",
                        "\"\(message.kind)\" (\(body)) is never matched: every value it could be is taken first by "
                            + "\"\(earlier.kind)\" (\(earlier.body!)), declared before it",
                        "remove one, declare the narrower type first, or tell them apart with a constant body")
                }
            }
            if case .constant(let constant)? = message.body {
                // Two bare messages with the same value could never be told apart either.
                let signature =
                    "\(message.route) "
                    + "body=\(constant.typeName) \(constant)"
                if let other = named[signature] {
                    throw invalid(
                        "\(path).body", "\"\(message.kind)\" is the same constant as \"\(other)\"",
                        "give each bare message its own value")
                }
                named[signature] = message.kind
            }
            try FieldSpec.check(message.fields, path: "\(path).fields")
            if let target = message.acknowledges {
                guard requestID != nil else {
                    throw invalid(
                        "\(path).acknowledges", "acknowledges needs a request-id field",
                        "add \"requestID\": {\"field\": \"id\"} to the contract")
                }
                guard let request = messages.first(where: { $0.kind == target }), request.direction != message.direction
                else {
                    throw invalid(
                        "\(path).acknowledges",
                        "acknowledges \"\(target)\", which is not a message of the other direction",
                        "name the kind of a message sent the other way")
                }
                // A bare body carries the id at a path into it (Cordova's `body[0]`); a top-level field needs an object.
                if (!message.isObject || !request.isObject) && !FieldPath.isPath(requestID!.field) {
                    throw invalid(
                        "\(path).acknowledges", "a request and its answer must both be objects, to carry the id",
                        "declare both with fields, not body, or give requestID a path into the body such as body[0]")
                }
            }
            try message.correlation?.check(of: message, in: self, path: "\(path).correlation")
        }
        // Once every message is known good: the path must exist in each that carries the id.
        if let requestID { try checkRequestIDPath(requestID.field) }
        if let check { try check.check(against: self) }
    }

    /// Refuses a discriminator path that names nothing in the message, or a place its value could never be.
    private func checkMatchPaths(_ message: MessageSpec, path: String) throws(ContractError) {
        for (name, constant) in message.match.sorted(by: { $0.key < $1.key }) where FieldPath.isPath(name) {
            let key = message.declared.match == nil ? "discriminator" : "\(path).match"
            let found: (path: FieldPath, type: FieldType?)
            do {
                found = try FieldPath.resolve(name, in: message)
            } catch {
                throw ContractError(
                    code: .invalidValue, path: key,
                    problem:
                        "the discriminator path \"\(name)\" names nothing in \"\(message.kind)\": \(error.problem)",
                    remedy: error.remedy + "; a discriminator path must name a declared field of every message it names"
                )
            }
            guard let type = found.type else { continue }
            if type.scalarValue(BodyValue(constant.foundationValue)) == nil {
                throw ContractError(
                    code: .invalidValue, path: key,
                    problem:
                        "\"\(message.kind)\" is named by \(constant.typeName) at \(found.path), which is declared \(type)",
                    remedy: "declare \(found.path) {\"type\": \"\(constant.typeName.lowercased())\"} or the constant, "
                        + "or name another place")
            }
        }
    }

    /// The per-direction rules of a message's optional keys.
    private func checkShape(
        _ message: MessageSpec, path: String, invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        let toNative = message.direction == .pageToNative
        if let body = message.body {
            if !message.fields.isEmpty || message.declared.match != nil {
                throw invalid(
                    "\(path).body", "a message with a body type is not an object: it has no fields or match",
                    "remove fields and match, or remove body")
            }
            try body.check(path: "\(path).body")
            if case .object = body {
                throw invalid(
                    "\(path).body",
                    "a body of type object is an object message: objects are matched by their discriminator, "
                        + "so this one would never be matched",
                    "declare it with fields (and match), not body")
            }
        }
        if let match = message.declared.match {
            for (name, value) in match where name.isEmpty {
                throw invalid("\(path).match", "a match field name is empty (value \(value.typeName))", "name it")
            }
            for (name, value) in match where !value.isScalar {
                throw ContractConstant.notScalar(path: "\(path).match.\(name)")
            }
            if match.isEmpty {
                throw invalid("\(path).match", "match is empty", "name at least one discriminator value")
            }
        }
        if !toNative {
            for (key, present) in [
                ("handler", message.declared.handler != nil), ("transport", message.declared.transport != nil),
                ("reply", message.reply != nil), ("pageError", message.pageError),
            ] where present {
                throw invalid(
                    "\(path).\(key)", "\(key) applies to page-to-native messages only",
                    "remove it, or use call for a native-to-page message's page function")
            }
        }
        if toNative, message.declared.call != nil {
            throw invalid(
                "\(path).call", "call applies to native-to-page messages only",
                "remove it; a page-to-native message names its handler with handler")
        }
        if let call = message.declared.call, !BridgeContract.isScriptPath(call) {
            throw invalid(
                "\(path).call", "call must be a JavaScript name such as window.nativeBridge.register",
                "use identifiers separated by dots (letters, digits, _ and $)")
        }
        if let handler = message.declared.handler, handler.isEmpty {
            throw invalid("\(path).handler", "the handler name is empty", "name the handler, or leave the key out")
        }
        if let reply = message.reply {
            try reply.check(path: "\(path).reply")
            if message.transport == .prompt {
                switch reply {
                case .string, .constant(.string): break
                default:
                    throw invalid(
                        "\(path).reply", "a prompt's answer is text", "declare reply as {\"type\": \"string\"}")
                }
            }
        }
        if message.transport == .prompt, message.body != nil {
            throw invalid(
                "\(path).transport", "a prompt message is JSON text of an object",
                "declare it with fields (and match), not body")
        }
        if message.jsonText, !message.isObject || message.transport == .prompt {
            throw invalid(
                "\(path).encoding",
                message.isObject
                    ? "a prompt message is JSON text already" : "encoding applies to a message declared with fields",
                message.isObject
                    ? "remove encoding"
                    : "declare the body itself as JSON text: {\"type\": \"string\", \"encoding\": \"json\", "
                        + "\"content\": …}, or declare the message with fields (and match)")
        }
        if message.transport == .prompt, message.declared.handler != nil {
            throw invalid(
                "\(path).handler", "a prompt message is not posted to a handler",
                "remove handler; native answers prompts through WKUIDelegate")
        }
    }

    /// A control character, or a line or paragraph separator: nothing a one-line name may hold.
    private static func breaksALine(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Checks how native delivers its messages: a receiver function, or an event it dispatches (`dispatch`), and
    /// one of them whenever a native → page message names no `call` of its own.
    private func checkDelivery(
        invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        if let dispatch {
            guard receiver == dispatch.function else {
                throw invalid(
                    "dispatch",
                    "native delivers its messages either by calling the receiver or by dispatching an event, "
                        + "and the contract says both",
                    "remove \"receiver\" to dispatch the event, or remove \"dispatch\" to call the receiver")
            }
            guard BridgeContract.isScriptPath(dispatch.target) else {
                throw invalid(
                    "dispatch.target", "the target must be a dotted JavaScript name, never code",
                    "name the object the page listens on, e.g. window or document")
            }
            guard !dispatch.event.isEmpty else {
                throw invalid(
                    "dispatch.event", "the event type is empty",
                    "give the type the page's addEventListener names, e.g. message")
            }
            return
        }
        if receiver.isEmpty {
            // Only a native → page message that calls no function of its own needs to be delivered somehow.
            guard let index = messages.firstIndex(where: { $0.direction == .nativeToPage && $0.declared.call == nil })
            else { return }
            throw ContractError(
                code: .missingKey, path: "receiver",
                problem: "the native-to-page message messages[\(index)] needs a receiver or a dispatch, and the "
                    + "contract has neither",
                remedy: "add \"receiver\": the page function native calls, e.g. \"window.bridgeReceive\", or "
                    + "\"dispatch\": {\"target\": \"window\", \"event\": \"message\"} when native dispatches "
                    + "an event with each message as its data")
        }
        if !BridgeContract.isScriptPath(receiver) {
            throw invalid(
                "receiver", "the receiver must be a JavaScript name such as window.bridgeReceive",
                "use identifiers separated by dots (letters, digits, _ and $)")
        }
    }

    /// Whether `text` is a dotted JavaScript name, the only receiver form ever written into a script.
    static func isScriptPath(_ text: String) -> Bool {
        // ASCII only, scanned as bytes of one buffer (not through the UTF-8 view): it runs for every native → page
        // call.
        var text = text
        return text.withUTF8(isScriptPath)
    }

    private static func isScriptPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atPartStart = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."):
                if atPartStart { return false }
                atPartStart = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
                UInt8(ascii: "$"):
                atPartStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if atPartStart { return false }
            default:
                return false
            }
        }
        return !atPartStart
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
