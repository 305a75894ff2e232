import BridgeContract
import ContractTools
import Foundation
import XCTest

/// `webbridge contract lock` and `diff` with lock files the user protected, linked, or raced on, and the one
/// exit-code rule for files: a path given (or implied) that is missing, unreadable or write-protected is exit 2.
final class LockFileCommandTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-lockfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The default contract plus an optional page → native `report` with a `count` of `countType`.
    func contract(version: Int = 1, countType: FieldType? = nil) -> BridgeContract {
        var contract = BridgeContract.default
        contract.version = version
        if let countType {
            contract.messages.append(
                MessageSpec(kind: "report", direction: .pageToNative, fields: ["count": FieldSpec(countType)]))
        }
        return contract
    }

    func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    func testAWriteProtectedLockIsRefusedUnlessForcedAndKeepsItsMode() throws {
        let file = scratch.appendingPathComponent("bridge.json")
        let lock = scratch.appendingPathComponent("bridge.lock.json")
        try contract().jsonData().write(to: file)
        XCTAssertEqual(try CLI.run(["contract", "lock", "--contract", file.path]).status, 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: lock.path)
        let before = try Data(contentsOf: lock)

        // A compatible change (a new message) would be locked if the file could change.
        try contract(countType: .integer).jsonData().write(to: file)
        let refused = try CLI.run(["contract", "lock", "--contract", file.path])
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("the lock file is write-protected (mode 444) and was not changed"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pass --force"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: lock), before)
        XCTAssertEqual(try mode(lock), 0o444)

        let forced = try CLI.run(["contract", "lock", "--contract", file.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try ContractLock.load(contentsOf: lock).contract, contract(countType: .integer))
        XCTAssertEqual(try mode(lock), 0o444, "--force reset the lock's permissions")
    }

    func testASymlinkedLockIsWrittenThroughTheLink() throws {
        let file = scratch.appendingPathComponent("bridge.json")
        let lock = scratch.appendingPathComponent("bridge.lock.json")
        let shared = scratch.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let target = shared.appendingPathComponent("real.lock.json")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: "shared/real.lock.json")

        try contract().jsonData().write(to: file)
        let result = try CLI.run(["contract", "lock", "--contract", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("written through the symlink to \(target.path)"), result.stdout)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: lock.path), "shared/real.lock.json",
            "the link was replaced")
        XCTAssertEqual(try ContractLock.load(contentsOf: target).contract, contract())
    }

    func testConcurrentLocksTakeTurnsSoNoChangeIsLost() throws {
        // Both contracts are compatible with the first lock, but not with each other: run one after the other,
        // the second must be refused; run at once without a turn, both "succeed" and one change is lost.
        let lock = scratch.appendingPathComponent("bridge.lock.json")
        let first = scratch.appendingPathComponent("first.json")
        let second = scratch.appendingPathComponent("second.json")
        try contract().jsonData().write(to: first)
        XCTAssertEqual(try CLI.run(["contract", "lock", "--contract", first.path, "--lock", lock.path]).status, 0)
        try contract(countType: .integer).jsonData().write(to: first)
        try contract(countType: .string).jsonData().write(to: second)
        for round in 1...8 {
            try ContractLock(contract: contract()).jsonData().write(to: lock)
            let group = DispatchGroup()
            let results = LockedResults()
            for file in [first, second] {
                DispatchQueue.global().async(group: group) {
                    results.append(try? CLI.run(["contract", "lock", "--contract", file.path, "--lock", lock.path]))
                }
            }
            XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "round \(round): the lock runs did not end")
            let statuses = results.all.map { $0?.status ?? -1 }.sorted()
            XCTAssertEqual(statuses, [0, 1], "round \(round): both runs reported \(statuses); one change was lost")
        }
    }

    /// Holds the lock of `folder` (what any tool that flocks it does) until the returned descriptor is closed.
    func holdLock(of folder: URL) throws -> Int32 {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(descriptor, 0, "open \(folder.path): \(String(cString: strerror(errno)))")
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0, "flock: \(String(cString: strerror(errno)))")
        return descriptor
    }

    func testAHeldLockIsWaitedForWithADeadlineNamingTheHolder() throws {
        let file = scratch.appendingPathComponent("bridge.json")
        try contract().jsonData().write(to: file)
        let held = try holdLock(of: scratch)
        defer { close(held) }
        let result = try CLI.run(["contract", "lock", "--contract", file.path, "--wait", "0.5"], timeout: 30)
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("held by pid \(getpid())"), result.stderr)
        XCTAssertTrue(result.stderr.contains("still locked after 0.5 s"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Remedy: "), result.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: scratch.appendingPathComponent("bridge.lock.json").path),
            "a lock was written while the folder was held")
    }

    func testAHeldLockReleasedDuringTheWaitLetsTheLockGoOn() throws {
        let file = scratch.appendingPathComponent("bridge.json")
        try contract().jsonData().write(to: file)
        let held = try holdLock(of: scratch)
        let run = try RunningCLI(["contract", "lock", "--contract", file.path, "--wait", "600"])
        XCTAssertTrue(
            run.waitForStderr(containing: "waiting up to 600 s", timeout: 30), "no word of the wait: \(run.stderr)")
        close(held)
        let result = try run.wait(timeout: 30)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("locked contract version 1"), result.stdout)
    }

    func testTheSameFileFaultGivesTheSameExitCodeInEveryCommand() throws {
        let file = scratch.appendingPathComponent("bridge.json")
        try contract().jsonData().write(to: file)
        // A lock that can't be read (a directory stands in for it: root reads any file).
        let lock = scratch.appendingPathComponent("bridge.lock.json")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        for command in ["lock", "diff"] {
            let result = try CLI.run(["contract", command, "--contract", file.path])
            XCTAssertEqual(result.status, 2, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("bridge.lock.json"), "\(command): \(result.stderr)")
        }
        // A contract that does not exist.
        let missing = scratch.appendingPathComponent("missing.json").path
        for arguments in [
            ["contract", "print", "--contract", missing], ["contract", "js", "--contract", missing],
            ["contract", "diff", "--contract", missing], ["check", "--contract", missing],
        ] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("missing.json: the contract file does not exist"),
                "\(arguments): \(result.stderr)")
        }
    }
}

private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CLIResult?] = []
    func append(_ result: CLIResult?) { lock.lock(); results.append(result); lock.unlock() }
    var all: [CLIResult?] { lock.lock(); defer { lock.unlock() }; return results }
}
