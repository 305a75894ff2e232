import Foundation

extension PlayStep {
    /// Refuses a call, dispatch or script step that could never run as written: each refusal names the key, the
    /// rule and the remedy, so a play is fixed before any page loads.
    func checkNative(
        path: String, contract: BridgeContract, invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        let forms = [send != nil, call != nil, evaluate != nil, evaluateFile != nil].filter { $0 }.count
        if forms > 1 {
            throw invalid(
                path, "a step sends a message, calls a function or evaluates a script: one of them",
                "split it into steps with the same after, one each for send, call, evaluate and evaluateFile")
        }
        if evaluateFile != nil, accepted != nil {
            throw invalid(
                "\(path).accepted", "a script file is accepted when it runs without throwing", "remove accepted")
        }
        if let call {
            guard BridgeContract.isScriptPath(call) else {
                throw invalid(
                    "\(path).call", "\"call\" must be a dotted JavaScript name, never code",
                    "name the page function with identifiers separated by dots, e.g. window.turboNative.visit")
            }
            guard let arguments else {
                throw invalid("\(path).arguments", "a call needs its arguments", "give \"arguments\": [] for none")
            }
            for (index, argument) in arguments.enumerated() {
                try argument.check(path: "\(path).arguments[\(index)]", after: after, contract: contract, invalid)
            }
        } else if arguments != nil {
            throw invalid(
                "\(path).arguments", "arguments go with call", "add \"call\": the page function, or remove arguments")
        }
        if echo != nil || echoInto != nil, send == nil {
            throw invalid(
                "\(path).echo", "echo copies fields into a sent message",
                "add send, or echo a call's argument with {\"echo\": \"path\", \"as\": …}")
        }
        if let dispatch {
            guard send != nil else {
                throw invalid(
                    "\(path).dispatch", "an event carries a sent message as its data",
                    "add \"send\": a native-to-page message, or remove dispatch")
            }
            guard BridgeContract.isScriptPath(dispatch.target) else {
                throw invalid(
                    "\(path).dispatch.target", "the target must be a dotted JavaScript name, never code",
                    "name the object the page listens on, e.g. window or document")
            }
            guard !dispatch.event.isEmpty else {
                throw invalid(
                    "\(path).dispatch.event", "the event type is empty",
                    "give the type the page's addEventListener names, e.g. message")
            }
        }
        if evaluate != nil || returns != nil || messages != nil {
            try checkScript(path: path, contract: contract, invalid: invalid)
        }
    }

    private func checkScript(
        path: String, contract: BridgeContract, invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        guard let evaluate, !evaluate.isEmpty else {
            throw invalid(
                "\(path).evaluate", "returns and messages go with a script", "add \"evaluate\": the expression")
        }
        guard let returns else {
            throw invalid(
                "\(path).returns", "a script's value is checked against a declared type",
                "declare its type, e.g. {\"type\": \"string\", \"encoding\": \"json\", \"content\": …}")
        }
        if accepted != nil {
            throw invalid(
                "\(path).accepted", "a script is accepted when its value has the type returns declares",
                "remove accepted")
        }
        guard let handler = messages else { return }
        let onHandler = contract.messages.filter { $0.route.registeredHandler == handler }
        if onHandler.isEmpty {
            let handlers = contract.handlerNames.joined(separator: ", ")
            throw invalid(
                "\(path).messages", "no page-to-native message is declared on the handler \"\(handler)\"",
                "declare the pulled messages with \"handler\": \"\(handler)\", or use one of: \(handlers)")
        }
        switch returns {
        case .array, .json(.array): break
        default:
            throw invalid(
                "\(path).returns", "messages are read from an Array, or JSON text of one; returns is \(returns)",
                "declare {\"type\": \"array\", …} or {\"type\": \"string\", \"encoding\": \"json\", "
                    + "\"content\": {\"type\": \"array\", …}}")
        }
    }
}

