#if os(Linux)
import Foundation
import XCTest

/// A page file's uncaught error, which WebKit hides from the page as "Script error.", shows its real text and line
/// in every report format: the engine's console gives them, through the web process extension beside the binary.
/// Without the extension the check behaves as Apple's WebKit does, and says once why.
final class FilePageErrorCommandTests: XCTestCase {
    static let page = """
        <!doctype html><html><body><script src="app.js"></script></body></html>
        """
    static let script = "// the app's script\nconst token = \"SECRET-4245\";\nstartBridge(token);\n"
    static let error = "ReferenceError: Can't find variable: startBridge (app.js:3)"

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["page.html", "second.html"] {
            try Self.page.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try Self.script.write(to: folder.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTheRealTextAndLineAreInTheTextReportAndTheVerdict() throws {
        let result = try CLI.run(["check", "--page", folder.appendingPathComponent("page.html").path])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("page reported     uncaught error: " + Self.error), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("the page reported an uncaught error first: " + Self.error), result.stdout)
        XCTAssertFalse(result.stdout.contains("Script error."), result.stdout)
        XCTAssertFalse((result.stdout + result.stderr).contains("SECRET"), result.stdout + result.stderr)
        XCTAssertFalse(result.stdout.contains("note: the engine's console"), result.stdout)
    }

    func testTheRealTextAndLineAreInEveryReportFile() throws {
        let reports = ["junit", "html", "json"].flatMap {
            ["--report", "\($0)=" + folder.appendingPathComponent("report.\($0)").path]
        }
        let result = try CLI.run(["check", "--page", folder.appendingPathComponent("page.html").path] + reports)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        for format in ["junit", "html", "json"] {
            let written = try String(
                contentsOf: folder.appendingPathComponent("report.\(format)"), encoding: .utf8)
            // HTML and XML escape the apostrophe; the rest of the text and the place are as in the text report.
            XCTAssertTrue(written.contains("Can") && written.contains("find variable: startBridge (app.js:3)"), format)
            XCTAssertFalse(written.contains("Script error."), format)
            XCTAssertFalse(written.contains("SECRET"), format)
        }
    }

    func testTheEnginesPrivateDataFoldersAreRemovedAtExitAndAfterAKilledRun() throws {
        // A folder as a run killed before its exit handler leaves it: named by a pid that no longer runs.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let temporary = FileManager.default.temporaryDirectory
        let left = temporary.appendingPathComponent("webbridge-engine-\(finished.processIdentifier)-left")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: true)
        try "cookies".write(to: left.appendingPathComponent("data"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", "--page", folder.appendingPathComponent("page.html").path])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: left.path), "a killed run's folder was left")
        // The run's own folder went with it: every folder left belongs to a process that still runs.
        let folders = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            .filter { $0.hasPrefix("webbridge-engine-") }
        for name in folders {
            let pid = pid_t(name.dropFirst("webbridge-engine-".count).prefix { $0.isNumber }) ?? 0
            XCTAssertEqual(kill(pid, 0), 0, "\(name) outlived its process")
        }
    }

    func testWithoutTheExtensionTheErrorStaysHiddenAndTheCheckSaysWhyOnce() throws {
        // The binary and its bundles in a folder of their own, without the extension beside them.
        let alone = folder.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        for name in ["webbridge", "WebBridge_BridgeContract.resources", "WebBridge_BridgeTesting.resources"] {
            try FileManager.default.copyItem(
                at: CLI.productsDirectory.appendingPathComponent(name), to: alone.appendingPathComponent(name))
        }
        let binary = alone.appendingPathComponent("webbridge").path
        // Two pages, each with the hidden error: the note is said once a run.
        let pages = ["page.html", "second.html"].flatMap { ["--page", folder.appendingPathComponent($0).path] }
        let result = try ExternalTool.run([binary, "check"] + pages)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("page reported     uncaught error: Script error. (WebKit hides"), result.stdout)
        let note =
            "note: the engine's console is not heard (libWebBridgeWebExtension.so is not beside the binary"
        XCTAssertEqual(result.stdout.components(separatedBy: note).count - 1, 1, result.stdout)
        let doctor = try ExternalTool.run([binary, "doctor"])
        XCTAssertTrue(doctor.stdout.contains("ok web-extension: the engine's console is not heard"), doctor.stdout)
        let built = try CLI.run(["doctor"])
        XCTAssertTrue(built.stdout.contains("ok web-extension: the engine's console is heard"), built.stdout)
    }
}
#endif
