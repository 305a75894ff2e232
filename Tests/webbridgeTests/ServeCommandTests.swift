import Foundation
import XCTest

/// `--serve DIR` as a careless or hostile user gives it: a page behind a symbolic link, an import with a typo, a
/// module that cannot be served, and `--serve` with no page.
final class ServeCommandTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-serve-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A page whose module imports `module`, and says ready once it ran.
    func page(importing module: String) -> String {
        """
        <!doctype html><meta charset="utf-8"><body><script type="module">
        import { install } from "\(module)";
        install();
        window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
        </script></body>
        """
    }

    let receiver =
        "export function install() { window.bridgeReceive = (m) => { document.body.dataset.received = m.value; }; }"

    /// A folder of pages behind a symbolic link that points out of the served folder: the server would answer
    /// each of its modules 404, so the check refuses it up front, naming the link and the remedy.
    func testAPageInAFolderLinkedFromOutsideTheServedFolderIsRefused() throws {
        try write("elsewhere/pages/index.html", page(importing: "./receiver.mjs"))
        try write("elsewhere/pages/receiver.mjs", receiver)
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("site/pages"),
            withDestinationURL: scratch.appendingPathComponent("elsewhere/pages"))
        let site = scratch.appendingPathComponent("site").path
        let result = try CLI.run(["check", "--page", site + "/pages/index.html", "--serve", site])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("symbolic link out of --serve"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Remedy: serve the folder the link points to"), result.stderr)
        // Served from the folder the link points to, it passes. Native answers ready rather than didFinish: on a
        // busy machine WebKit can finish the load before the module has run (seen: sync at didFinish met no
        // receiver, ready came 9 ms later).
        let play = try write(
            "after-ready.json",
            #"{"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]}"#
        )
        let direct = try CLI.run([
            "check", "--page", scratch.appendingPathComponent("elsewhere/pages/index.html").path, "--serve",
            scratch.appendingPathComponent("elsewhere").path, "--play", play,
        ])
        XCTAssertEqual(direct.status, 0, direct.stdout + direct.stderr)
    }

    /// An import with a typo, and a module the server cannot serve (a FIFO in its place): the verdict names the
    /// path and what the check's own server answered, not only "nothing arrived".
    func testTheChecksOwnServersRefusalsAreNamedInTheVerdict() throws {
        try write("site/receiver.mjs", receiver)
        let typo = try write("site/typo.html", page(importing: "./reciever.mjs"))
        let site = scratch.appendingPathComponent("site").path
        let result = try CLI.run(["check", "--page", typo, "--serve", site, "--timeout", "3"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("the check's server for the page's folder answered /reciever.mjs 404 not found"),
            result.stdout)
        XCTAssertEqual(mkfifo(scratch.appendingPathComponent("site/fifo.mjs").path, 0o600), 0)
        let unservable = try write("site/fifo.html", page(importing: "./fifo.mjs"))
        let fifo = try CLI.run(["check", "--page", unservable, "--serve", site, "--timeout", "3"])
        XCTAssertEqual(fifo.status, 1, fifo.stdout + fifo.stderr)
        XCTAssertTrue(fifo.stdout.contains("/fifo.mjs 404 not found"), fifo.stdout)
        if geteuid() != 0 {
            let locked = try write("site/locked.mjs", receiver)
            XCTAssertEqual(chmod(locked, 0), 0)
            let unreadable = try write("site/locked.html", page(importing: "./locked.mjs"))
            let run = try CLI.run(["check", "--page", unreadable, "--serve", site, "--timeout", "3"])
            XCTAssertTrue(run.stdout.contains("/locked.mjs 403 unreadable"), run.stdout)
        }
    }

    func testServeWithoutAPageIsAUsageError() throws {
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("site"), withIntermediateDirectories: true)
        let site = scratch.appendingPathComponent("site").path
        for extra in [[], ["--url", "http://127.0.0.1:9/"]] {
            let result = try CLI.run(["check", "--serve", site] + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stdout + result.stderr)")
            XCTAssertTrue(result.stderr.contains("--serve"), result.stderr)
            XCTAssertTrue(result.stderr.contains("no page to serve it for"), result.stderr)
        }
    }
}
