import BridgeContract
import Foundation

/// A committed snapshot of a contract, against which `ContractDiff` classifies later edits.
package struct ContractLock: Codable, Sendable, Equatable {
    /// The lock file format this library writes.
    public static let currentFormat = 1

    /// The lock file format, so a later format can be told apart.
    public var lockFormat: Int
    /// The contract as it was locked.
    public var contract: BridgeContract

    public init(contract: BridgeContract) {
        lockFormat = ContractLock.currentFormat
        // The check section is test data: changing how the check plays native is never a protocol change.
        self.contract = contract.protocolOnly
    }

    /// Where the lock of a contract file lives by default: beside it, `<name>.lock.json`.
    public static func defaultURL(forContract url: URL) -> URL {
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base).lock.json")
    }

    /// Reads a lock file; errors name the file, the JSON path and the remedy.
    public static func load(contentsOf url: URL) throws(ContractError) -> ContractLock {
        try ContractError.reading(
            url, what: "the lock file", remedy: "create it with `webbridge contract lock`, then commit it",
            ContractLock.init(jsonData:))
    }

    /// Decodes and checks a lock from JSON text.
    public init(jsonData: Data) throws(ContractError) {
        let decoded = try ContractError.decodeJSON(ContractLock.self, from: jsonData)
        guard decoded.lockFormat == ContractLock.currentFormat else {
            throw ContractError(
                code: .invalidValue, path: "lockFormat",
                problem: "lock format \(decoded.lockFormat) is not the supported format \(ContractLock.currentFormat)",
                remedy: "regenerate the lock with this version of `webbridge contract lock`")
        }
        do {
            try decoded.contract.checkDefinition()
        } catch {
            var nested = error
            nested.path = nested.path.isEmpty ? "contract" : "contract.\(nested.path)"
            throw nested
        }
        self = decoded
    }

    /// The canonical lock file: pretty, sorted keys, a trailing newline.
    public func jsonData() -> Data {
        canonicalJSON(self)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case lockFormat, contract
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lockFormat = try container.decode(Int.self, forKey: .lockFormat)
        contract = try container.decode(BridgeContract.self, forKey: .contract)
    }
}
