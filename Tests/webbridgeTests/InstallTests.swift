import Foundation
import XCTest

/// `make install PREFIX=…` puts the binary with its resource bundles, the completions and the man page where the
/// shells and man look, and `make uninstall PREFIX=…` removes exactly those files (the test's own file stays).
final class InstallTests: XCTestCase {
    /// The web process extension, installed beside the binary on Linux (the engine loads it from there).
    #if os(Linux)
    static let extensionLibrary = ["libexec/webbridge/libWebBridgeWebExtension.so"]
    #else
    static let extensionLibrary: [String] = []
    #endif

    func testMakeInstallPutsEveryFileWhereShellsAndManLookAndUninstallRemovesExactlyThem() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webbridge-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try FileManager.default.createDirectory(
            at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try "mine".write(to: prefix.appendingPathComponent("bin/mine.txt"), atomically: true, encoding: .utf8)
        let make = ["make", "-s", "-C", SchemaCheck.repository.path]
        let install = try ExternalTool.run(
            make + ["install", "PREFIX=\(prefix.path)", "BUILT=\(CLI.productsDirectory.path)"])
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        for file in [
            "bin/webbridge", "libexec/webbridge/webbridge",
            "libexec/webbridge/WebBridge_BridgeContract.resources",
            "libexec/webbridge/WebBridge_BridgeTesting.resources",
            "share/bash-completion/completions/webbridge", "share/zsh/site-functions/_webbridge",
            "share/fish/vendor_completions.d/webbridge.fish", "share/man/man1/webbridge.1",
        ] + Self.extensionLibrary {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) missing")
        }
        let installed = prefix.appendingPathComponent("bin/webbridge").path
        XCTAssertEqual(
            try ExternalTool.run([installed, "--version"]).stdout, try CLI.run(["--version"]).stdout)
        // The bundled fixture and default contract come from the installed bundles.
        let check = try ExternalTool.run([installed, "check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        // The installed binary finds the extension beside its real path (bin/ holds a link to it).
        if !Self.extensionLibrary.isEmpty {
            let doctor = try ExternalTool.run([installed, "doctor", "--package-path", prefix.path])
            XCTAssertTrue(doctor.stdout.contains("ok web-extension: the engine's console is heard"), doctor.stdout)
        }
        // man finds the page under PREFIX; bash loads the completion from where bash-completion looks.
        let man = try ExternalTool.run([
            "man", "-M", prefix.appendingPathComponent("share/man").path, "-w", "webbridge",
        ])
        XCTAssertEqual(man.stdout, prefix.appendingPathComponent("share/man/man1/webbridge.1").path + "\n", man.stderr)
        let bash = try ExternalTool.run([
            "bash", "-c", "source \"$0\" && complete -p webbridge",
            prefix.appendingPathComponent("share/bash-completion/completions/webbridge").path,
        ])
        XCTAssertEqual(bash.status, 0, bash.stderr)

        let uninstall = try ExternalTool.run(make + ["uninstall", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        let left = FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String] ?? []
        XCTAssertEqual(left.sorted(), ["bin", "bin/mine.txt"], "uninstall left or removed other files")
    }
}
