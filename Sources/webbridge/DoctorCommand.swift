import BridgeTesting
import CommandLineOptions
import Foundation
import TerminalEscape

/// `webbridge doctor`: what `swift test` needs here (WebKitGTK, Xvfb, a display) and the one test style it cannot run.
enum DoctorCommand {
    static let options = OptionTable(
        command: "webbridge doctor",
        options: [
            .value(
                "--package-path", "DIR", "the package whose Tests/ folder is scanned",
                default: .described("the current directory")),
            .value(
                "--path", "DIR_OR_FILE", "also scan this folder or Swift file (relative: to --package-path)",
                repeatable: true),
        ])

    static let usage = options.help(
        """
        Checks, before `swift test`, what the bridge tests need on this machine and the test style that
        SwiftPM on Linux cannot run.

        ENVIRONMENT CHECKS (Linux):
          webkitgtk   pkg-config knows webkit2gtk-4.1 and libwebkit2gtk-4.1.so.0 loads.
          xvfb        Xvfb is in a PATH entry (needed when DISPLAY is unset).
          display     DISPLAY is set and GTK can open it, or a private Xvfb starts (and is stopped again).
          web-extension  WebBridge's web process extension is beside the binary (never fails: without it,
                      errors of a page file's scripts read "Script error.").

        TEST-STYLE CHECK:
          Every XCTestCase subclass in the package's Tests/ folder and in each --path: a synchronous
          `func test…()` isolated to the main actor (a @MainActor class, a @MainActor base class or
          extension, or a @MainActor method) aborts the whole Linux test binary at test discovery.
          Rule [\(TestStyleFinding.rule)]. Fix: \(TestStyleFinding.fix)
        """,
        epilogue: """
            EXIT CODES:
              0 everything is fine, 1 a test-style finding (whatever the environment),
              2 usage, 3 environment (WebKitGTK, Xvfb or the display)
            """)

    @MainActor
    static func run(_ argv: ArraySlice<String>) async -> ExitStatus {
        let parsed: ParsedOptions
        switch options.read(argv, help: usage) {
        case .exit(let status): return status
        case .options(let options): parsed = options
        }
        let paths = parsed.values("--path")
        let package = URL(fileURLWithPath: parsed.value("--package-path") ?? ".").standardizedFileURL
        if parsed.isGiven("--package-path"), !isDirectory(package) {
            return usageError("--package-path \(package.path.escapingControlCharacters) is not a folder")
        }
        var roots: [URL] = []
        let tests = package.appendingPathComponent("Tests")
        if isDirectory(tests) { roots.append(tests) }
        for path in paths {
            let url =
                (path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appendingPathComponent(path))
                .standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                return usageError(
                    "--path \(path.escapingControlCharacters): no file or folder at "
                        + "\(url.path.escapingControlCharacters) (a relative --path resolves against --package-path)")
            }
            roots.append(url)
        }

        let environment = EnvironmentChecks.run()
        for check in environment { print(check) }

