import BridgeContract
import Foundation

/// Native's steps that are not one message: a call with several arguments, and a script whose value is checked
/// and may hold page messages native pulls.
extension PlayRunner {
    func performNative(_ step: PlayStep, _ pending: Pending) async {
        if let function = step.call {
            await performCall(function, step, pending)
        } else if let file = step.evaluateFile {
            await performFile(file, source: step.evaluateSource ?? "", pending)
        } else if let expression = step.evaluate, let returns = step.returns {
            await performScript(expression, returns: returns, step, pending)
        }
    }

    /// Calls the page function with each argument from its source, checked against its type first.
    private func performCall(_ function: String, _ step: PlayStep, _ pending: Pending) async {
        let contract = contract
        let echoed = { (path: String) in pending.trigger.flatMap { contract.echoed(path, of: $0) } }
        let script: String
        var structures: [String] = []
        do {
            var values: [JSONValue] = []
            for (index, argument) in (step.arguments ?? []).enumerated() {
                let path = "arguments[\(index)]"
                guard var value = argument.value(echoing: echoed, page: session.webView?.url) else {
                    throw CheckError(
                        code: .stepCannotBeBuilt, field: path,
                        problem: "the trigger has no value at the echoed path (or the page no URL)",
                        remedy:
                            "echo a path the trigger message holds, or load the page from a file or URL for a relative url"
                    )
                }
                if let type = argument.type {
                    value = StepArgument.encoded(value, as: type)
                    let violations = contract.validate(value.foundationValue, as: type, path: path)
                    if !violations.isEmpty {
                        throw CheckError(
                            code: .stepCannotBeBuilt, problem: describeInline(violations),
                            remedy: "give the argument a value of its declared type, or correct the type in the play")
                    }
                }
                values.append(value)
                structures.append(value.structure)
            }
            script = try ReceiverCall.script(calling: function, arguments: values)
        } catch {
            outcomes.append(
                SessionRecord.StepOutcome(
                    index: pending.index, sent: function, name: function,
                    failure: BridgeFailure(.pageDidNotAccept, "the native call could not be built: \(error)"),
                    note: ""))
            return
        }
        if let perturber {
            await perturber.holdNative(function, after: pending.trigger?.kind ?? CheckPlay.didFinish)
            clock.beginStep()
        }
        session.record(.sent, "\(function)(\(structures.joined(separator: ", ")))")
        let failure = await run(script, accepted: step.accepted ?? .returns).map {
            BridgeFailure($0.category, "\(function): \($0.detail)")
        }
        await perturber?.holdCompletion()
        if let failure {
            session.record(.notAccepted, failure.detail)
        } else {
            session.record(.accepted, function)
        }
        let note: String =
            switch step.accepted ?? .returns {
            case .observed(let expression, _): "\(function) accepted (\(expression) shows it)"
            case .returns: "\(function) returned"
            case .settles: "\(function)'s promise fulfilled"
            }
        outcomes.append(
            SessionRecord.StepOutcome(
                index: pending.index, sent: function, name: function, failure: failure, note: note))
    }

    /// Evaluates the expression, checks its value against `returns`, and hands each message it holds to the
    /// session as if the page had posted it to the step's handler.
    private func performScript(_ expression: String, returns: FieldType, _ step: PlayStep, _ pending: Pending) async {
        let name = "evaluate \(expression)"
        let value: JSONValue
        switch await read(expression) {
        case nil:
            return finishScript(pending, name, BridgeFailure(.nativeDidNotReceive, clock.missed("\(name) did not end")))
        case .failure(let error):
            return finishScript(
                pending, name, BridgeFailure(.nativeDidNotReceive, "\(name) threw: \(javaScriptErrorText(error))"))
        case .success(let found):
            value = found ?? .null
        }
        let violations = contract.validate(value.foundationValue, as: returns, path: "result")
        if !violations.isEmpty {
            let detail = violations.map { "\($0.path): expected \($0.expected), found \($0.found)" }
            return finishScript(
                pending, name,
                BridgeFailure(
                    .nativeDidNotReceive, "\(name): \(detail.joined(separator: "; ")) (\(violations[0].rule))"))
        }
        session.record(.sent, "\(name): \(value.structure)")
        if let handler = step.messages {
            var held = value
            if case .string(let text) = value,
                let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            {
                held = parsed
            }
            if case .array(let items) = held {
                for item in items { session.pulled(item.foundationValue, handler: handler) }
            }
        }
        finishScript(pending, name, nil)
    }

    /// Evaluates a script file as native's `evaluateJavaScript` of its text would.
    private func performFile(_ file: String, source: String, _ pending: Pending) async {
        let name = "evaluate \((file as NSString).lastPathComponent)"
        session.record(.sent, name)
        let failure = await session.deliver(script: source, showing: nil, clock: clock).map {
            BridgeFailure($0.category, "\(name): \($0.detail)")
        }
        if let failure {
            session.record(.notAccepted, failure.detail)
        } else {
            session.record(.accepted, name)
        }
        outcomes.append(
            SessionRecord.StepOutcome(
                index: pending.index, sent: nil, name: name, failure: failure, note: "\(name) ran"))
    }

    private func finishScript(_ pending: Pending, _ name: String, _ failure: BridgeFailure?) {
        if let failure { session.record(.notAccepted, failure.detail) }
        outcomes.append(
            SessionRecord.StepOutcome(
                index: pending.index, sent: nil, name: name, failure: failure, note: "\(name) has its declared type"))
    }
}
