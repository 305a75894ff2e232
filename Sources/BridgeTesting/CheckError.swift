/// The one error BridgeTesting throws: `code` says what went wrong, the description names the file and field, the
/// problem and the remedy (swift-nio's `FileSystemError` shape, as `ContractError` is for BridgeContract).
///
/// A JSON report that can't be read or merged has its `file` and the JSON `field`; a `--replay` token that can't be
/// read has neither; a native step that can't be built has the argument's path as its `field`.
package struct CheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: String, Sendable, Equatable {
        /// A report file could not be read (missing, a folder, no permission).
        case unreadable = "unreadable"
        /// A report file is not JSON.
        case notJSON = "not-json"
        /// A JSON file that is not a webbridge report (no `schema`).
        case notAReport = "not-a-report"
        /// A report of another schema than the one this version reads.
        case otherSchema = "other-schema"
        /// A report field breaks its schema.
        case invalidValue = "invalid-value"
        /// Reports of another contract or contract version, which are not merged.
        case otherContract = "other-contract"
        /// A shard's report passed twice.
        case duplicateShard = "duplicate-shard"
        /// Reports of different splits (or a shard beside a whole list), which would overlap.
        case otherSplit = "other-split"
        /// A `--replay` token without the token prefix.
        case notAToken = "not-a-token"
        /// A `--replay` token of another token format, printed by another version of webbridge.
        case tokenOtherVersion = "token-other-version"
        /// A `--replay` token whose perturbation can't be decoded (cut, or edited).
        case tokenUnreadable = "token-unreadable"
        /// A `--replay` token holding a delay that is negative or over 60 s.
        case tokenOutOfRange = "token-out-of-range"
        /// A native step whose call can't be built from its arguments.
        case stepCannotBeBuilt = "step-cannot-be-built"
    }

    package var code: Code
    /// The report file; nil for a token or a step.
    package var file: String?
    /// The JSON path inside the file (`pages[0].sessions[1].pageToNative.status`) or the step's argument
    /// (`arguments[0]`); empty for the whole file or token.
    package var field: String
    /// What is wrong, in one sentence.
    package var problem: String
    /// What to do about it.
    package var remedy: String

    package init(code: Code, file: String? = nil, field: String = "", problem: String, remedy: String) {
        self.code = code
        self.file = file
        self.field = field
        self.problem = problem
        self.remedy = remedy
    }

    package var description: String {
        let location = [file, field.isEmpty ? nil : field].compactMap { $0 }.joined(separator: ": ")
        return (location.isEmpty ? "" : "\(location): ") + "\(problem) (\(code.rawValue)). Remedy: \(remedy)"
    }
}

extension CheckError {
    /// What every remedy for a damaged or foreign report file says.
    static let reportAsWritten =
        "pass the file `webbridge check --format json` or `--report json=FILE` wrote (or `report merge --format json`), unedited"

    /// A `--replay` token that can't be read.
    static func token(_ code: Code) -> CheckError {
        switch code {
        case .notAToken:
            CheckError(
                code: code,
                problem:
                    "the token is not a stress replay token (it starts with \(Perturbation.tokenPrefix) and is printed by --stress)",
                remedy: "copy it whole from the report")
        case .tokenOtherVersion:
            CheckError(
                code: code,
                problem:
                    "the token is from another version of webbridge (this one reads tokens starting with \(Perturbation.tokenPrefix))",
                remedy: "replay it with the webbridge version that printed it, or stress again with this one")
        case .tokenOutOfRange:
            CheckError(
                code: code, problem: "the token holds a delay that is negative or over 60 s",
                remedy: "copy it unchanged from the report")
        default:
            CheckError(
                code: .tokenUnreadable,
                problem: "the token's perturbation cannot be read (cut or from another version of webbridge)",
                remedy: "copy it whole from a report of this version")
        }
    }
}
