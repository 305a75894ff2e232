import Foundation

/// The bridge contract both sides share: handlers, receiver, version, how messages are named, every message.
public struct BridgeContract: Codable, Sendable, Equatable {
    /// The contract's name as its file writes it (`"name": "checkout"`); nil when it has none. Reports call the
    /// contract by `displayName`. Not part of the protocol, like `check`: the lock never records it.
    public var name: String?
    /// The contract version; an incompatible change must bump it.
    public var version: Int
    /// The highest contract version: JavaScript's `Number.MAX_SAFE_INTEGER`, the largest integer the web module
    /// (`CONTRACT_VERSION`) and a page's `ready` read exactly, and one below which `version + 1` never overflows.
    public static let maximumVersion = 9_007_199_254_740_991
    /// The message handler name the page posts to (`window.webkit.messageHandlers.<handler>`).
    public var handler: String { didSet { resolveMessages() } }
    /// The page function the native code calls, e.g. `window.bridgeReceive`. For a contract whose native side
    /// dispatches an event instead (`dispatchedEvent`), the target's `dispatchEvent` (`window.dispatchEvent`), which
    /// the file leaves out; setting another function makes native call it instead of dispatching.
    public var receiver: String {
        didSet {
            if let dispatch, receiver != dispatch.function { self.dispatch = nil }
            resolveMessages()
        }
    }
    /// The event native dispatches with each message as its data, for messages that name no `call` of their own
    /// (react-native-webview's `window.dispatchEvent(new MessageEvent("message", {data}))`); nil when native calls
    /// `receiver`.
    package var dispatch: EventDispatch? {
        didSet {
            if let dispatch { receiver = dispatch.function }
            resolveMessages()
        }
    }
    /// The event native dispatches with each message as its `data`, on `target` (`window`, `"message"`), when the
    /// contract says so (`"dispatch"`); nil when native calls `receiver`.
    public var dispatchedEvent: (target: String, event: String)? { dispatch.map { ($0.target, $0.event) } }
    /// Every message either side may send, each with its defaults resolved against this contract.
    public var messages: [MessageSpec] {
        get { resolvedMessages }
        set {
            resolvedMessages = newValue
            resolveMessages()
        }
    }
    /// The messages, resolved; stored apart so that resolving them is no change that asks for resolving again.
    private var resolvedMessages: [MessageSpec]
    /// The request-id field, when acknowledgements must carry the id of their request.
    public var requestID: RequestIDSpec? { didSet { resolveMessages() } }
    /// The field(s) whose values name an object message: `["kind"]` unless the contract says otherwise.
    public var discriminator: [String] { didSet { resolveMessages() } }
    /// Which frames may post messages: the main frame only unless origins are declared.
    public var frames: FrameRule?
    /// How the check plays the native side for this contract (not part of the protocol: never locked).
    package var check: CheckPlay?
    /// The file the contract was read from, if any: where a contract without a name gets one.
    private var source = Source()

    /// What reports and headers call the contract: its `name`, else the base name of the file it was read from
    /// (`web/bridge.json` → `bridge`), else its handler.
    public var displayName: String { name ?? source.baseName ?? handler }

    public init(
        version: Int, handler: String, receiver: String, messages: [MessageSpec], requestID: RequestIDSpec? = nil,
        discriminator: [String] = ["kind"], frames: FrameRule? = nil, name: String? = nil
    ) {
        self.init(
            version: version, handler: handler, receiver: receiver, messages: messages, requestID: requestID,
            discriminator: discriminator, frames: frames, check: nil, name: name)
    }

    /// A contract whose native side delivers each message as the `data` of an event it dispatches on `target`
    /// (react-native-webview: `"message"` on `window`), not as the argument of a receiver call.
    public init(
        version: Int, handler: String, dispatching event: String, on target: String = "window",
        messages: [MessageSpec], requestID: RequestIDSpec? = nil, discriminator: [String] = ["kind"],
        frames: FrameRule? = nil, name: String? = nil
    ) {
        self.init(
            version: version, handler: handler, receiver: "", messages: messages, requestID: requestID,
            discriminator: discriminator, frames: frames, check: nil, name: name,
            dispatch: EventDispatch(target: target, event: event))
    }

