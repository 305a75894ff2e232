import Foundation

/// `webbridge check` on the bundled fixture in a new process with no DISPLAY, so it starts its own Xvfb, and
/// the same check written in C on WebKitGTK's C API (the engine's floor), run by run in turn.
@MainActor
enum ColdCheck {
    /// Seconds from launch to exit of each run, WebBridge's and the raw check's; a run that does not pass is
    /// an error, not a figure.
    static func run(webbridge: String, raw: String, fixture: String, runs: Int, timeout: Double) async throws
        -> (webbridge: [Double], raw: [Double])
    {
        for (path, product) in [(webbridge, "webbridge"), (raw, "webbridge-raw-cold-check")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchFailure("\(path) is not built: run `swift build -c release --product \(product)`")
        }
        var samples: (webbridge: [Double], raw: [Double]) = ([], [])
        // Alternated, so a busy moment on the machine hits both sides alike.
        for index in 1...runs {
            samples.webbridge.append(try await timed(webbridge, ["check"], "webbridge check", index, timeout))
            samples.raw.append(try await timed(raw, [fixture], "the raw cold check", index, timeout))
        }
        return samples
    }

    /// Seconds from launch to exit of `webbridge check` on a page whose ready breaks the contract (`version: "1"`),
    /// cold like `cold_check_s`: the verdict is decided at the rejection, so it must not wait out the timeout.
    static func failVerdict(webbridge: String, fixture: String, runs: Int, timeout: Double) async throws -> [Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-fail-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("broken-version.html")
        try SuiteBench.broken(fixture).write(to: page, atomically: true, encoding: .utf8)
        var samples: [Double] = []
        for index in 1...runs {
            let outcome = try await ChildProcess.run(
                webbridge, ["check", "--page", page.path], unset: ["DISPLAY"], timeout: timeout)
            guard outcome.status == 1 else {
                throw BenchFailure(
                    "the broken page's check run \(index) exited \(outcome.status), not 1:\n\(outcome.output)")
            }
            samples.append(outcome.seconds)
        }
        return samples
    }

    /// Seconds from launch to exit of `webbridge --help` and of the raw check's `--start-only`, alternated:
    /// what loading each program's libraries costs before any work (Swift's runtime and Foundation on our side).
    static func startUp(webbridge: String, raw: String, runs: Int, timeout: Double) async throws
        -> (webbridge: [Double], raw: [Double])
    {
        var samples: (webbridge: [Double], raw: [Double]) = ([], [])
        for index in 1...runs {
            samples.webbridge.append(try await timed(webbridge, ["--help"], "webbridge --help", index, timeout))
            samples.raw.append(try await timed(raw, ["--start-only"], "the raw check's start-up", index, timeout))
        }
        return samples
    }

    /// Kilobytes of resident memory the engine keeps per web view created and destroyed, from the C program
    /// with no WebBridge code and no page load at all (`--views N --no-load`): the engine's share of RSS growth.
    static func engineGrowthPerView(raw: String, fixture: String, views: Int, timeout: Double) async throws -> Double {
        let outcome = try await ChildProcess.run(
            raw, ["--views", "\(views)", "--no-load", fixture], unset: ["DISPLAY"], timeout: timeout)
        guard outcome.status == 0,
            let phrase = outcome.output.range(of: #"growth (-?[0-9.]+) kB per view"#, options: .regularExpression)
        else {
            throw BenchFailure("the raw views run exited \(outcome.status):\n\(outcome.output)")
        }
        let number = outcome.output[phrase].split(separator: " ")[1]
        guard let kilobytes = Double(number) else { throw BenchFailure("the raw views run printed no growth") }
        return kilobytes
    }

    private static func timed(_ path: String, _ arguments: [String], _ name: String, _ index: Int, _ timeout: Double)
        async throws -> Double
    {
        let outcome = try await ChildProcess.run(path, arguments, unset: ["DISPLAY"], timeout: timeout)
        guard outcome.status == 0 else {
            throw BenchFailure("\(name) run \(index) exited \(outcome.status):\n\(outcome.output)")
        }
        return outcome.seconds
    }
}

/// The same check as a Linux user would run it without WebBridge: Selenium driving WebKitWebDriver.
@MainActor
enum PeerCheck {
    /// Why the peer cannot run here, or nil when Selenium, WebKitWebDriver and Xvfb are all installed.
    static func missing(python: String) -> String? {
        guard ChildProcess.which("WebKitWebDriver") != nil else { return "WebKitWebDriver (apt webkit2gtk-driver)" }
        guard ChildProcess.which("Xvfb") != nil else { return "Xvfb (apt xvfb)" }
        guard let interpreter = ChildProcess.which(python) else { return "\(python)" }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: interpreter)
        probe.arguments = ["-c", "import selenium"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do { try probe.run() } catch { return "\(python)" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "selenium (pip)"
    }

    /// Seconds from launch to exit of `peer_check.py --pages N`: one driver session checking the page N times, or
    /// (`fresh`) a driver session per page, isolated as the suite's pages are.
    static func suite(python: String, script: String, fixture: String, pages: Int, fresh: Bool, timeout: Double)
        async throws -> Double
    {
        guard let interpreter = ChildProcess.which(python) else { throw BenchFailure("\(python) is not on PATH") }
        let outcome = try await ChildProcess.run(
            interpreter, [script, "--pages", String(pages)] + (fresh ? ["--fresh"] : []) + [fixture],
            unset: ["DISPLAY"],
            timeout: timeout * Double(pages))
        guard outcome.status == 0 else {
            throw BenchFailure("the peer suite exited \(outcome.status):\n\(outcome.output)")
        }
        return outcome.seconds
    }

    /// Seconds from launch to exit of `peer_check.py` on `fixture`, per run.
    static func run(python: String, script: String, fixture: String, runs: Int, timeout: Double) async throws
        -> [Double]
    {
        guard let interpreter = ChildProcess.which(python) else { throw BenchFailure("\(python) is not on PATH") }
        var samples: [Double] = []
        for index in 1...runs {
            let outcome = try await ChildProcess.run(
                interpreter, [script, fixture], unset: ["DISPLAY"], timeout: timeout)
            guard outcome.status == 0 else {
                throw BenchFailure("the peer check run \(index) exited \(outcome.status):\n\(outcome.output)")
            }
            samples.append(outcome.seconds)
        }
        return samples
    }
}
