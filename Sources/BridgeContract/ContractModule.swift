import Foundation

/// The web side of the contract: an ES module with the contract's constants and a validator.
///
/// The module is `Resources/ContractModule.js`, JavaScript linted and tested as such; the library injects only the
/// contract, as JSON data: the file (without its check section and name) and its rule table, each message with the
/// values `MessageSpec` resolves (route, page function, discriminator values, request-id field), which the Swift
/// validator reads too. So the validator applies the same rules, paths and rule names as `BridgeContract.validate`,
/// and a violation reads the same in the browser console and in a native test.
package struct ContractModule: Sendable, Equatable {
    /// The module's JavaScript source.
    public let source: String

    public init(contract: BridgeContract) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Contracts hold plain strings, numbers and booleans: encoding them can't fail.
        let json = String(decoding: (try? encoder.encode(Injected(contract))) ?? Data("null".utf8), as: UTF8.self)
        var source = ContractModule.template
        // The senders and parsers of JSON text, only for a contract with such a message: other modules stay as they were.
        if !contract.messages.contains(where: \.jsonText), let section = source.range(of: ContractModule.textSection) {
            source.removeSubrange(section.lowerBound...)
        }
        if let slot = source.range(of: ContractModule.slot) {
            // A string literal for JSON.parse, escaped as a receiver call's argument is: the text stays data.
            source.replaceSubrange(slot, with: ReceiverCall.stringLiteral(json))
        }
        self.source = source
    }

    /// The module before a contract is injected.
    static let template: String = {
        guard let url = Bundle.module.url(forResource: "ContractModule", withExtension: "js"),
            let data = FileManager.default.contents(atPath: url.path)
        else {
            preconditionFailure("ContractModule.js is missing from BridgeContract's resources: reinstall WebBridge")
        }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The template's one place for the contract: the JSON text `JSON.parse` reads, `null` until injected.
    static let slot = #"/* contract */ "null""#

    /// Where the template's last part begins: what a contract with a message sent as JSON text needs (its typed
    /// sender and parser), to the end of the file.
    static let textSection = "\n// JSON text: `webbridge contract js` keeps what follows only"

    /// What the module reads: the contract as its file says it, and the rules the library resolved from it.
    private struct Injected: Encodable {
        /// The contract file without its check section (test data for the native side) and its name.
        let contract: BridgeContract
        /// Every handler the page posts to, the contract's first.
        let handlers: [String]
        let discriminator: [String]
        /// The transport a page → native body arrives through when the caller names none.
        let defaultTransport: MessageSpec.Transport
        /// The rule table: each message with its defaults resolved, as the Swift validator reads it.
        let messages: [Rules]

        init(_ contract: BridgeContract) {
            self.contract = contract.protocolOnly
            // Not the queues native pulls: postToNative never posts there.
            handlers = contract.postedHandlerNames
            discriminator = contract.discriminator
            defaultTransport = .default
            messages = contract.messages.map(Rules.init)
        }
    }

    /// One message's rules. Every key is written, null where it does not apply, so the module never falls back.
    private struct Rules: Encodable {
        let spec: MessageSpec

        private enum CodingKeys: String, CodingKey {
            case kind, direction, route, call, match, matchPaths, bare, jsonText, acknowledges, requestIDField
            case requestIDPath
            case fields, body, reply
        }

        private enum PathKeys: String, CodingKey { case steps, display }
        private struct NameKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        private enum StepKeys: String, CodingKey { case key, index, text }

        private enum RouteKeys: String, CodingKey { case direction, handler, transport }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(spec.kind, forKey: .kind)
            try container.encode(spec.direction, forKey: .direction)
            var route = container.nestedContainer(keyedBy: RouteKeys.self, forKey: .route)
            try route.encode(spec.route.direction, forKey: .direction)
            switch spec.route {
            case .pageToNative(let handler, let transport):
                try route.encode(handler, forKey: .handler)
                try route.encode(transport, forKey: .transport)
            case .nativeToPage:
                try route.encodeNil(forKey: .handler)
                try route.encodeNil(forKey: .transport)
            }
            // The page function, for a native → page message only.
            try container.encode(spec.direction == .nativeToPage ? spec.call : nil, forKey: .call)
            // For a bare message too: the description of a body that names nothing reads them.
            try container.encode(spec.match, forKey: .match)
            // A discriminator value below the top level (`data.type`): its path, as for the request id.
            var paths = container.nestedContainer(keyedBy: NameKey.self, forKey: .matchPaths)
            for (name, path) in spec.matchPaths.sorted(by: { $0.key < $1.key }) {
                var written = paths.nestedContainer(keyedBy: PathKeys.self, forKey: NameKey(stringValue: name))
                try Self.encode(path, into: &written)
            }
            try container.encode(!spec.isObject, forKey: .bare)
            try container.encode(spec.jsonText, forKey: .jsonText)
            try container.encode(spec.acknowledges, forKey: .acknowledges)
            try container.encode(spec.requestIDField, forKey: .requestIDField)
            // An id below the top level (`data.identifier`, `body[0]`): its steps, and the path violations name.
            if spec.requestIDField == nil, let path = spec.requestIDPath {
                var written = container.nestedContainer(keyedBy: PathKeys.self, forKey: .requestIDPath)
                try Self.encode(path, into: &written)
            } else {
                try container.encodeNil(forKey: .requestIDPath)
            }
            try container.encode(spec.fields, forKey: .fields)
            try container.encode(spec.body.map(FieldType.Box.init(type:)), forKey: .body)
            try container.encode(spec.reply.map(FieldType.Box.init(type:)), forKey: .reply)
        }

        /// A path's steps, and how violations name it.
        private static func encode(_ path: FieldPath, into written: inout KeyedEncodingContainer<PathKeys>) throws {
            try written.encode(path.description, forKey: .display)
            var steps = written.nestedUnkeyedContainer(forKey: .steps)
            for step in path.steps {
                var one = steps.nestedContainer(keyedBy: StepKeys.self)
                switch step {
                case .key(let name): try one.encode(name, forKey: .key)
                case .index(let index): try one.encode(index, forKey: .index)
                case .text: try one.encode(true, forKey: .text)
                }
            }
        }
    }
}
