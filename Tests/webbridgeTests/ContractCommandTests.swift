import BridgeContract
import ContractTools
import Foundation
import Testing

/// A scratch directory for contract and lock files, removed afterwards.
private struct Scratch: ~Copyable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-contract-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A contract with the default's shape plus a page → native `report`.
private func sampleContract(version: Int = 1, countType: FieldType = .integer) -> BridgeContract {
    var contract = BridgeContract.default
    contract.version = version
    contract.messages.append(
        MessageSpec(kind: "report", direction: .pageToNative, fields: ["count": FieldSpec(countType)]))
    return contract
}

@Suite("webbridge contract")
struct ContractCommandTests {
    @Test(
        "usage errors exit 2 with a usage line",
        arguments: [
            (["contract"], "missing subcommand"),
            (["contract", "frobnicate"], "unknown subcommand 'frobnicate'"),
            (["contract", "print", "--bogus"], "unknown option --bogus"),
            (["contract", "diff", "--contract"], "option --contract needs a value"),
            (["contract", "print", "extra"], "unexpected argument 'extra'"),
            (["contract", "lock"], "the bundled default contract's lock is committed in the package"),
        ])
    func usageErrors(_ arguments: [String], _ message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("webbridge contract: \(message)"))
        #expect(result.stderr.contains("see 'webbridge contract --help'"))
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "--help at the contract level and with a subcommand",
        arguments: [["contract", "--help"], ["contract", "diff", "-h"]])
    func help(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: webbridge contract <print|lock|diff|js|ts|swift>"))
        #expect(result.stdout.contains("EXIT CODES"))
    }

    @Test("print writes the bundled default contract's JSON")
    func printDefault() throws {
        let result = try CLI.run(["contract", "print"])
        #expect(result.status == 0)
        #expect(Data(result.stdout.utf8) == BridgeContract.default.jsonData())
    }

    @Test("print of a missing file exits 2 (a path to fix), of a broken one exits 1 naming the JSON path")
    func printBadFiles() throws {
        let scratch = try Scratch()
        let missing = try CLI.run(["contract", "print", "--contract", scratch.file("none.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.json: the contract file does not exist"))
        let broken = scratch.file("broken.json")
        try Data(
            #"{"version": 1, "handler": "bridge", "receiver": "window.f", "messages": [{"kind": "a", "direction": "sideways"}]}"#
                .utf8
        )
        .write(to: broken)
        let result = try CLI.run(["contract", "print", "--contract", broken.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.json: messages[0].direction: unknown direction \"sideways\""))
        #expect(result.stderr.contains("Remedy: use \"page-to-native\" or \"native-to-page\""))
    }

    @Test("js writes the ES module of the contract")
    func javaScript() throws {
        let result = try CLI.run(["contract", "js"])
        #expect(result.status == 0)
        #expect(result.stdout == ContractModule(contract: .default).source)
        #expect(result.stdout.contains(#"\"handler\":\"bridge\""#))
    }

    @Test("ts and swift write the typed code of the contract file, named after it")
    func typedCode() throws {
        let bundled = try BridgeContract.load(contentsOf: #require(BridgeContract.defaultContractURL))
        let declarations = try CLI.run(["contract", "ts"])
        #expect(declarations.status == 0, "\(declarations.stderr)")
        #expect(declarations.stdout == TypeScriptDeclarations(contract: bundled).source)
        let swift = try CLI.run(["contract", "swift"])
        #expect(swift.status == 0, "\(swift.stderr)")
        #expect(swift.stdout == SwiftTypes(contract: bundled).source)
        #expect(swift.stdout.contains("public enum DefaultContract {"))
    }

    @Test("swift refuses arrays nested past the limit typed Swift compiles in good time, naming the field")
    func swiftRefusesDeepNesting() throws {
        let scratch = try Scratch()
        let contract = scratch.file("deep.json")
        var type = #"{"type": "integer"}"#
        for _ in 0...SwiftTypes.maxArrayNesting { type = #"{"type": "array", "items": \#(type)}"# }
        try Data(
            #"{"version": 1, "handler": "h", "receiver": "window.r", "discriminator": "type", "messages": [{"kind": "k", "direction": "page-to-native", "fields": {"a": \#(type)}}]}"#
                .utf8
        ).write(to: contract)
        let result = try CLI.run(["contract", "swift", "--contract", contract.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("messages[0].fields.a: arrays nest 17 levels deep"), "\(result.stderr)")
    }

    @Test("diff of the bundled default contract against its committed lock passes")
    func diffDefault() throws {
        let result = try CLI.run(["contract", "diff"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no changes: the contract matches its lock"))
    }

    @Test("the lock workflow: lock, diff, refuse an unbumped incompatible change, accept it bumped")
    func lockWorkflow() throws {
        let scratch = try Scratch()
        let contract = scratch.file("bridge.json")
        let lock = scratch.file("bridge.lock.json")
        try sampleContract().jsonData().write(to: contract)

        let noLock = try CLI.run(["contract", "diff", "--contract", contract.path])
        #expect(noLock.status == 1)
        #expect(noLock.stderr.contains("bridge.lock.json: no lock file. Remedy: run `webbridge contract lock`"))

        let locked = try CLI.run(["contract", "lock", "--contract", contract.path])
        #expect(locked.status == 0, "\(locked.stderr)")
        #expect(try ContractLock.load(contentsOf: lock) == ContractLock(contract: sampleContract()))
        #expect(try CLI.run(["contract", "diff", "--contract", contract.path]).status == 0)

        // Incompatible without a version bump: diff fails naming the field, lock refuses and keeps the old lock.
        try sampleContract(countType: .string).jsonData().write(to: contract)
        let lockedBytes = try Data(contentsOf: lock)
        let diff = try CLI.run(["contract", "diff", "--contract", contract.path])
        #expect(diff.status == 1)
        #expect(diff.stderr.contains("incompatible: report.count: type changed from Integer to String"))
        #expect(diff.stderr.contains("Remedy: bump \"version\" to 2"))
        let refused = try CLI.run(["contract", "lock", "--contract", contract.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("The lock was not changed."))
        #expect(try Data(contentsOf: lock) == lockedBytes)

        // Bumped: both pass, and lock records the new contract.
        try sampleContract(version: 2, countType: .string).jsonData().write(to: contract)
        let bumped = try CLI.run(["contract", "diff", "--contract", contract.path])
        #expect(bumped.status == 0)
        #expect(bumped.stdout.contains("run `webbridge contract lock` and commit the lock to record them"))
        #expect(try CLI.run(["contract", "lock", "--contract", contract.path]).status == 0)
        #expect(try ContractLock.load(contentsOf: lock).contract.version == 2)
    }

    @Test("diff --format json: every change classified, on stdout, following Docs/contract-diff.schema.json")
    func diffJSON() throws {
        let scratch = try Scratch()
        let contract = scratch.file("bridge.json")
        try sampleContract().jsonData().write(to: contract)
        #expect(try CLI.run(["contract", "lock", "--contract", contract.path]).status == 0)
        let schema = SchemaCheck.repository.appendingPathComponent("Docs/contract-diff.schema.json").path
        for (version, status) in [(1, Int32(1)), (2, Int32(0))] {
            try sampleContract(version: version, countType: .string).jsonData().write(to: contract)
            let diff = try CLI.run(["contract", "diff", "--contract", contract.path, "--format", "json"])
            #expect(diff.status == status, "\(diff.stderr)")
            let output = scratch.file("diff-\(version).json")
            try Data(diff.stdout.utf8).write(to: output)
            let errors = try SchemaCheck.errors([output.path], schema: ["--schemafile", schema])
            #expect(errors == nil, "\(errors ?? "")\n\(diff.stdout)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
            #expect(document["passed"] as? Bool == (status == 0))
            let changes = try #require(document["changes"] as? [[String: Any]])
            #expect(changes.map { $0["path"] as? String } == ["report.count"])
            #expect(document["versionBumped"] as? Bool == (version == 2))
            #expect(changes.first?["compatibility"] as? String == "incompatible")
            #expect(changes.first?["fails"] as? Bool == (status == 1))
            #expect(((document["remedy"] as? String)?.hasPrefix("bump \"version\" to 2") ?? false) == (status == 1))
        }
    }

    @Test(
        "a version above JavaScript's largest exact integer is refused when read, in the contract or the lock",
        arguments: ["diff", "lock"])
    func hugeVersion(_ subcommand: String) throws {
        // Int.max made "bump to version + 1" overflow and trap (issue 25).
        let scratch = try Scratch()
        let contract = scratch.file("bridge.json")
        let lock = scratch.file("bridge.lock.json")
        let rule = "is above 9007199254740991, the largest integer JavaScript reads exactly"
        let remedy = "Remedy: number versions from 1 and bump by 1 on every incompatible change"

        try sampleContract().jsonData().write(to: contract)
        try ContractLock(contract: sampleContract(version: Int.max)).jsonData().write(to: lock)
        let lockedBytes = try Data(contentsOf: lock)
        let hugeLock = try CLI.run(["contract", subcommand, "--contract", contract.path])
        #expect(hugeLock.status == 1, "\(hugeLock.stderr)")
        let lockField = "bridge.lock.json: contract.version: the contract version 9223372036854775807"
        #expect(hugeLock.stderr.contains("\(lockField) \(rule)"), "\(hugeLock.stderr)")
        #expect(hugeLock.stderr.contains(remedy), "\(hugeLock.stderr)")
        #expect(!hugeLock.stderr.contains("Fatal error"), "\(hugeLock.stderr)")
        #expect(try Data(contentsOf: lock) == lockedBytes, "the lock is kept")

        try sampleContract(version: Int.max, countType: .string).jsonData().write(to: contract)
        let hugeContract = try CLI.run(["contract", subcommand, "--contract", contract.path])
        #expect(hugeContract.status == 1, "\(hugeContract.stderr)")
        #expect(
            hugeContract.stderr.contains("bridge.json: version: the contract version 9223372036854775807 \(rule)"))
        #expect(hugeContract.stderr.contains(remedy), "\(hugeContract.stderr)")
        #expect(!hugeContract.stderr.contains("Fatal error"), "\(hugeContract.stderr)")
    }

    @Test("--lock names another lock file, and a corrupt existing lock is never overwritten")
    func explicitAndCorruptLock() throws {
        let scratch = try Scratch()
        let contract = scratch.file("bridge.json")
        let lock = scratch.file("locks/custom.json")
        try FileManager.default.createDirectory(at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sampleContract().jsonData().write(to: contract)
        #expect(try CLI.run(["contract", "lock", "--contract", contract.path, "--lock", lock.path]).status == 0)
        #expect(try CLI.run(["contract", "diff", "--contract", contract.path, "--lock", lock.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("bridge.lock.json").path))

        let corrupt = Data("not a lock, but the user's file".utf8)
        try corrupt.write(to: lock)
        let result = try CLI.run(["contract", "lock", "--contract", contract.path, "--lock", lock.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The existing lock is kept"))
        #expect(try Data(contentsOf: lock) == corrupt)
    }
}
