import Foundation

/// Simulator UDIDs, which reach paths and `-destination`, so only UUIDs are accepted.
public enum UDID {
    /// The rule, as every refusal states it.
    public static let rule = "a UDID must be a UUID (8-4-4-4-12 hexadecimal digits)"

    /// Whether `text` is a UUID: 8-4-4-4-12 hexadecimal digits, nothing else.
    public static func isValid(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isASCIIHexDigit } }
    }

    /// Refuses a UDID that is not a UUID, naming `field` (the value is not echoed: it may be hostile).
    public static func validate(_ text: String, field: String, code: XcodeRunnerError.Code, remedy: String)
        throws(XcodeRunnerError)
    {
        guard isValid(text) else { throw XcodeRunnerError(code, field: field, rule: rule, remedy: remedy) }
    }
}
