import BridgeContract

/// One page → native message a page can get wrong, and what WebBridge must make of it.
struct BadInput: Sendable {
    /// One violation the rejection must name: where, which rule, and the JS type found there.
    struct Expected: Sendable, Equatable, CustomStringConvertible {
        let path: String
        let rule: ContractViolation.Rule
        let found: String

        init(_ path: String, _ rule: ContractViolation.Rule, _ found: String) {
            self.path = path
            self.rule = rule
            self.found = found
        }

        var description: String { "\(path) \(rule.rawValue) (found \(found))" }
    }

    enum Outcome: Sendable, Equatable {
        /// The handler gets it and the contract refuses it with exactly these violations.
        case rejected([Expected])
        /// The engine never calls the handler: the check must say "native did not receive the page's message",
        /// naming the value WebKit could not clone (`path: type`), or, when the clone succeeded and the engine
        /// dropped the message later (nil), that nothing arrived.
        case dropped(String?)
        /// Odd-looking, but what reaches native is a valid ready (the structured clone reads getters, skips symbol keys).
        case acceptedAsReady
    }

    let name: String
    /// The body as a JS expression; `SENTINEL` and `SENTINEL_NUMBER` are declared.
    let body: String
    let outcome: Outcome

    init(_ name: String, _ body: String, _ outcome: Outcome) {
        self.name = name
        self.body = body
        self.outcome = outcome
    }

    static func rejected(_ path: String, _ rule: ContractViolation.Rule, _ found: String) -> Outcome {
        .rejected([Expected(path, rule, found)])
    }
}

extension BadInput {
    /// Ten million UTF-16 units of sentinel text.
    static let tenMegabytes = "SENTINEL.repeat(1250000)"

    /// JS for an array nested `depth` levels deep (built in a loop: a literal that deep would not parse).
    static func nested(_ depth: Int) -> String {
        "(function () { var v = [SENTINEL]; for (var i = 1; i < \(depth); i++) v = [v]; return v; })()"
    }

