import BridgeContract

/// One difference between a locked contract and the current one, classified.
package struct ContractChange: Sendable, Equatable, CustomStringConvertible {
    /// Whether both sides built against the lock keep working.
    package enum Compatibility: String, Sendable, Equatable {
        /// A new optional field or a new message kind.
        case compatible
        /// Anything that breaks a side built against the lock: a field removed, a type or constant changed, …
        case incompatible
    }

    /// What changed: `handler`, `receiver`, `dispatch`, `requestID`, a kind (`ready`) or a field (`ready.version`).
    public var path: String
    /// The change in words, e.g. `type changed from Number 1 to String`.
    public var summary: String
    public var compatibility: Compatibility

    public init(path: String, summary: String, compatibility: Compatibility) {
        self.path = path
        self.summary = summary
        self.compatibility = compatibility
    }

    public var description: String { "\(compatibility.rawValue): \(path): \(summary)" }
}

/// The classified differences between a contract and its lock, and whether they may pass.
///
/// An incompatible change passes only with a version bump; then the fixture and the production code
/// must follow, and the lock is refreshed with `webbridge contract lock`.
package struct ContractDiff: Sendable, Equatable, CustomStringConvertible {
    public let locked: BridgeContract
    public let current: BridgeContract
    /// Every difference, in a stable order.
    public let changes: [ContractChange]

    public init(locked: BridgeContract, current: BridgeContract) {
        let locked = locked.protocolOnly
        let current = current.protocolOnly
        self.locked = locked
        self.current = current
        changes = ContractDiff.compare(locked, current)
    }

    public var incompatibleChanges: [ContractChange] { changes.filter { $0.compatibility == .incompatible } }

    /// Whether the current version is higher than the locked one.
    public var versionBumped: Bool { current.version > locked.version }

    /// The changes that make the diff fail: incompatible ones without a version bump.
    public var failures: [ContractChange] { versionBumped ? [] : incompatibleChanges }

    /// Whether the contract may be used (and locked) as it is.
    public var passes: Bool { failures.isEmpty }

    /// Whether the lock no longer matches the contract (it should be refreshed and committed).
    public var lockIsStale: Bool { locked != current }

    /// What to do about the failures.
    public var remedy: String {
        // A loaded contract is at most `maximumVersion`; one built in code may be `Int.max`, which has no next.
        let (next, overflow) = locked.version.addingReportingOverflow(1)
        let bump =
            overflow || next > BridgeContract.maximumVersion
            ? "renumber the contract from 1 (locked version \(locked.version) has no next version a page reads "
                + "exactly), move the old lock away"
            : "bump \"version\" to \(next)"
        return "\(bump), update the fixture page and the production code on both sides, "
            + "then run `webbridge contract lock` and commit the lock"
    }

    /// A report for stderr or a test failure: every change, then the verdict and its remedy.
    public var description: String {
        var lines = ["contract version \(current.version), locked version \(locked.version)"]
        lines += changes.map { "  \($0)" }
        if changes.isEmpty && current.version == locked.version {
            lines.append("no changes: the contract matches its lock")
        } else if !passes {
            let fields = failures.map(\.path).joined(separator: ", ")
            lines.append(
                "FAIL: \(failures.count) incompatible change\(failures.count == 1 ? "" : "s") without a version bump (\(fields)). Remedy: \(remedy)."
            )
        } else if lockIsStale {
            lines.append(
                "pass: the changes are allowed; run `webbridge contract lock` and commit the lock to record them")
        }
        return lines.joined(separator: "\n")
    }

    private static func compare(_ old: BridgeContract, _ new: BridgeContract) -> [ContractChange] {
        var changes: [ContractChange] = []
        func breaking(_ path: String, _ summary: String) {
            changes.append(ContractChange(path: path, summary: summary, compatibility: .incompatible))
        }
        if new.version < old.version {
            breaking("version", "version went down from \(old.version) to \(new.version)")
        }
        if old.handler != new.handler {
            breaking("handler", "handler renamed from \(quoted(old.handler)) to \(quoted(new.handler))")
        }
        if old.dispatch == nil, new.dispatch == nil, !old.receiver.isEmpty, !new.receiver.isEmpty {
            if old.receiver != new.receiver {
                breaking("receiver", "receiver renamed from \(old.receiver) to \(new.receiver)")
            }
        } else if old.dispatch != new.dispatch || old.receiver != new.receiver {
            // A page built against the lock listens for the event, or implements the function: either change
            // leaves it deaf, as a rename does.
            breaking(
                new.dispatch != nil || old.dispatch != nil ? "dispatch" : "receiver",
                "native's delivery changed from \(delivery(old)) to \(delivery(new))")
        }
        switch (old.requestID, new.requestID) {
        case (nil, let added?): breaking("requestID", "request-id field \(quoted(added.field)) added")
        case (let removed?, nil): breaking("requestID", "request-id field \(quoted(removed.field)) removed")
        case (let before?, let after?) where before != after:
            breaking("requestID", "request-id field renamed from \(quoted(before.field)) to \(quoted(after.field))")
        default: break
        }
        if old.discriminator != new.discriminator {
            breaking(
                "discriminator",
                "discriminator changed from \(old.discriminator.joined(separator: "+")) to \(new.discriminator.joined(separator: "+"))"
            )
        }
        switch (old.frames?.origins ?? [], new.frames?.origins ?? []) {
        case let (before, after) where before == after: break
        case let (before, after) where Set(before).isSubset(of: Set(after)):
            changes.append(
                ContractChange(
                    path: "frames.origins",
                    summary: "frame origins added (\(after.filter { !before.contains($0) }.joined(separator: ", ")))",
                    compatibility: .compatible))
        case let (before, after):
            breaking(
                "frames.origins",
                "frame origins removed (\(before.filter { !after.contains($0) }.joined(separator: ", ")))")
        }
        for message in old.messages {
            guard let updated = new.messages.first(where: { $0.kind == message.kind }) else {
                breaking(name(message.kind), "message kind removed (\(message.direction.rawValue))")
                continue
            }
            if updated.direction != message.direction {
                breaking(
                    name(message.kind),
                    "direction changed from \(message.direction.rawValue) to \(updated.direction.rawValue)")
            }
            if updated.acknowledges != message.acknowledges {
                breaking(
                    member(name(message.kind), "acknowledges"),
                    "acknowledges changed from \(message.acknowledges.map(quoted) ?? "nothing") to \(updated.acknowledges.map(quoted) ?? "nothing")"
                )
            }
            compareShape(message, updated, into: &changes)
            compareFields(message.fields, updated.fields, parent: name(message.kind), into: &changes)
        }
        for message in new.messages where !old.messages.contains(where: { $0.kind == message.kind }) {
            changes.append(
                ContractChange(
                    path: name(message.kind), summary: "new message kind (\(message.direction.rawValue))",
                    compatibility: .compatible))
        }
        return changes
    }

    /// How a message is named, posted, called and answered: any change breaks the side built against the lock.
    private static func compareShape(
        _ before: MessageSpec, _ after: MessageSpec, into changes: inout [ContractChange]
    ) {
        func breaking(_ key: String, _ what: String, _ from: String, _ to: String) {
            guard from != to else { return }
            changes.append(
                ContractChange(
                    path: member(name(before.kind), key), summary: "\(what) changed from \(from) to \(to)",
                    compatibility: .incompatible))
        }
        func describe(_ match: [String: JSONValue]) -> String {
            "{" + match.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
        if before.isObject && after.isObject {
            breaking("match", "discriminator values", describe(before.match), describe(after.match))
        }
        breaking("body", "body type", before.body.map { "\($0)" } ?? "Object", after.body.map { "\($0)" } ?? "Object")
        // A field that must repeat an earlier message's: a page built against the lock may not.
        func describe(_ rule: CorrelationRule?) -> String {
            guard let rule else { return "none" }
            return "\(rule.field) = \(quoted(rule.message)).\(rule.messageField ?? rule.field)"
                + (rule.settles ? "" : " (not settling)")
        }
        breaking("correlation", "correlation", describe(before.correlation), describe(after.correlation))
        // A message that inherits the contract's handler or receiver follows its rename, reported once above.
        if before.direction == .pageToNative, before.declared.handler != nil || after.declared.handler != nil {
            breaking("handler", "handler", quoted(before.handler), quoted(after.handler))
        }
        if before.direction == .pageToNative {
            breaking("transport", "transport", before.transport.rawValue, after.transport.rawValue)
            breaking(
                "reply", "reply type", before.reply.map { "\($0)" } ?? "none", after.reply.map { "\($0)" } ?? "none")
        } else if before.declared.call != nil || after.declared.call != nil {
            breaking("call", "page function", before.call, after.call)
        }
    }

    private static func compareFields(
        _ old: [String: FieldSpec], _ new: [String: FieldSpec], parent: String, into changes: inout [ContractChange]
    ) {
        func breaking(_ path: String, _ summary: String) {
            changes.append(ContractChange(path: path, summary: summary, compatibility: .incompatible))
        }
        for name in Set(old.keys).union(new.keys).sorted() {
            let path = member(parent, name)
            switch (old[name], new[name]) {
            case (let before?, nil):
                breaking(path, "field removed (was \(before.type))")
            case (nil, let added?):
                if added.optional {
                    changes.append(
                        ContractChange(
                            path: path, summary: "new optional field (\(added.type))", compatibility: .compatible))
                } else {
                    breaking(path, "new required field (\(added.type))")
                }
            case (let before?, let after?):
                if before.optional != after.optional {
                    breaking(
                        path,
                        after.optional
                            ? "field became optional: receivers built against the lock expect it"
                            : "field became required")
                }
                compareTypes(before.type, after.type, path: path, into: &changes)
            case (nil, nil):
                break
            }
        }
    }

    private static func compareTypes(
        _ old: FieldType, _ new: FieldType, path: String, into changes: inout [ContractChange]
    ) {
        switch (old, new) {
        case _ where old == new:
            return
        case (.constant(let before), .constant(let after)) where before.typeName == after.typeName:
            changes.append(
                ContractChange(
                    path: path, summary: "constant changed from \(before) to \(after)", compatibility: .incompatible))
        case (.object(let before), .object(let after)):
            compareFields(before, after, parent: path, into: &changes)
        case (.array(let before), .array(let after)):
            compareTypes(before, after, path: path + "[]", into: &changes)
        default:
            changes.append(
                ContractChange(path: path, summary: "type changed from \(old) to \(new)", compatibility: .incompatible))
        }
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// How native delivers a contract's messages, in words: `the receiver window.bridgeReceive`, `a "message"
    /// event dispatched on window`, or `no receiver`.
    private static func delivery(_ contract: BridgeContract) -> String {
        if let dispatch = contract.dispatch {
            return "a \(quoted(dispatch.event)) event dispatched on \(dispatch.target)"
        }
        return contract.receiver.isEmpty ? "no receiver" : "the receiver \(contract.receiver)"
    }

    /// A kind or field name as a path segment: as written when it is a plain name, else quoted in brackets, so
    /// kind `a.b` field `c` (`["a.b"].c`) and kind `a` field `b.c` (`a["b.c"]`) never read alike.
    private static func name(_ text: String) -> String {
        let plain =
            !text.isEmpty && text.first?.isNumber == false
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || $0.properties.numericType != nil || "_$-".unicodeScalars.contains($0)
            }
        return plain ? text : "[\(JSONValue.string(text))]"
    }

    private static func member(_ parent: String, _ child: String) -> String {
        let segment = name(child)
        return segment.hasPrefix("[") ? parent + segment : parent + "." + segment
    }
}