    /// A contract with the play the check runs for it (read from a file, or the tool's own tests).
    package init(
        version: Int, handler: String, receiver: String, messages: [MessageSpec], requestID: RequestIDSpec? = nil,
        discriminator: [String] = ["kind"], frames: FrameRule? = nil, check: CheckPlay?, name: String? = nil,
        dispatch: EventDispatch? = nil
    ) {
        self.name = name
        self.version = version
        self.handler = handler
        self.receiver = dispatch?.function ?? receiver
        resolvedMessages = messages
        self.requestID = requestID
        self.discriminator = discriminator
        self.frames = frames
        self.check = check
        self.dispatch = dispatch
        resolveMessages()
    }

    /// Resolves every message's defaults against this contract: its handler, receiver, discriminator and request
    /// id. Run whenever one of them or a message changes, so a message never needs a fallback when it is read.
    private mutating func resolveMessages() {
        let defaults = MessageSpec.Defaults(
            handler: handler, receiver: receiver, dispatch: dispatch, discriminator: discriminator,
            requestIDField: requestID?.field,
            acknowledged: Set(messages.compactMap(\.acknowledges)))
        for index in resolvedMessages.indices { resolvedMessages[index].resolve(defaults) }
        // A correlation rule names a place in two messages: resolved once both are.
        for index in resolvedMessages.indices where resolvedMessages[index].correlation != nil {
            resolvedMessages[index].correlation!.resolve(in: resolvedMessages[index], among: resolvedMessages)
        }
    }

    /// The default contract (Docs/CONTRACT.md): page→native `ready {version: 1}`, native→page `sync {value: String}`.
    ///
    /// The same contract ships as `DefaultContract.json`; a test keeps the two equal.
    public static let `default` = BridgeContract(
        version: 1,
        handler: "bridge",
        receiver: "window.bridgeReceive",
        messages: [
            MessageSpec(kind: "ready", direction: .pageToNative, fields: ["version": FieldSpec(.constant(.number(1)))]),
            MessageSpec(kind: "sync", direction: .nativeToPage, fields: ["value": FieldSpec(.string)]),
        ]
    )

    /// The URL of the bundled `DefaultContract.json`.
    public static var defaultContractURL: URL? {
        Bundle.module.url(forResource: "DefaultContract", withExtension: "json")
    }

    /// The URL of the committed lock of the bundled default contract.
    public static var defaultLockURL: URL? {
        Bundle.module.url(forResource: "DefaultContract.lock", withExtension: "json")
    }

    /// The message named `kind` travelling in `direction`, if the contract declares one.
    public func message(_ kind: String, direction: Direction) -> MessageSpec? {
        messages.first { $0.kind == kind && $0.direction == direction }
    }

    /// Whether messages of `kind` carry the request id: those that acknowledge and those acknowledged.
    public func carriesRequestID(_ spec: MessageSpec) -> Bool { spec.requestIDPath != nil }

    /// The discriminator values that name an object message: its `match`, or the discriminator field = kind.
    public func matchValues(of spec: MessageSpec) -> [String: JSONValue] { spec.match }

    /// The handler a page → native message is posted to.
    public func handlerName(of spec: MessageSpec) -> String { spec.handler }

    /// The page function a native → page message calls.
    public func functionPath(of spec: MessageSpec) -> String { spec.call }

