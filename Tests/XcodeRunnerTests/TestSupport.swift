import Foundation
import XCTest

@testable import XcodeRunner

/// The real recorded outputs copied into the test bundle (see Fixtures/realdata/INDEX.md).
enum Realdata {
    static let root: URL = {
        guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures resource is missing from the test bundle")
        }
        return fixtures
    }()

    static func url(_ path: String) -> URL { root.appendingPathComponent("realdata").appendingPathComponent(path) }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    static func text(_ path: String) throws -> String { String(decoding: try data(path), as: UTF8.self) }

    /// Every file in a realdata folder with the extension, sidecars excluded.
    static func files(_ folder: String, ext: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
            .filter { $0.hasSuffix("." + ext) }.sorted().map { folder + "/" + $0 }
    }
}

/// A fresh temporary folder, removed by the test's teardown (it is the test's own, never the user's).
func makeTemporaryFolder(_ test: XCTestCase) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcoderunner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
}

/// One rule of the replaying stand-in: which recording to print for which argv, and the exit code.
struct ReplayRule: Encodable {
    var tool: String
    var contains: [String] = []
    var excludes: [String] = []
    var output: String
    var exit: Int32 = 0
    var stderr = false
    var createBundle = false
    var hang = false
    /// Ignore SIGTERM and SIGINT, and start a child sharing the output that ignores them too (with `hang`).
    var ignoreSignals = false
    var child = false

    init(
        _ tool: String, _ contains: [String] = [], excludes: [String] = [], output: URL, exit: Int32 = 0,
        stderr: Bool = false, createBundle: Bool = false, hang: Bool = false, ignoreSignals: Bool = false,
        child: Bool = false
    ) {
        self.hang = hang
        self.ignoreSignals = ignoreSignals
        self.child = child
        self.tool = tool
        self.contains = contains
        self.excludes = excludes
        self.output = output.path
        self.exit = exit
        self.stderr = stderr
        self.createBundle = createBundle
    }
}

/// Puts `xcrun` and `xcodebuild` (the replaying script) first on PATH and records every call.
struct Replay {
    let folder: URL
    let bin: URL

    init(_ test: XCTestCase, rules: [ReplayRule], tools: [String] = ["xcrun", "xcodebuild"]) throws {
        folder = try makeTemporaryFolder(test)
        bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = try Data(contentsOf: Realdata.root.appendingPathComponent("replay.py"))
        for tool in tools {
            let url = bin.appendingPathComponent(tool)
            try script.write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        try JSONEncoder().encode(rules).write(to: folder.appendingPathComponent("rules.json"))
    }

    var environment: [String: String] {
        ["PATH": bin.path + ":/usr/bin:/bin", "REPLAY_DIR": folder.path]
    }

    /// Short grace periods, so a stand-in that ignores SIGTERM is killed within seconds.
    var tools: ToolRunner { ToolRunner(environment: environment, stopGrace: 2, drainGrace: 2) }

    /// Every argv the stand-ins received, tool name first.
    func calls() throws -> [[String]] {
        let url = folder.appendingPathComponent("calls.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }
}

/// The real Xcode 16 RC simctl listing with `edit` applied to the devices of each runtime (hostile variants).
func editedListing(_ edit: (inout [String: [[String: Any]]]) -> Void) throws -> Data {
    var root = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Realdata.data("simctl/openbakery_simctl-list-xcode16.json"))
            as? [String: Any])
    var devices = try XCTUnwrap(root["devices"] as? [String: [[String: Any]]])
    edit(&devices)
    root["devices"] = devices
    return try JSONSerialization.data(withJSONObject: root)
}

/// Replaces the UDID of the device named `name` under `runtime` (an identifier suffix such as `iOS-17-5`).
func replaceUDID(in devices: inout [String: [[String: Any]]], runtime: String, name: String, with udid: String) {
    let key = RuntimeName.prefix + runtime
    devices[key] = devices[key]?.map { device in
        var device = device
        if device["name"] as? String == name { device["udid"] = udid }
        return device
    }
}

extension Replay {
    /// The pids a hanging stand-in wrote before its output: its own (`tool`) and its child's.
    func pids() throws -> [String: Int32] {
        try JSONDecoder().decode(
            [String: Int32].self, from: Data(contentsOf: folder.appendingPathComponent("pids.json")))
    }
}

/// Whether `pid` is still a live process (a zombie, which no longer runs, is not).
func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    // Where /proc exists, an orphaned zombie that init has not reaped yet counts as gone.
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return true }
    return !stat[close...].hasPrefix(") Z")
}