    /// Every JS type and structured-clone oddity, against the default contract (`ready {kind, version: 1}`).
    static let corpus: [BadInput] = [
        // The body is not an object.
        BadInput("undefined", "undefined", rejected("body", .bodyNotObject, "Undefined")),
        BadInput("null", "null", rejected("body", .bodyNotObject, "Null")),
        BadInput("true", "true", rejected("body", .bodyNotObject, "Boolean")),
        BadInput("a number", "SENTINEL_NUMBER", rejected("body", .bodyNotObject, "Number")),
        BadInput("NaN", "NaN", rejected("body", .bodyNotObject, "Number")),
        BadInput("a string", "SENTINEL", rejected("body", .bodyNotObject, "String")),
        BadInput(
            "the ready as JSON text", #"JSON.stringify({kind: "ready", version: 1, token: SENTINEL})"#,
            rejected("body", .bodyNotObject, "String")),
        BadInput("an array", #"["ready", 1, SENTINEL]"#, rejected("body", .bodyNotObject, "Array")),
        BadInput(
            "the ready inside an array", #"[{kind: "ready", version: 1}]"#, rejected("body", .bodyNotObject, "Array")),
        BadInput("a Date", "new Date(SENTINEL_NUMBER)", rejected("body", .bodyNotObject, "Date")),
        BadInput("a BigInt", "BigInt(SENTINEL_NUMBER)", rejected("body", .bodyNotObject, "Undefined")),
        BadInput("a function", "function () { return SENTINEL; }", .dropped("body: Function")),
        BadInput("a Symbol", "Symbol(SENTINEL)", .dropped("body: Symbol")),
        BadInput("a Promise", "Promise.resolve(SENTINEL)", .dropped("body: Promise")),
        BadInput("a WeakMap", "new WeakMap()", .dropped("body: WeakMap")),
        BadInput("a DOM node", "document.body", .dropped("body: HTMLBodyElement")),
        BadInput("window", "window", .dropped("body: Window")),
        BadInput(
            "a Proxy of a ready", #"new Proxy({kind: "ready", version: 1}, {})"#,
            .dropped("body: Object that cannot be cloned (a Proxy?)")),
        // Cloneable objects that lose their meaning on the way.
        BadInput(
            "a Map holding a ready", #"new Map([["kind", "ready"], ["version", 1]])"#,
            rejected("kind", .missingField, "Missing")),
        BadInput("a Set", #"new Set(["ready", SENTINEL])"#, rejected("kind", .missingField, "Missing")),
        BadInput("a Uint8Array", "new Uint8Array([1, 2, 3])", rejected("kind", .missingField, "Missing")),
        BadInput("an ArrayBuffer", "new ArrayBuffer(16)", rejected("kind", .missingField, "Missing")),
        BadInput("a RegExp", "new RegExp(SENTINEL, \"g\")", rejected("kind", .missingField, "Missing")),
        BadInput("an Error", "new Error(SENTINEL)", rejected("kind", .missingField, "Missing")),
        BadInput(
            "a ready inherited from a prototype", #"Object.create({kind: "ready", version: 1})"#,
            rejected("kind", .missingField, "Missing")),
        // kind.
        BadInput("no kind", "{version: 1}", rejected("kind", .missingField, "Missing")),
        BadInput("an empty object", "{}", rejected("kind", .missingField, "Missing")),
        BadInput("kind as a number", "{kind: SENTINEL_NUMBER, version: 1}", rejected("kind", .wrongType, "Number")),
        BadInput("kind as a boolean", "{kind: true, version: 1}", rejected("kind", .wrongType, "Boolean")),
        BadInput("kind as an array", #"{kind: ["ready"], version: 1}"#, rejected("kind", .wrongType, "Array")),
        BadInput(
            "kind as a String object", #"{kind: new String("ready"), version: 1}"#,
            rejected("kind", .wrongType, "Object")),
        BadInput("an unknown kind", "{kind: SENTINEL, version: 1}", rejected("kind", .unknownKind, "String")),
        BadInput("kind in another case", #"{kind: "Ready", version: 1}"#, rejected("kind", .unknownKind, "String")),
        BadInput("kind with a space", #"{kind: " ready", version: 1}"#, rejected("kind", .unknownKind, "String")),
        BadInput(
            "a native → page kind", #"{kind: "sync", value: SENTINEL}"#, rejected("kind", .wrongDirection, "String")),
        // version.
        BadInput("no version", #"{kind: "ready"}"#, rejected("version", .missingField, "Missing")),
        BadInput(
            "version undefined", #"{kind: "ready", version: undefined}"#, rejected("version", .missingField, "Missing")),
        BadInput("version null", #"{kind: "ready", version: null}"#, rejected("version", .wrongType, "Null")),
        BadInput("version \"1\"", #"{kind: "ready", version: "1"}"#, rejected("version", .wrongType, "String")),
        BadInput(
            "version as a numeric string", #"{kind: "ready", version: String(SENTINEL_NUMBER)}"#,
            rejected("version", .wrongType, "String")),
        BadInput("version true", #"{kind: "ready", version: true}"#, rejected("version", .wrongType, "Boolean")),
        BadInput("version false", #"{kind: "ready", version: false}"#, rejected("version", .wrongType, "Boolean")),
        BadInput("version NaN", #"{kind: "ready", version: NaN}"#, rejected("version", .constantMismatch, "Number")),
        BadInput(
            "version Infinity", #"{kind: "ready", version: Infinity}"#, rejected("version", .constantMismatch, "Number")
        ),
        BadInput(
            "version -Infinity", #"{kind: "ready", version: -Infinity}"#,
            rejected("version", .constantMismatch, "Number")),
        BadInput("version -0", #"{kind: "ready", version: -0}"#, rejected("version", .constantMismatch, "Number")),
        BadInput("version 2", #"{kind: "ready", version: 2}"#, rejected("version", .constantMismatch, "Number")),
        BadInput(
            "version 1 + 2^-52", #"{kind: "ready", version: 1 + Number.EPSILON}"#,
            rejected("version", .constantMismatch, "Number")),
        BadInput(
            "version as a Number object", #"{kind: "ready", version: new Number(1)}"#,
            rejected("version", .wrongType, "Object")),
        BadInput(
            "version as a Boolean object", #"{kind: "ready", version: new Boolean(true)}"#,
            rejected("version", .wrongType, "Object")),
        BadInput(
            "version as a BigInt", #"{kind: "ready", version: BigInt(1)}"#,
            rejected("version", .missingField, "Missing")),
        BadInput("version as an array", #"{kind: "ready", version: [1]}"#, rejected("version", .wrongType, "Array")),
        BadInput(
            "version as a Date", #"{kind: "ready", version: new Date(1)}"#, rejected("version", .wrongType, "Date")),
        BadInput(
            "version as a Float64Array", #"{kind: "ready", version: new Float64Array([1])}"#,
            rejected("version", .wrongType, "Object")),
        BadInput(
            "version with valueOf", #"{kind: "ready", version: {valueOf: function () { return 1; }}}"#,
            .dropped("body.version.valueOf: Function")),
        BadInput(
            "version from a getter returning \"1\"", #"{kind: "ready", get version() { return "1"; }}"#,
            rejected("version", .wrongType, "String")),
        BadInput(
            "version from a getter that throws", #"{kind: "ready", get version() { throw new Error(SENTINEL); }}"#,
            .dropped("body.version: a getter that throws")),
        BadInput(
            "version from a getter returning 1", #"{kind: "ready", get version() { return 1; }}"#, .acceptedAsReady),
        // Extra fields.
        BadInput(
            "an extra string field", #"{kind: "ready", version: 1, token: SENTINEL}"#,
            rejected("token", .unexpectedField, "String")),
        BadInput(
            "an extra Infinity", #"{kind: "ready", version: 1, score: Infinity}"#,
            rejected("score", .unexpectedField, "Number")),
        BadInput(
            "an extra function", #"{kind: "ready", version: 1, callback: function () {}}"#,
            .dropped("body.callback: Function")),
        BadInput(
            "an extra Symbol", #"{kind: "ready", version: 1, tag: Symbol(SENTINEL)}"#, .dropped("body.tag: Symbol")),
        // Symbol.toStringTag is page data: the type named is the engine's, whatever the value says it is.
        BadInput(
            "an object tagged with page text, holding a function",
            #"{kind: "ready", version: 1, o: {[Symbol.toStringTag]: SENTINEL, f: function () {}}}"#,
            .dropped("body.o.f: Function")),
        BadInput(
            "a class instance whose prototype's tag getter returns page text",
            #"{kind: "ready", version: 1, o: new (class { get [Symbol.toStringTag]() { return SENTINEL; } constructor() { this.f = () => 1; } })()}"#,
            .dropped("body.o.f: Function")),
        BadInput(
            "a Proxy whose get trap answers the tag with page text",
            #"new Proxy({}, {get: (t, k) => k === Symbol.toStringTag ? SENTINEL : undefined})"#,
            .dropped("body: Object that cannot be cloned (a Proxy?)")),
        BadInput(
            "a DOM node tagged with page text",
            #"(function () { var d = document.createElement("div"); Object.defineProperty(d, Symbol.toStringTag, {value: SENTINEL}); return d; })()"#,
            .dropped("body: HTMLDivElement")),
        BadInput("a Symbol key", #"{kind: "ready", version: 1, [Symbol("key")]: SENTINEL}"#, .acceptedAsReady),
        BadInput(
            "a numeric key", "{kind: \"ready\", version: 1, 0: SENTINEL_NUMBER}",
            rejected("0", .unexpectedField, "Number")),
        BadInput(
            "a key with control characters", #"{kind: "ready", version: 1, "a\nb\u2028": SENTINEL}"#,
            rejected("a\\nb\\u{2028}", .unexpectedField, "String")),
        BadInput(
            "a class instance with an extra field",
            #"new (class { constructor() { this.kind = "ready"; this.version = 1; this.secret = SENTINEL; } })()"#,
            rejected("secret", .unexpectedField, "String")),
        BadInput(
            "two violations at once", #"{kind: "ready", version: "1", extra: true}"#,
            .rejected([Expected("version", .wrongType, "String"), Expected("extra", .unexpectedField, "Boolean")])),
        BadInput(
            "an array with holes and undefined", #"{kind: "ready", version: 1, list: [1, , undefined, SENTINEL]}"#,
            rejected("list", .unexpectedField, "Array")),
        // References, depth and size.
        BadInput(
            "a cyclic object", #"(function () { var o = {kind: "ready", version: 1}; o.self = o; return o; })()"#,
            rejected("self", .unexpectedField, "Null")),
        BadInput(
            "a cyclic array",
            #"(function () { var a = [SENTINEL]; a.push(a); return {kind: "ready", version: 1, list: a}; })()"#,
            rejected("list", .unexpectedField, "Array")),
        BadInput(
            "a shared reference",
            #"(function () { var s = {v: SENTINEL}; return {kind: "ready", version: 1, a: s, b: s}; })()"#,
            .rejected([Expected("a", .unexpectedField, "Object"), Expected("b", .unexpectedField, "Object")])),
        BadInput(
            "100-deep nesting", #"{kind: "ready", version: 1, nest: \#(nested(100))}"#,
            rejected("nest", .unexpectedField, "Array")),
        BadInput(
            "10,000-deep nesting in a field", #"{kind: "ready", version: 1, nest: \#(nested(10_000))}"#, .dropped(nil)),
        BadInput("10,000-deep nesting as the body", nested(10_000), .dropped(nil)),
        BadInput(
            "a 10 MB string field", #"{kind: "ready", version: 1, blob: \#(tenMegabytes)}"#,
            rejected("blob", .unexpectedField, "String")),
        BadInput(
            "a 10 MB key",
            "(function () { var o = {kind: \"ready\", version: 1}; o[\"k\".repeat(10000000)] = 1; return o; })()",
            rejected(String(repeating: "k", count: 64) + "…", .unexpectedField, "Number")),
        BadInput("a 10 MB kind", "{kind: \(tenMegabytes), version: 1}", rejected("kind", .unknownKind, "String")),
        BadInput(
            "a 100,000-element array", #"{kind: "ready", version: 1, list: new Array(100000).fill(SENTINEL_NUMBER)}"#,
            rejected("list", .unexpectedField, "Array")),
    ]
}
