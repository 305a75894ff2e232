import BridgeContract

/// The names typed code gives a contract's messages: identifiers in Swift and in TypeScript, unique, computed once
/// and read by both generators, so `CartReadyMessage` is the same message on both sides.
///
/// A kind is any text (`"Device/getInfo result"`), so a name keeps only its ASCII letters and digits, upper-camel
/// cased (`DeviceGetInfoResultMessage`). Every message name ends in `Message`, so none can shadow a type either
/// language or the generated code uses (`String`, `Error`, `Promise`, `PageToNative`); names that still collide
/// (`"a-b"` and `"aB"`) get a number, in the contract's order.
struct TypedNames: Sendable {
    /// The type name of each message, in the contract's order.
    let messageTypes: [String]
    /// The name of the namespace the Swift types live in: `CheckoutContract` for the contract `checkout`.
    let namespace: String

    init(_ contract: BridgeContract) {
        // A message type must not shadow a type the generated code names (`ValidatedMessage` for the kind
        // "validated"): it is numbered instead (`Validated2Message`).
        var taken = TypedNames.reservedTypes
        messageTypes = contract.messages.map {
            TypedNames.unique(TypedNames.upperCamel($0.kind), suffix: "Message", &taken)
        }
        byKind = Dictionary(zip(contract.messages.map(\.kind), messageTypes)) { first, _ in first }
        let base = TypedNames.upperCamel(contract.displayName)
        let name = base.hasSuffix("Contract") ? base : base + "Contract"
        // The library's own type would be shadowed inside the namespace (`BridgeContract(` would be the namespace).
        namespace = name == "BridgeContract" ? "BridgeContractTypes" : name
    }

    /// The type name of each message by kind (a kind is unique in a contract).
    let byKind: [String: String]

    /// `name` + `suffix`, or `name2` + `suffix`, `name3`… when it is taken; records the one returned.
    static func unique(_ name: String, suffix: String = "", _ taken: inout Set<String>) -> String {
        var candidate = name + suffix
        var counter = 1
        while taken.contains(candidate) {
            counter += 1
            candidate = name + String(counter) + suffix
        }
        taken.insert(candidate)
        return candidate
    }

    /// The ASCII words of `text`, each capitalized and joined: `"form/connect reply"` → `FormConnectReply`. Never
    /// empty and never starting with a digit.
    static func upperCamel(_ text: String) -> String {
        let words = words(text)
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.unicodeScalars.first else { return "Unnamed" }
        return ("0"..."9").contains(first) ? "M" + joined : joined
    }

    /// A property name for the field `name`: the name itself when it is an identifier, else its words in lower
    /// camel case; a Swift keyword is written in backticks where it is declared and used.
    static func property(_ name: String) -> String {
        let words = words(name)
        var candidate: String
        if isIdentifier(name) {
            candidate = name
        } else if let first = words.first {
            candidate = first.prefix(1).lowercased() + first.dropFirst()
            candidate += words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        } else {
            candidate = "field"
        }
        if let scalar = candidate.unicodeScalars.first, ("0"..."9").contains(scalar) { candidate = "_" + candidate }
        if reservedMembers.contains(candidate) { candidate += "_" }
        return candidate
    }

    /// The enum case of a message type's base name (`CartReady` → `cartReady`); a name backticks can't rescue, or
    /// one the enum declares itself, gets `_` (`init_`, `self_`).
    static func caseName(_ base: String) -> String {
        let name = base.prefix(1).lowercased() + base.dropFirst()
        return reservedMembers.contains(name) || ["receiverCall"].contains(name) ? name + "_" : name
    }

    /// Names a generated member can't have: what backticks can't rescue (`self`, `init`), what the generated
    /// structs declare themselves (`contractJSON`, the typealiases `Reply` and `Answer`), and the library type the
    /// generated initializers call (a property `ContractFields` would hide it). The namespace, which the members
    /// also call, is reserved per contract (`SwiftTypeWriter.taken`).
    static let reservedMembers: Set<String> = [
        "self", "Self", "Type", "Protocol", "init", "_", "contractJSON", "Reply", "Answer", "ContractFields",
    ]

    /// The types the generated code names, which no generated type may shadow.
    static let reservedTypes: Set<String> = [
        "BridgeContract", "ContractFields", "ContractValue", "FieldValue", "JSONValue", "MessageSpec", "ReceiverCall",
        "ReceiverCallError", "TypedMessageError", "ValidatedMessage", "ValidationMode", "Direction", "PageToNative",
        "NativeToPage", "String", "Double", "Int", "Bool", "Any", "Sendable", "Equatable",
    ]

    /// `name` as Swift code: in backticks when it is a keyword.
    static func swiftIdentifier(_ name: String) -> String {
        swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    private static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    private static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "super", "throws", "true", "try", "async",
    ]
}