/// Waits until none of `pids` runs, up to `timeout`; returns the ones still running.
func stillRunning(_ pids: [Int32], timeout: TimeInterval = 10) -> [Int32] {
    let deadline = Date().addingTimeInterval(timeout)
    let tick = DispatchSemaphore(value: 0)
    while true {
        let running = pids.filter(isRunning)
        if running.isEmpty || Date() >= deadline { return running }
        // Nothing signals the exit of a process that is not our child: look again shortly.
        _ = tick.wait(timeout: .now() + 0.02)
    }
}

/// Runs `body` on another thread and waits for it up to `timeout`; nil when it did not return in time.
func bounded<T: Sendable>(_ timeout: TimeInterval, _ body: @escaping @Sendable () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Thread {
        box.value = body()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + timeout) == .success ? box.value : nil
}

final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A console that keeps everything for assertions.
final class RecordingConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var _output = Data()
    private var _events: [JobEvent] = []

    var output: String { lock.withLock { String(decoding: _output, as: UTF8.self) } }
    /// Every event the job sent, in order.
    var events: [JobEvent] { lock.withLock { _events } }
    /// The progress lines, in order.
    var progress: [String] {
        events.compactMap { event in
            if case .progress(let progress) = event { progress.line } else { nil }
        }
    }
    /// The argv of each run started, in order.
    var started: [[String]] {
        events.compactMap { event in
            if case .runStarted(let argv) = event { argv } else { nil }
        }
    }

    var console: JobConsole {
        JobConsole(
            output: { data in self.lock.withLock { self._output.append(data) } },
            event: { event in self.lock.withLock { self._events.append(event) } })
    }
}

/// Runs `body` with standard output and error sent to a file; returns its result and what it wrote there.
func capturingStandardStreams<T>(_ body: () throws -> T) throws -> (T, String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: file) }
    let handle = try FileHandle(forWritingTo: file)
    fflush(nil)
    let saved = (dup(STDOUT_FILENO), dup(STDERR_FILENO))
    dup2(handle.fileDescriptor, STDOUT_FILENO)
    dup2(handle.fileDescriptor, STDERR_FILENO)
    let result = Result { try body() }
    fflush(nil)
    dup2(saved.0, STDOUT_FILENO)
    dup2(saved.1, STDERR_FILENO)
    close(saved.0)
    close(saved.1)
    try handle.close()
    return (try result.get(), try String(contentsOf: file, encoding: .utf8))
}

extension JobOutcome {
    /// The refusal, if the job refused.
    var refusal: JobRefusal? {
        if case .refused(let refusal) = verdict { refusal } else { nil }
    }

    /// The lines of the checks that failed, when preflight refused the job; empty otherwise.
    var preflightFailures: [String] {
        guard case .preflightFailed(let checks) = refusal else { return [] }
        return checks.filter { $0.status == .failed }.map(\.description)
    }

    /// The per-test differences, when the compared runs differ; empty otherwise.
    var differences: [String] {
        if case .differ(_, _, let differences) = comparison { differences } else { [] }
    }
}

/// The recorded `xcodebuild -version` of Xcode 13.2.1, with objc warnings before it.
let xcode13Version = Realdata.url(
    "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt")
