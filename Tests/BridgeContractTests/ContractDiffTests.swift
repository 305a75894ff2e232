import BridgeContract
import ContractTools
import Foundation
import Testing

/// The default contract with one edit applied.
private func edited(_ edit: (inout BridgeContract) -> Void) -> BridgeContract {
    var contract = BridgeContract.default
    edit(&contract)
    return contract
}

private func readyFields(_ edit: @escaping (inout [String: FieldSpec]) -> Void) -> (inout BridgeContract) -> Void {
    { contract in
        let index = contract.messages.firstIndex { $0.kind == "ready" }!
        edit(&contract.messages[index].fields)
    }
}

struct DiffCase: Sendable, CustomStringConvertible {
    let name: String
    let current: BridgeContract
    let expected: [ContractChange]
    var description: String { name }
}

private func incompatible(_ path: String, _ summary: String) -> ContractChange {
    ContractChange(path: path, summary: summary, compatibility: .incompatible)
}

private func compatible(_ path: String, _ summary: String) -> ContractChange {
    ContractChange(path: path, summary: summary, compatibility: .compatible)
}

let diffCases: [DiffCase] = [
    DiffCase(name: "no change", current: .default, expected: []),
    DiffCase(
        name: "new optional field",
        current: edited(readyFields { $0["build"] = FieldSpec(.string, optional: true) }),
        expected: [compatible("ready.build", "new optional field (String)")]),
    DiffCase(
        name: "new message kind",
        current: edited { $0.messages.append(MessageSpec(kind: "ping", direction: .pageToNative)) },
        expected: [compatible("ping", "new message kind (page-to-native)")]),
    DiffCase(
        name: "new required field",
        current: edited(readyFields { $0["build"] = FieldSpec(.string) }),
        expected: [incompatible("ready.build", "new required field (String)")]),
    DiffCase(
        name: "field removed",
        current: edited(readyFields { $0["version"] = nil }),
        expected: [incompatible("ready.version", "field removed (was Number 1)")]),
    DiffCase(
        name: "version's type changed to string",
        current: edited(readyFields { $0["version"] = FieldSpec(.string) }),
        expected: [incompatible("ready.version", "type changed from Number 1 to String")]),
    DiffCase(
        name: "constant changed",
        current: edited(readyFields { $0["version"] = FieldSpec(.constant(.number(2))) }),
        expected: [incompatible("ready.version", "constant changed from 1 to 2")]),
    DiffCase(
        name: "field became optional",
        current: edited(readyFields { $0["version"]?.optional = true }),
        expected: [incompatible("ready.version", "field became optional: receivers built against the lock expect it")]),
    DiffCase(
        name: "kind removed",
        current: edited { $0.messages.removeAll { $0.kind == "sync" } },
        expected: [incompatible("sync", "message kind removed (native-to-page)")]),
    DiffCase(
        name: "handler renamed",
        current: edited { $0.handler = "native" },
        expected: [incompatible("handler", "handler renamed from \"bridge\" to \"native\"")]),
    DiffCase(
        name: "receiver renamed",
        current: edited { $0.receiver = "window.receive" },
        expected: [incompatible("receiver", "receiver renamed from window.bridgeReceive to window.receive")]),
    DiffCase(
        name: "direction changed",
        current: edited { $0.messages[1].direction = .pageToNative },
        expected: [incompatible("sync", "direction changed from native-to-page to page-to-native")]),
    DiffCase(
        name: "request id added",
        current: edited { $0.requestID = RequestIDSpec(field: "id") },
        expected: [incompatible("requestID", "request-id field \"id\" added")]),
    DiffCase(
        name: "correlation added",
        current: edited {
            $0.messages[0].correlation = CorrelationRule(field: "version", message: "sync", messageField: "value")
        },
        expected: [incompatible("ready.correlation", "correlation changed from none to version = \"sync\".value")]),
    DiffCase(
        name: "new optional object field",
        current: edited(readyFields { $0["meta"] = FieldSpec(.object(["a": FieldSpec(.string)]), optional: true) }),
        expected: [compatible("ready.meta", "new optional field (Object)")]),
]

@Suite("Contract diff")
struct ContractDiffTests {
    @Test("every change is classified and named", arguments: diffCases)
    func classifies(_ testCase: DiffCase) {
        let diff = ContractDiff(locked: .default, current: testCase.current)
        #expect(diff.changes == testCase.expected)
        let breaks = testCase.expected.contains { $0.compatibility == .incompatible }
        #expect(diff.passes == !breaks)
    }

