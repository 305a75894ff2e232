import BridgeContract
import BridgeTesting
import EngineTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values the corpus pages put into message bodies; none of them may ever appear in what WebBridge reports.
enum Sentinel {
    /// A string no structure description contains.
    static let text = "S3NT1NEL"
    /// A number no timeline or structure description contains.
    static let number = 918_273_645
    /// JS declarations that give the corpus scripts the sentinels as `SENTINEL` and `SENTINEL_NUMBER`.
    static let declarations = "var SENTINEL = \"\(text)\"; var SENTINEL_NUMBER = \(number);"

    /// The sentinel texts found in `output`, empty when it shows structure only.
    static func leaks(in output: String) -> [String] {
        [text, String(number)].filter { output.contains($0) }
    }

    /// Everything a session reports (rejections, timeline, messages), as one text to search.
    @MainActor
    static func reported(by session: BridgeSession) -> String {
        var lines = session.rejections.map(\.description)
        lines += session.timeline.map { "\($0.event.rawValue) \($0.note)" }
        lines += session.messages.map(\.description)
        lines += session.acknowledgements.map { "\($0.kind) \($0.correlation)" }
        return lines.joined(separator: "\n")
    }

    /// A report as the CLI would write it (JSON), so the search covers every field.
    static func reported(by report: SessionReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return json + "\n" + report.failures.map(\.description).joined(separator: "\n")
    }
}

/// Collects a session's events in order, for tests that need to see what came between two markers.
@MainActor
final class EventLog {
    private(set) var events: [BridgeEvent] = []
    var onEvent: ((BridgeEvent) -> Void)?

    /// Starts recording `session`'s events (replacing its `onEvent`).
    func attach(to session: BridgeSession) {
        session.onEvent = { [weak self] event in
            self?.events.append(event)
            self?.onEvent?(event)
        }
    }

    /// Valid page → native messages of `kind`, in order.
    func messages(ofKind kind: String) -> [ValidatedMessage] {
        events.compactMap { event in
            if case .message(let message) = event, message.kind == kind { return message }
            return nil
        }
    }
}

/// A page posting `body` (a JS expression) in place of the fixture's ready, sentinels declared.
func fixturePosting(_ body: String) throws -> String {
    try FixtureVariant.replacingReady(
        with: Sentinel.declarations + "\nwindow.webkit.messageHandlers.bridge.postMessage(\(body));")
}

/// Runs one check per page, all at once, so pages that can only fail by timing out cost one timeout together.
@MainActor
func runChecksConcurrently(_ pages: [String], timeout: TimeInterval) async -> [SessionReport] {
    let checks = pages.map { page in
        let configuration = CheckConfiguration(page: .html(page, baseURL: nil), timeout: timeout)
        return Task { @MainActor in await BridgeCheck.run(configuration) }
    }
    var reports: [SessionReport] = []
    for check in checks { reports.append(await check.value) }
    return reports
}

/// Seconds since `start`, from the monotonic clock.
func secondsSince(_ start: DispatchTime) -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000_000
}

/// Redirects this process's stdout and stderr (the file descriptors, so C libraries are caught too) to a file.
///
/// The web process keeps the streams it was started with, so this sees what the UI side logs: WebBridge and the
/// engine's GLib warnings. What was captured is echoed afterwards, so nothing is hidden from the test log.
final class OutputCapture {
    private let path: String
    private let file: Int32
    private let savedOut: Int32
    private let savedErr: Int32
    private var finished = false

    init() {
        fflush(nil)
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-output-\(UUID().uuidString)").path
        file = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        savedOut = dup(1)
        savedErr = dup(2)
        dup2(file, 1)
        dup2(file, 2)
    }

    /// Restores the streams and returns what was written meanwhile.
    func finish() -> String {
        guard !finished else { return "" }
        finished = true
        fflush(nil)
        dup2(savedOut, 1)
        dup2(savedErr, 2)
        close(savedOut)
        close(savedErr)
        close(file)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: path)
        if !text.isEmpty { print(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
        return text
    }

    deinit { _ = finish() }
}