    /// Every handler the page posts to, the contract's first; the native side registers each.
    public var handlerNames: [String] {
        var names = [handler]
        for name in messages.lazy.compactMap(\.route.registeredHandler) where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// The pseudo-handlers of queues native pulls (a check step that evaluates a script whose value holds the page's
    /// messages, `"messages": "queue"`): the page never posts to them, so its typed code offers no post there.
    package var pulledHandlers: [String] {
        var names: [String] = []
        for name in (check?.steps ?? []).lazy.compactMap(\.messages) where name != handler && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// Every handler the page posts to with `postMessage`, the contract's first: `handlerNames` without the queues
    /// native pulls.
    package var postedHandlerNames: [String] {
        let pulled = pulledHandlers
        return handlerNames.filter { !pulled.contains($0) }
    }

    /// Whether the page posts `spec` itself with `postMessage` (rather than queueing it for native to pull, or
    /// sending it through `prompt()`).
    package func isPosted(_ spec: MessageSpec) -> Bool {
        spec.route.registeredHandler.map { !pulledHandlers.contains($0) } ?? false
    }

    /// Whether native answers messages on `handler` with a reply (`WKScriptMessageHandlerWithReply`).
    public func repliesOn(handler name: String) -> Bool {
        messages.contains { $0.reply != nil && $0.route.registeredHandler == name }
    }

    /// Whether the page uses the synchronous `prompt()` channel, which native answers through `WKUIDelegate`.
    public var usesPromptChannel: Bool { messages.contains { $0.transport == .prompt } }

    // MARK: Reading and writing the contract file

    /// Reads a contract file; errors name the file, the JSON path and the remedy. A file without a `name` gives
    /// the contract its own base name as `displayName`.
    public static func load(contentsOf url: URL) throws(ContractError) -> BridgeContract {
        var contract = try ContractError.reading(
            url, what: "the contract file", remedy: "check that the path exists and is readable",
            BridgeContract.init(jsonData:))
        contract.source = Source(baseName: url.deletingPathExtension().lastPathComponent)
        return contract
    }

    /// Decodes and checks a contract from JSON text.
    public init(jsonData: Data) throws(ContractError) {
        let decoded = try ContractError.decodeJSON(BridgeContract.self, from: jsonData)
        try decoded.checkDefinition()
        self = decoded
    }

    /// The canonical contract file: pretty, sorted keys, a trailing newline.
    public func jsonData() -> Data {
        canonicalJSON(self)
    }

    /// The contract without its check section and its name: what the lock records and the diff compares.
    public var protocolOnly: BridgeContract {
        var copy = self
        copy.check = nil
        copy.name = nil
        return copy
    }

    /// Where a contract was read from. Not part of what the contract says: equal contracts may come from different
    /// files, so any two sources compare equal.
    private struct Source: Sendable, Equatable {
        var baseName: String?

        static func == (_: Source, _: Source) -> Bool { true }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, version, handler, receiver, dispatch, messages, requestID, discriminator, frames, check
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        version = try container.decode(Int.self, forKey: .version)
        handler = try container.decode(String.self, forKey: .handler)
        // A contract that dispatches an event may leave the receiver out; one that needs it and has neither is
        // refused by the definition check, naming both keys.
        dispatch = try container.decodeIfPresent(EventDispatch.self, forKey: .dispatch)
        receiver = try container.decodeIfPresent(String.self, forKey: .receiver) ?? dispatch?.function ?? ""
        resolvedMessages = try container.decode([MessageSpec].self, forKey: .messages)
        requestID = try container.decodeIfPresent(RequestIDSpec.self, forKey: .requestID)
        // One field as a string, several as an array.
        if let single = try? container.decodeIfPresent(String.self, forKey: .discriminator) {
            discriminator = [single]
        } else {
            discriminator = try container.decodeIfPresent([String].self, forKey: .discriminator) ?? ["kind"]
        }
        frames = try container.decodeIfPresent(FrameRule.self, forKey: .frames)
        check = try container.decodeIfPresent(CheckPlay.self, forKey: .check)
        resolveMessages()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(version, forKey: .version)
        try container.encode(handler, forKey: .handler)
        // The receiver a dispatch implies, and none, stay out of the file: it says what it was read from.
        if dispatch == nil, !receiver.isEmpty { try container.encode(receiver, forKey: .receiver) }
        try container.encodeIfPresent(dispatch, forKey: .dispatch)
        try container.encode(messages, forKey: .messages)
        try container.encodeIfPresent(requestID, forKey: .requestID)
        // Today's files stay byte for byte what they were: the default discriminator is left out.
        if discriminator != ["kind"] {
            if discriminator.count == 1 {
                try container.encode(discriminator[0], forKey: .discriminator)
            } else {
                try container.encode(discriminator, forKey: .discriminator)
            }
        }
        try container.encodeIfPresent(frames, forKey: .frames)
        try container.encodeIfPresent(check, forKey: .check)
    }
}