        let scan = TestStyleScanner.scan(roots)
        for finding in scan.findings { print(finding.line(relativeTo: package)) }
        for (folder, reason) in scan.unreadableFolders {
            print(
                "note test styles: skipped \(relative(folder, to: package).escapingControlCharacters): "
                    + "the folder can't be read (\(reason)); its tests were not scanned")
        }
        for unreadable in scan.unreadable {
            print(
                "note test styles: skipped \(relative(unreadable, to: package).escapingControlCharacters): not readable as text"
            )
        }
        if scan.findings.isEmpty {
            print(
                "ok test styles: \(scan.testCaseCount) XCTestCase subclasses in \(scan.fileCount) Swift files, "
                    + "no synchronous @MainActor test method")
        } else {
            let count = scan.findings.count
            print(
                "FAIL test styles: \(count) synchronous @MainActor test method\(count == 1 ? "" : "s"): "
                    + "`swift test` on Linux would abort before running any test. Remedy: \(TestStyleFinding.fix)")
        }
        if !scan.findings.isEmpty { return .contractFailure }
        return environment.contains { $0.failed } ? .environment : .pass
    }

    private static func usageError(_ message: String) -> ExitStatus {
        options.usageError(CommandError(message))
    }

    static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// `url` relative to `base` when it lies inside it, else its absolute path.
    static func relative(_ url: URL, to base: URL) -> String {
        let prefix = base.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

// MARK: - Environment

/// One line of the environment report, in the style of `webbridge xcode preflight`.
struct DoctorCheck: CustomStringConvertible {
    let name: String
    let failed: Bool
    let detail: String
    var remedy = ""

    var description: String {
        "\(failed ? "FAIL" : "ok") \(name): \(detail.escapingControlCharacters)"
            + (remedy.isEmpty ? "" : ". Remedy: \(remedy)")
    }
}

/// WebKitGTK, Xvfb and the display: what the engine's tests need on Linux.
enum EnvironmentChecks {
    @MainActor
    static func run() -> [DoctorCheck] {
        guard engineIsWebKitGTK else {
            return [DoctorCheck(name: "engine", failed: false, detail: "the system's WebKit; nothing to check")]
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return [webKitGTK(path: path), xvfb(path: path), display(), webExtension()]
    }

    /// The web process extension beside the binary: not a failure without it (a check behaves as Apple's WebKit
    /// does), but then errors of a page file's scripts read "Script error.".
    @MainActor
    static func webExtension() -> DoctorCheck {
        DoctorCheck(
            name: "web-extension", failed: false,
            detail: EngineConsole.unavailable
                ?? "the engine's console is heard (the web process extension is beside the binary)")
    }

    #if os(Linux)
    static let engineIsWebKitGTK = true
    #else
    static let engineIsWebKitGTK = false
    #endif

    static let library = "libwebkit2gtk-4.1.so.0"

    /// Every executable named `name` in the entries of `path`, in PATH order.
    static func executables(named name: String, path: String) -> [String] {
        path.split(separator: ":", omittingEmptySubsequences: true).map { "\($0)/\(name)" }
            .filter { access($0, X_OK) == 0 }
    }

    static func webKitGTK(path: String) -> DoctorCheck {
        let install = "sudo apt-get install libwebkit2gtk-4.1-dev pkg-config"
        var problems: [String] = []
        var found: [String] = []
        if let pkgConfig = executables(named: "pkg-config", path: path).first {
            if let version = run(pkgConfig, ["--modversion", "webkit2gtk-4.1"]) {
                found.append("webkit2gtk-4.1 \(version) (pkg-config)")
            } else {
                problems.append("pkg-config does not know webkit2gtk-4.1 (the build needs its .pc file)")
            }
        } else {
            problems.append("pkg-config is in no PATH entry (the build runs `pkg-config webkit2gtk-4.1`)")
        }
        if let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) {
            dlclose(handle)
            found.append("\(library) loads")
        } else {
            problems.append("\(library) does not load")
        }
        if problems.isEmpty {
            return DoctorCheck(name: "webkitgtk", failed: false, detail: found.joined(separator: "; "))
        }
        return DoctorCheck(name: "webkitgtk", failed: true, detail: problems.joined(separator: "; "), remedy: install)
    }

    static func xvfb(path: String) -> DoctorCheck {
        let entries = path.split(separator: ":", omittingEmptySubsequences: true).count
        let onPath = executables(named: "Xvfb", path: path).first
        if let found = onPath {
            return DoctorCheck(name: "xvfb", failed: false, detail: found)
        }
        // The engine's own lookup (PATH, then /usr/bin): the one the display check starts.
        if let found = EngineEnvironment.xvfbExecutable(path: path) {
            return DoctorCheck(
                name: "xvfb", failed: false,
                detail: "\(found) (in none of PATH's \(entries) entries; the engine starts it from there)")
        }
        let displaySet = !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
        return DoctorCheck(
            name: "xvfb", failed: !displaySet,
            detail: "Xvfb is in none of PATH's \(entries) entries"
                + (displaySet ? " (not needed while DISPLAY is set)" : " and DISPLAY is unset"),
            remedy: displaySet ? "" : "sudo apt-get install xvfb, or set DISPLAY to a running X server")
    }

    /// Opens the display the tests would use; starts (and, at exit, stops) a private Xvfb when DISPLAY is unset.
    @MainActor
    static func display() -> DoctorCheck {
        let given = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        do {
            try EngineEnvironment.prepare()
        } catch {
            return DoctorCheck(
                name: "display", failed: true,
                detail: given.isEmpty
                    ? "DISPLAY is unset and no private Xvfb could start" : "DISPLAY \(given) is set but not reachable",
                remedy: "\(error)")
        }
        if given.isEmpty {
            let started = getenv("DISPLAY").map { String(cString: $0) } ?? "?"
            return DoctorCheck(
                name: "display", failed: false, detail: "DISPLAY is unset; a private Xvfb started on \(started)")
        }
        return DoctorCheck(name: "display", failed: false, detail: "DISPLAY \(given) is reachable")
    }

    /// The trimmed standard output of a successful run, nil when it fails.
    static func run(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
