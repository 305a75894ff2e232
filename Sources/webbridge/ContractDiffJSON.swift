import BridgeContract
import ContractTools
import Foundation

/// `contract diff --format json`: the classified changes as a program reads them (Docs/contract-diff.schema.json).
struct ContractDiffJSON: Encodable {
    struct Change: Encodable {
        let path: String
        let compatibility: String
        let summary: String
        /// Whether this change makes the diff fail (incompatible without a version bump).
        let fails: Bool
    }

    let schema = 1
    let webbridgeVersion = WebBridgeVersion.number
    let contract: String
    let version: Int
    let lockedVersion: Int
    let versionBumped: Bool
    let passed: Bool
    /// Whether the lock no longer matches the contract: run `webbridge contract lock` and commit it.
    let lockIsStale: Bool
    let changes: [Change]
    /// What to do about the failing changes; nil when it passes.
    let remedy: String?

    init(_ diff: ContractDiff, name: String) {
        contract = name
        version = diff.current.version
        lockedVersion = diff.locked.version
        versionBumped = diff.versionBumped
        passed = diff.passes
        lockIsStale = diff.lockIsStale
        changes = diff.changes.map {
            Change(
                path: $0.path, compatibility: $0.compatibility.rawValue, summary: $0.summary,
                fails: diff.failures.contains($0))
        }
        remedy = diff.passes ? nil : diff.remedy
    }

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
