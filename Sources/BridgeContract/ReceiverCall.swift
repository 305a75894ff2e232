import Foundation

/// The script that delivers one native → page message: `window.bridgeReceive(<json>)`, as a pure value.
///
/// The message is encoded as JSON (by `JSONSerialization`, or by the faster `JSONWriter` whose text differential
/// tests prove JavaScript parses to the same value) and inserted as the call's only argument; U+2028, U+2029
/// and U+FEFF are escaped too. No text is ever concatenated into code: the receiver must be a dotted
/// JavaScript name, checked before use.
public struct ReceiverCall: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The JavaScript to evaluate in the page.
    public let script: String
    /// The JSON text of the argument, as it appears in `script`.
    public var argument: String {
        let utf8 = script.utf8
        return String(
            utf8[
                utf8.index(
                    utf8.startIndex, offsetBy: argumentStart)..<utf8.index(
                        utf8.endIndex, offsetBy: -argumentEndDistance)])!
    }
    /// Where the argument starts in `script`, in UTF-8 bytes: after `receiver(`, or after a dispatch's `{"data":`.
    private let argumentStart: Int
    /// How many UTF-8 bytes of `script` follow the argument: `)`, or a dispatch's `}))`.
    private let argumentEndDistance: Int
    /// The receiver function called, e.g. `window.bridgeReceive`; for an event dispatched with the message as its
    /// data, the target's `dispatchEvent` (`window.dispatchEvent`).
    public let receiver: String
    /// The message as JS types, kept so its structure is built only when a log asks for it.
    let body: BodyValue

    /// The structure of the message, for logs.
    public var structure: String { body.structure() }

    /// Which JSON encoder writes the argument.
    public enum Encoder: Sendable, Equatable {
        /// Foundation's `JSONSerialization` with sorted keys, plus the script escapes (the source document's).
        case jsonSerialization
        /// `JSONWriter`: the same text but for key order (Swift's string order), written about ten times faster.
        case jsonWriter
    }

    /// Renders a message after checking it against the contract's native → page messages.
    public init(
        contract: BridgeContract = .default, message: [String: any Sendable], encoder: Encoder = .jsonSerialization
    ) throws(ContractError) {
        let body = BodyValue(message: message)
        let violations = contract.validate(body, direction: .nativeToPage, mode: .strict, collectingFields: false)
            .violations
        guard violations.isEmpty else { throw ContractError(code: .violatesContract, violations: violations) }
        if let dispatch = contract.dispatch {
            try self.init(dispatching: dispatch, body: body)
        } else {
            try self.init(receiver: contract.receiver, body: body, encoder: encoder)
        }
    }

    /// Renders any JSON-encodable message without checking the contract (for tests that send broken messages).
    public init(receiver: String, json: [String: any Sendable], encoder: Encoder = .jsonSerialization)
        throws(ContractError)
    {
        try self.init(receiver: receiver, body: BodyValue(message: json), encoder: encoder)
    }

    /// Renders a call of any page function with any JSON argument (an array, a bare string), checked by the caller.
    public init(function: String, argument: Any, encoder: Encoder = .jsonSerialization) throws(ContractError) {
        try self.init(receiver: function, body: BodyValue(argument), encoder: encoder)
    }

    private init(receiver: String, body: BodyValue, encoder: Encoder) throws(ContractError) {
        guard BridgeContract.isScriptPath(receiver) else {
            throw ContractError.invalidReceiver(path: "receiver")
        }
        do {
            switch encoder {
            case .jsonSerialization:
                script = "\(receiver)(\(try ReceiverCall.serializedArgument(body)))"
            case .jsonWriter:
                // The call written whole into one buffer: the receiver is checked above, the argument is JSON.
                var writer = JSONWriter(capacity: receiver.utf8.count + 96)
                writer.append(receiver)
                writer.append(UInt8(ascii: "("))
                try writer.write(body)
                writer.append(UInt8(ascii: ")"))
                script = writer.text
            }
        } catch {
            var error = error
            if error.path.isEmpty { error.path = "body" }
            throw error
        }
        self.receiver = receiver
        self.body = body
        argumentStart = receiver.utf8.count + 1
        argumentEndDistance = 1
    }

    /// The script that dispatches `dispatch`'s event with the message as its data, checked by the caller:
    /// `window.dispatchEvent(new MessageEvent("message", {"data":<json>}))`.
    init(dispatching dispatch: EventDispatch, body: BodyValue) throws(ContractError) {
        guard BridgeContract.isScriptPath(dispatch.target) else {
            throw ContractError.invalidReceiver(path: "dispatch.target")
        }
        let prefix = "\(dispatch.function)(new MessageEvent(\(Self.stringLiteral(dispatch.event)), {\"data\":"
        let argument = try ReceiverCall.serializedArgument(body)
        script = prefix + argument + "}))"
        receiver = dispatch.function
        self.body = body
        argumentStart = prefix.utf8.count
        argumentEndDistance = 3
    }

    /// The dispatch of `dispatch`'s event with `argument` as its data: any JSON argument, checked by the caller.
    package init(dispatching dispatch: EventDispatch, argument: Any) throws(ContractError) {
        try self.init(dispatching: dispatch, body: BodyValue(argument))
    }

    /// The script that calls `function` with several arguments, each written as a receiver call's argument is:
    /// `window.turboNative.visit("…",{"action":"advance"},"…")`.
    package static func script(calling function: String, arguments: [JSONValue]) throws(ContractError) -> String {
        guard BridgeContract.isScriptPath(function) else {
            throw ContractError.invalidReceiver(path: "call")
        }
        var written: [String] = []
        for (index, argument) in arguments.enumerated() {
            do {
                written.append(try serializedArgument(BodyValue(argument.foundationValue)))
            } catch {
                var error = error
                error.path = "arguments[\(index)]"
                throw error
            }
        }
        return "\(function)(\(written.joined(separator: ",")))"
    }

    /// The script that dispatches a `MessageEvent` of type `event` on `target` with `data` as its data, as
    /// react-native-webview's native side does: `window.dispatchEvent(new MessageEvent("message", {"data":…}))`.
    package static func script(dispatching event: String, on target: String, data: Any)
        throws(ContractError) -> String
    {
        try ReceiverCall(dispatching: EventDispatch(target: target, event: event), argument: data).script
    }

    /// Structure only: the receiver and the message's field types.
    public var description: String { "\(receiver)(\(structure))" }
    public var debugDescription: String { description }

    /// `text` as a JavaScript string literal: JSON-encoded, with the same escapes as a receiver call's argument,
    /// for any other script that must carry text without it ever becoming code.
    public static func stringLiteral(_ text: String) -> String {
        escapeForScript(JSONValue.string(text).description)
    }

    /// The argument as `JSONSerialization` writes it, with the script escapes.
    private static func serializedArgument(_ body: BodyValue) throws(ContractError) -> String {
        let object = try jsonObject(body)
        let data: Data
        // A bare argument (a string, a number) is written inside an array, whose brackets are then dropped.
        let container = object is NSDictionary || object is NSArray
        do {
            data = try JSONSerialization.data(withJSONObject: container ? object : [object], options: [.sortedKeys])
        } catch {
            throw ContractError.notEncodable(path: "body", found: "Object")
        }
        return escapeForScript(String(decoding: container ? data : data.dropFirst().dropLast(), as: UTF8.self))
    }

    /// Escapes U+2028 and U+2029, line terminators in older JavaScript left raw by `JSONSerialization`, and
    /// U+FEFF, which some decoders (swift-corelibs `JSONSerialization`) drop even inside a string.
    ///
    /// In JSON text these can only occur inside strings, so the `\u` escapes decode to the same string.
    ///
    /// Replaced by scalar, not by `replacingOccurrences`: that compares characters, so it misses a U+2028
    /// followed by a combining mark (one grapheme with it) and left it raw.
    static func escapeForScript(_ json: String) -> String {
        // All three start with a lead byte 0xE2 or 0xEF in UTF-8: skip the rewrite for most messages.
        guard json.utf8.contains(where: { $0 == 0xE2 || $0 == 0xEF }) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            switch scalar {
            case "\u{2028}": escaped.append(contentsOf: "\\u2028".unicodeScalars)
            case "\u{2029}": escaped.append(contentsOf: "\\u2029".unicodeScalars)
            case "\u{FEFF}": escaped.append(contentsOf: "\\ufeff".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Rebuilds the message from JSON types only, refusing what JSON can't carry (and what would make
    /// `JSONSerialization` raise an exception instead of throwing).
    ///
    /// Foundation containers, not Swift ones: `JSONSerialization` would bridge a Swift dictionary first, which
    /// costs a third of the encoding on Linux.
    private static func jsonObject(_ value: BodyValue) throws(ContractError) -> Any {
        // The path is built only on refusal, outward from the offending value: success pays nothing for it.
        func refuse(_ found: String) -> ContractError {
            ContractError.notEncodable(path: "", found: found)
        }
        func inside(_ step: String, _ error: ContractError) -> ContractError {
            var error = error
            error.path = error.path.isEmpty || error.path.hasPrefix("[") ? step + error.path : "\(step).\(error.path)"
            return error
        }
        switch value {
        case .string(let text): return NSString(string: text)
        case .number(let number):
            guard number.isFinite else { throw refuse("Number (not finite)") }
            return NSNumber(value: number)
        case .boolean(let flag): return NSNumber(value: flag)
        case .null: return NSNull()
        case .array(let items):
            let result = NSMutableArray(capacity: items.count)
            for (index, item) in items.enumerated() {
                do { result.add(try jsonObject(item)) } catch { throw inside("[\(index)]", error) }
            }
            return result
        case .object(let fields):
            let result = NSMutableDictionary(capacity: fields.count)
            for (name, field) in fields {
                do {
                    result[NSString(string: name)] = try jsonObject(field)
                } catch {
                    throw inside(BodyValue.displayKey(name), error)
                }
            }
            return result
        case .date, .undefined, .unsupported, .tooDeep:
            throw refuse(value.typeName)
        }
    }
}
