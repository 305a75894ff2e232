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

    init(
        _ tool: String, _ contains: [String] = [], excludes: [String] = [], output: URL, exit: Int32 = 0,
        stderr: Bool = false, createBundle: Bool = false, hang: Bool = false
    ) {
        self.hang = hang
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

    var tools: ToolRunner { ToolRunner(environment: environment) }

    /// Every argv the stand-ins received, tool name first.
    func calls() throws -> [[String]] {
        let url = folder.appendingPathComponent("calls.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }
}

/// A console that keeps everything for assertions.
final class RecordingConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var _output = Data()
    private var _progress: [String] = []
    private var _notes: [String] = []

    var output: String { lock.withLock { String(decoding: _output, as: UTF8.self) } }
    var progress: [String] { lock.withLock { _progress } }
    var notes: [String] { lock.withLock { _notes } }

    var console: JobConsole {
        JobConsole(
            output: { data in self.lock.withLock { self._output.append(data) } },
            progress: { line in self.lock.withLock { self._progress.append(line) } },
            note: { line in self.lock.withLock { self._notes.append(line) } })
    }
}

/// The recorded `xcodebuild -version` of Xcode 13.2.1, with objc warnings before it.
let xcode13Version = Realdata.url(
    "xcodebuild/openbakery_xcodebuild-version_xcode13.2.1_with-objc-warnings_EXTRACTED.txt")
