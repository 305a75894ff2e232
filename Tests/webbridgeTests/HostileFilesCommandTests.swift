import Foundation
import XCTest

/// The files a user names, as a hostile or careless user names them: one-character names, a report path that is
/// one of the run's own inputs (however it is reached), and a FIFO nobody reads.
final class HostileFilesCommandTests: XCTestCase {
    var scratch: URL!
    static let defaultContract = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BridgeContract/Resources/DefaultContract.json")

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: scratch.appendingPathComponent(name).path).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The bundled fixture's page, copied as `name`.
    func fixture(as name: String) throws -> String {
        try write(name, try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8))
    }

    /// A one-character name (a bare name, with a trailing slash's sibling, a non-ASCII one) for every file a
    /// command takes: the page, its list, the contract, the play, a user script, each report, a lock.
    func testOneCharacterFileNamesWorkLikeAnyOther() throws {
        try fixture(as: "p")
        try write("l", "p\n")
        try write("u", "window.userScriptRan = true;\n")
        let contract = try String(contentsOf: Self.defaultContract, encoding: .utf8)
        try write("c", contract)
        let run = try CLI.run(
            [
                "check", "--pages", "l", "--contract", "c", "--user-script", "u", "--report", "junit=j",
                "--report", "html=é", "--report", "json=r",
            ], currentDirectory: scratch)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(read("j")?.contains("<testsuite") == true, "junit=j not written")
        XCTAssertTrue(read("é")?.contains("<html") == true, "html=é not written")
        let single = try CLI.run(["check", "--page", "p", "--report", "junit=k"], currentDirectory: scratch)
        XCTAssertEqual(single.status, 0, single.stdout + single.stderr)
        let merged = try CLI.run(["report", "merge", "r", "--report", "junit=m"], currentDirectory: scratch)
        XCTAssertEqual(merged.status, 0, merged.stdout + merged.stderr)
        XCTAssertTrue(read("m")?.contains("<testsuite") == true, "junit=m not written")
        // A report in a folder of one character that does not exist is refused, not a crash.
        let missing = try CLI.run(["check", "--page", "p", "--report", "junit=x/"], currentDirectory: scratch)
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        let lock = try CLI.run(["contract", "lock", "--contract", "c"], currentDirectory: scratch)
        XCTAssertEqual(lock.status, 0, lock.stdout + lock.stderr)
    }

}
