import Foundation

/// The one error BridgeContract throws: `code` says what went wrong, the description names the field, the rule
/// and the remedy (swift-nio's `FileSystemError` shape).
///
/// A contract or lock file that can't be used has a `file`, the JSON `path`, the `problem` and the `remedy`; a typed
/// message or a native message that breaks the contract carries its `violations`, each with its own path and remedy;
/// a receiver call that can't be written has the `path` of the value and the type found there, never the value.
public struct ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Equatable {
        /// The file could not be read (missing, a link loop, a directory, no permission).
        case unreadable = "unreadable"
        /// The file is not JSON.
        case notJSON = "not-json"
        /// The contract or lock lacks a key it requires.
        case missingKey = "missing-key"
        /// A key of the contract or lock holds another JSON type.
        case wrongType = "wrong-type"
        /// The contract or lock has a key its format does not know.
        case unknownKey = "unknown-key"
        /// A value the contract's rules refuse (a path that names nothing, a play the contract can't run, …).
        case invalidValue = "invalid-value"
        /// A message typed code decodes or replies with breaks the contract; see `violations`.
        case invalidMessage = "invalid-message"
        /// A native → page message breaks the contract's native → page rules; see `violations`.
        case violatesContract = "violates-contract"
        /// A value JSON can't carry (NaN, Infinity, a Date, a non-JSON type), so the call can't be written.
        case notEncodable = "not-encodable"
        /// The receiver or function is not a dotted JavaScript name.
        case invalidReceiver = "invalid-receiver"
    }

    public var code: Code
    /// The file, when the contract came from one.
    public var file: String?
    /// Where the problem is: a JSON path in the file (`messages[0].fields.version.type`, empty for the whole file),
    /// or the value of a call (`items[1]`); empty when `violations` name their own paths.
    public var path: String
    /// What is wrong, in one sentence.
    public var problem: String
    /// What to do about it.
    public var remedy: String
    /// The violations of a message that breaks the contract, each with its path, rule, types and remedy.
    public var violations: [ContractViolation]

    /// A file (or a contract built in code) that can't be used.
    public init(code: Code, file: String? = nil, path: String, problem: String, remedy: String) {
        self.code = code
        self.file = file
        self.path = path
        self.problem = problem
        self.remedy = remedy
        violations = []
    }

    /// A message that breaks the contract: `.invalidMessage` for one typed code reads, `.violatesContract` for
    /// one native sends.
    public init(code: Code = .invalidMessage, violations: [ContractViolation]) {
        self.code = code
        file = nil
        path = ""
        problem = code == .violatesContract ? "native message breaks the contract" : "message breaks the contract"
        remedy =
            code == .violatesContract
            ? "send a message the contract declares for native-to-page, or change the contract"
            : "see each violation's remedy"
        self.violations = violations
    }

    /// A value of a receiver call that can't be written: `found` is its type, never the value.
    package static func notEncodable(path: String, found: String) -> ContractError {
        ContractError(
            code: .notEncodable, path: path, problem: "can't be sent, found \(found)",
            remedy:
                "send only strings, finite numbers, booleans, null, arrays and objects (encode dates as numbers or strings)"
        )
    }

    /// A receiver or function name that is not a dotted JavaScript name.
    package static func invalidReceiver(path: String) -> ContractError {
        ContractError(
            code: .invalidReceiver, path: path, problem: "can't be sent, found String",
            remedy: "name the receiver with identifiers separated by dots, e.g. window.bridgeReceive")
    }

    public var description: String {
        switch code {
        case .invalidMessage: return "message breaks the contract:\n" + describe(violations)
        case .violatesContract:
            return "native message breaks the contract (\(code.rawValue)):\n" + describe(violations)
        case .notEncodable, .invalidReceiver:
            return "\(path): \(problem) (\(code.rawValue)). Remedy: \(remedy)."
        default:
            let location = [file, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: ": ")
            return "\(location.isEmpty ? "contract" : location): \(problem) (\(code.rawValue)). Remedy: \(remedy)"
        }
    }

    func inFile(_ url: URL) -> ContractError {
        var copy = self
        copy.file = url.path
        return copy
    }
}

/// The name generated typed code throws when a message breaks the contract (kept so generated code reads as before).
public typealias TypedMessageError = ContractError
/// The name generated typed code throws when a receiver call can't be built (kept so generated code reads as before).
public typealias ReceiverCallError = ContractError

/// A coding key for any name, used to find keys a contract file should not have.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Renders a coding path as a JSON path: `messages[0].fields.version`.
func jsonPath(_ codingPath: [any CodingKey]) -> String { codingPath.jsonPath }