    @Test("a change of how native delivers its messages is incompatible, as a receiver rename is")
    func deliveryChanges() throws {
        var dispatching = BridgeContract.default
        dispatching.dispatch = EventDispatch()
        let toEvent =
            "native's delivery changed from the receiver window.bridgeReceive to a \"message\" event "
            + "dispatched on window"
        #expect(ContractDiff(locked: .default, current: dispatching).changes == [incompatible("dispatch", toEvent)])
        let back =
            "native's delivery changed from a \"message\" event dispatched on window to the receiver "
            + "window.bridgeReceive"
        #expect(ContractDiff(locked: dispatching, current: .default).changes == [incompatible("dispatch", back)])
        var renamed = dispatching
        renamed.dispatch = EventDispatch(target: "document", event: "native")
        #expect(
            ContractDiff(locked: dispatching, current: renamed).changes == [
                incompatible(
                    "dispatch",
                    "native's delivery changed from a \"message\" event dispatched on window to a \"native\" event "
                        + "dispatched on document")
            ])
        #expect(ContractDiff(locked: dispatching, current: dispatching).changes.isEmpty)
        // Through the lock file too: what it records is the dispatch, not a receiver.
        let lock = try ContractLock(jsonData: ContractLock(contract: dispatching).jsonData())
        #expect(lock.contract == dispatching)
        #expect(!ContractDiff(locked: lock.contract, current: .default).passes)
    }

    @Test("nested objects and arrays are compared field by field")
    func nested() {
        let locked = edited(readyFields { $0["meta"] = FieldSpec(.object(["a": FieldSpec(.string)]), optional: true) })
        let current = edited(
            readyFields {
                $0["meta"] = FieldSpec(
                    .object(["a": FieldSpec(.integer), "b": FieldSpec(.boolean, optional: true)]), optional: true)
            })
        #expect(
            ContractDiff(locked: locked, current: current).changes == [
                incompatible("ready.meta.a", "type changed from String to Integer"),
                compatible("ready.meta.b", "new optional field (Boolean)"),
            ])
        let lockedArray = edited(readyFields { $0["tags"] = FieldSpec(.array(.string)) })
        let currentArray = edited(readyFields { $0["tags"] = FieldSpec(.array(.number)) })
        #expect(
            ContractDiff(locked: lockedArray, current: currentArray).changes == [
                incompatible("ready.tags[]", "type changed from String to Number")
            ])
    }

    @Test("kind a.b field c and kind a field b.c get different paths")
    func dottedNamesStayApart() throws {
        func contract(_ fields: String) throws -> BridgeContract {
            try BridgeContract(
                jsonData: Data(
                    #"""
                    {"version": 1, "handler": "bridge", "receiver": "window.r", "messages": [
                      {"kind": "a.b", "direction": "page-to-native", "fields": {\#(fields)}},
                      {"kind": "a", "direction": "page-to-native", "fields": {"b.c": {"type": "string"}}}]}
                    """#.utf8))
        }
        let changes = ContractDiff(
            locked: try contract(#""c": {"type": "string"}"#), current: try contract(#""c": {"type": "number"}"#)
        ).changes
        #expect(changes.map(\.path) == [#"["a.b"].c"#])
        let removed = ContractDiff(locked: try contract(#""c": {"type": "string"}"#), current: try contract("")).changes
        #expect(removed.map(\.path) == [#"["a.b"].c"#])
        var renamed = try contract("")
        renamed.messages[1].fields = [:]
        #expect(ContractDiff(locked: try contract(""), current: renamed).changes.map(\.path) == [#"a["b.c"]"#])
    }

    @Test("an incompatible change without a version bump fails, naming the field and the remedy")
    func incompatibleWithoutBumpFails() {
        let diff = ContractDiff(locked: .default, current: edited(readyFields { $0["version"] = FieldSpec(.string) }))
        #expect(!diff.passes)
        #expect(diff.failures.map(\.path) == ["ready.version"])
        #expect(
            diff.description == """
                contract version 1, locked version 1
                  incompatible: ready.version: type changed from Number 1 to String
                FAIL: 1 incompatible change without a version bump (ready.version). Remedy: bump "version" to 2, \
                update the fixture page and the production code on both sides, then run `webbridge contract lock` and commit the lock.
                """)
    }

    @Test("the same change with a version bump passes, and the lock is stale until locked again")
    func bumpedPasses() {
        let diff = ContractDiff(
            locked: .default,
            current: edited {
                readyFields { $0["version"] = FieldSpec(.constant(.number(2))) }(&$0)
                $0.version = 2
            })
        #expect(diff.passes)
        #expect(diff.incompatibleChanges.count == 1)
        #expect(diff.lockIsStale)
        #expect(diff.description.hasSuffix("run `webbridge contract lock` and commit the lock to record them"))
    }

    @Test("a version that goes down is incompatible even with other changes allowed")
    func versionDown() {
        let locked = edited { $0.version = 3 }
        let diff = ContractDiff(locked: locked, current: .default)
        #expect(!diff.passes)
        #expect(diff.changes == [incompatible("version", "version went down from 3 to 1")])
    }

    @Test(
        "the remedy of a locked version with no next one renumbers, never overflows (issue 25)",
        arguments: [Int.max, BridgeContract.maximumVersion])
    func remedyAtTheLargestVersion(_ version: Int) {
        let locked = edited { $0.version = version }
        let current = edited {
            readyFields { $0["version"] = FieldSpec(.string) }(&$0)
            $0.version = version
        }
        let diff = ContractDiff(locked: locked, current: current)
        #expect(!diff.passes)
        #expect(diff.remedy.hasPrefix("renumber the contract from 1 (locked version \(version) has no next version"))
        #expect(diff.description.contains("contract version \(version), locked version \(version)"))
    }

    @Test("the remedy one below the largest version bumps it to the largest")
    func remedyBelowTheLargestVersion() {
        let version = BridgeContract.maximumVersion - 1
        let diff = ContractDiff(
            locked: edited { $0.version = version },
            current: edited {
                readyFields { $0["version"] = FieldSpec(.string) }(&$0)
                $0.version = version
            })
        #expect(diff.remedy.hasPrefix("bump \"version\" to \(BridgeContract.maximumVersion),"))
    }
}

@Suite("The default contract's committed lock")
struct DefaultContractLockTests {
    /// `make test` fails here when DefaultContract.json (or `BridgeContract.default`) changes incompatibly
    /// without a version bump: the message names each field and the remedy.
    @Test("the default contract has no incompatible change against its committed lock")
    func defaultContractMatchesLock() throws {
        let lock = try ContractLock.load(contentsOf: try #require(BridgeContract.defaultLockURL))
        let file = try BridgeContract.load(contentsOf: try #require(BridgeContract.defaultContractURL))
        for (name, contract) in [("DefaultContract.json", file), ("BridgeContract.default", BridgeContract.default)] {
            let diff = ContractDiff(locked: lock.contract, current: contract)
            #expect(diff.passes, "\(name) breaks its lock:\n\(diff)")
        }
    }

    @Test("the committed lock records the current default contract")
    func lockIsCurrent() throws {
        let lock = try ContractLock.load(contentsOf: try #require(BridgeContract.defaultLockURL))
        #expect(
            lock.contract == BridgeContract.default,
            "the lock is stale. Remedy: run `webbridge contract lock --contract Sources/BridgeContract/Resources/DefaultContract.json` and commit the lock."
        )
        #expect(try Data(contentsOf: try #require(BridgeContract.defaultLockURL)) == lock.jsonData())
    }
}

@Suite("Contract lock file")
struct ContractLockTests {
    @Test("the lock goes beside the contract as <name>.lock.json")
    func defaultURL() {
        #expect(
            ContractLock.defaultURL(forContract: URL(fileURLWithPath: "/p/web/bridge.json")).path
                == "/p/web/bridge.lock.json")
        #expect(
            ContractLock.defaultURL(forContract: URL(fileURLWithPath: "/p/contract")).path == "/p/contract.lock.json")
    }

    @Test("a lock survives a round trip through its file")
    func roundTrip() throws {
        let lock = ContractLock(contract: typedContract)
        #expect(try ContractLock(jsonData: lock.jsonData()) == lock)
    }

    @Test(
        "a broken lock names the JSON path inside it",
        arguments: [
            (
                #"{"lockFormat": 1, "contract": {"version": 1, "handler": "b", "receiver": "f", "messages": [{"kind": 1}]}}"#,
                "contract.messages[0].kind"
            ),
            (
                #"{"lockFormat": 9, "contract": {"version": 1, "handler": "b", "receiver": "f", "messages": []}}"#,
                "lockFormat"
            ),
            (
                #"{"lockFormat": 1, "contract": {"version": 1, "handler": "b", "receiver": "1f", "messages": []}}"#,
                "contract.receiver"
            ),
            (#"{"lockFormat": 1}"#, "contract"),
            (
                #"{"lockFormat": 1, "contract": {"version": 9223372036854775807, "handler": "b", "receiver": "f", "messages": []}}"#,
                "contract.version"
            ),
        ])
    func brokenLock(_ json: String, _ path: String) {
        do {
            _ = try ContractLock(jsonData: Data(json.utf8))
            Issue.record("accepted a broken lock")
        } catch {
            #expect(error.path == path)
        }
    }
}