extension StepArgument {
    /// Refuses an argument whose value can't have its type, or that echoes what the trigger never has.
    func check(
        path: String, after: String, contract: BridgeContract, _ invalid: (String, String, String) -> ContractError
    ) throws(ContractError) {
        _ = try checkedSample(path: path, after: after, contract: contract, invalid)
    }

    /// A value the argument may have, after checking it can have its type.
    private func checkedSample(
        path: String, after: String, contract: BridgeContract, _ invalid: (String, String, String) -> ContractError
    ) throws(ContractError) -> JSONValue? {
        var sample: JSONValue
        switch source {
        case .fields(let fields):
            var values: [String: JSONValue] = [:]
            var known = true
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                let value = try field.checkedSample(
                    path: "\(path).fields.\(name)", after: after, contract: contract, invalid)
                values[name] = value
                known = known && value != nil
            }
            guard known else { return nil }
            sample = .object(values)
        case .value(let value):
            sample = value
        case .url(let reference):
            sample = .string(URL(string: reference, relativeTo: URL(string: "http://127.0.0.1/"))?.absoluteString ?? "")
        case .echo(let echo):
            guard type != nil else {
                throw invalid("\(path).as", "an echoed argument declares its type", "add \"as\": {\"type\": …}")
            }
            guard let trigger = contract.message(after, direction: .pageToNative) else {
                throw invalid(
                    "\(path).echo", "echo copies a value of the page message the step follows; it follows \(after)",
                    "give the step after: a page-to-native message, or use value")
            }
            do {
                // Under `any` the shape is not declared: the value is checked when the step runs.
                guard let found = try FieldPath.resolve(echo, in: trigger, implicit: trigger.implicitFields).type
                else { return nil }
                sample = found.sample
            } catch {
                throw invalid("\(path).echo", error.problem, error.remedy)
            }
        case .generate(.uuid):
            guard type != nil else {
                throw invalid("\(path).as", "a generated argument declares its type", "add \"as\": {\"type\": …}")
            }
            sample = .string(UUID().uuidString.lowercased())
        }
        guard let type else { return sample }
        sample = Self.encoded(sample, as: type)
        let violations = contract.validate(sample.foundationValue, as: type, path: path)
        if !violations.isEmpty {
            throw invalid(
                path, "the argument can't have its declared type: " + describeInline(violations),
                "make the value, echoed path or generated data match \"as\", or change \"as\"")
        }
        return sample
    }

    /// A value typed as JSON text goes as its text; any other value as it is.
    package static func encoded(_ value: JSONValue, as type: FieldType) -> JSONValue {
        guard case .json = type else { return value }
        if case .string = value { return value }
        return .string(value.text)
    }

    /// The argument's value for one run of its step; `echoed` gives the trigger's value at a path. Nil when the
    /// trigger has nothing there.
    package func value(echoing echoed: (String) -> JSONValue?, page: URL? = nil) -> JSONValue? {
        switch source {
        case .value(let value): value
        case .echo(let path): echoed(path)
        case .generate(.uuid): .string(UUID().uuidString.lowercased())
        case .fields(let fields): Self.object(fields, echoing: echoed, page: page)
        case .url(let reference): URL(string: reference, relativeTo: page).map { .string($0.absoluteString) }
        }
    }

    private static func object(
        _ fields: [String: StepArgument], echoing echoed: (String) -> JSONValue?, page: URL?
    ) -> JSONValue? {
        var values: [String: JSONValue] = [:]
        for (name, field) in fields {
            guard let value = field.value(echoing: echoed, page: page) else { return nil }
            values[name] = field.type.map { encoded(value, as: $0) } ?? value
        }
        return .object(values)
    }
}

extension BridgeContract {
    /// The value at `path` (as a step's argument names it) of the page message `trigger`; nil where it has none.
    package func echoed(_ path: String, of trigger: ValidatedMessage) -> JSONValue? {
        guard let spec = message(trigger.kind, direction: trigger.direction),
            let resolved = try? FieldPath.resolve(path, in: spec, implicit: spec.implicitFields)
        else { return nil }
        return trigger.jsonValue(at: resolved.path)
    }
}