extension Array where Element == any CodingKey {
    /// A decoder's coding path as a JSON path (`pages[0].sessions[1].load.status`), as errors about a file name
    /// the field; public so a report reader in another module names fields the same way.
    public var jsonPath: String {
        var path = ""
        for key in self {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path
    }
}

extension Decoder {
    /// Refuses keys outside `allowed`, so a typo such as `optinal` is an error, not a silently ignored key.
    package func rejectUnknownKeys(_ allowed: [String]) throws(ContractError) {
        guard let container = try? container(keyedBy: AnyKey.self) else { return }
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !allowed.contains(key.stringValue) {
            throw ContractError(
                code: .unknownKey, path: jsonPath(codingPath + [key]),
                problem: "unknown key \"\(key.stringValue)\"",
                remedy: "remove it or correct its spelling; allowed keys here: \(allowed.joined(separator: ", "))")
        }
    }
}

extension ContractError {
    /// Translates a `DecodingError` into a path-naming file error.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(
                code: .missingKey, path: jsonPath(context.codingPath + [key]),
                problem: "required key \"\(key.stringValue)\" is missing",
                remedy: "add it; see Docs/CONTRACT.md for the file format")
        case .typeMismatch(let type, let context):
            self.init(
                code: .wrongType, path: jsonPath(context.codingPath),
                problem: "expected \(ContractError.jsonTypeName(type))",
                remedy: "write a \(ContractError.jsonTypeName(type)) here; see Docs/CONTRACT.md for the file format"
            )
        case .valueNotFound(let type, let context):
            self.init(
                code: .wrongType, path: jsonPath(context.codingPath),
                problem: "expected \(ContractError.jsonTypeName(type)), found null",
                remedy: "write a \(ContractError.jsonTypeName(type)) here, or leave the key out if it is optional")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init(
                    code: .notJSON, path: "",
                    problem: "the file is not valid JSON",
                    remedy: "fix the JSON syntax (a JSON linter such as `python3 -m json.tool FILE` shows the line)")
            } else {
                self.init(
                    code: .invalidValue, path: jsonPath(context.codingPath),
                    problem: context.debugDescription,
                    remedy: "see Docs/CONTRACT.md for the allowed values")
            }
        @unknown default:
            self.init(
                code: .invalidValue, path: "", problem: "the file can't be decoded", remedy: "see Docs/CONTRACT.md")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Double.Type: "number"
        case is Bool.Type: "boolean"
        case is [Any].Type: "array"
        default:
            String(describing: type).hasPrefix("Array") ? "array" : "object"
        }
    }
}

extension ContractError {
    /// The keys whose values the file formats read as integers.
    static let integerKeys = ["version", "lockFormat"]

    /// Reads `url` and decodes it with `decode`; a read failure says what could not be read and the remedy.
    package static func reading<T>(
        _ url: URL, what: String, remedy: String, _ decode: (Data) throws(ContractError) -> T
    ) throws(ContractError) -> T {
        let data: Data
        do {
            // A pipe (`<(…)`) and /dev/null read as files do.
            data = try FileBytes.read(url.path)
        } catch {
            // Missing, a link loop and unreadable are different fixes: say which.
            throw ContractError(
                code: .unreadable, file: url.path, path: "", problem: "\(what) \(error)", remedy: remedy)
        }
        do {
            return try decode(data)
        } catch {
            throw error.inFile(url)
        }
    }

    /// Decodes JSON text, turning decoding errors into the JSON path and the remedy.
    package static func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws(ContractError) -> T {
        // The decoder keeps one of two duplicate keys silently and calls numbers it can't hold "not valid JSON":
        // the scan finds those first and names their path.
        let fractionalPaths = try JSONScanner.check(data)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ContractError {
            throw error
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, !fractionalPaths.isEmpty {
                // Valid JSON (the scan passed) refused as a whole: a fraction where the format needs an integer.
                let path =
                    fractionalPaths.first { path in integerKeys.contains { path == $0 || path.hasSuffix(".\($0)") } }
                    ?? fractionalPaths[0]
                throw ContractError(
                    code: .wrongType, path: path,
                    problem: "expected an integer, found a number with a fraction or exponent",
                    remedy: "write a whole number such as 1")
            }
            throw ContractError(error)
        } catch {
            throw ContractError(
                code: .notJSON, path: "", problem: "the file is not valid JSON", remedy: "fix the JSON syntax")
        }
    }
}

/// A file's canonical JSON: pretty, sorted keys, unescaped slashes, a trailing newline, so diffs stay small.
package func canonicalJSON(_ value: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Contracts and locks hold plain strings, numbers and booleans: encoding them can't fail.
    guard var data = try? encoder.encode(value) else { return Data("{}\n".utf8) }
    data.append(contentsOf: Array("\n".utf8))
    return data
}

extension ContractError {
    /// A contract without a `check` play whose native side sends nothing of its own: the fixture style has nothing
    /// to send. A request/response bridge (native only answers) is told the play that answers, built from its own
    /// kinds and a sample of the answer's fields, so the remedy can be pasted as it is.
    static func nothingNativeSends(_ contract: BridgeContract) -> ContractError {
        let answers = contract.messages.filter { $0.direction == .nativeToPage && $0.acknowledges != nil }
        guard let answer = answers.first, let request = answer.acknowledges else {
            return ContractError(
                code: .invalidValue, path: "messages",
                problem: "the contract declares no native-to-page message for the check to send",
                remedy:
                    "declare the message native sends (e.g. {\"kind\": \"sync\", \"direction\": \"native-to-page\", …}), or give the check a play whose steps say what native does"
            )
        }
        let sample = answer.body?.sample ?? FieldType.object(answer.fields).sample
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value = (try? encoder.encode(sample)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let play =
            #"{"steps": [{"after": "\#(request)", "send": "\#(answer.kind)", "value": \#(value), "accepted": "returns"}], "expect": ["\#(request)"]}"#
        return ContractError(
            code: .invalidValue, path: "check",
            problem:
                "missing; every native-to-page message answers a request ('\(answer.kind)' answers '\(request)'), so the check has nothing of its own to send: a request/response contract needs a play",
            remedy:
                "add \"check\": \(play) to the contract (the check adds the request id; Docs/CONTRACT.md, \"check\")")
    }
}
