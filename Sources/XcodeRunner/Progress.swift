import Foundation

/// Follows xcodebuild's output to show one progress line: building, testing, N passed / M failed.
public struct ProgressTracker: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable {
        case building, testing
    }

    public private(set) var phase: Phase = .building
    public private(set) var passed = 0
    public private(set) var failed = 0
    /// The `.xcresult` path xcodebuild announced, if any.
    public private(set) var announcedResultBundle: String?
    private var expectBundlePath = false
    /// Bytes of an unfinished line; kept as bytes so a character split across chunks stays whole.
    private var pending = Data()

    public init() {}

    /// The progress line as the user sees it.
    public var line: String {
        phase == .building ? "building" : "testing: \(passed) passed, \(failed) failed"
    }

    /// Feeds a chunk of output; returns true when the progress line changed.
    public mutating func consume(_ chunk: Data) -> Bool {
        let before = line
        // Only the new bytes are searched for a line end: searching all of an unfinished line again on every chunk
        // made one long line quadratic (16 MB: 41 s).
        var searchFrom = pending.count
        pending.append(chunk)
        var lineStart = 0
        while let newline = pending[(pending.startIndex + searchFrom)...].firstIndex(of: UInt8(ascii: "\n")) {
            let offset = newline - pending.startIndex
            consume(line: String(decoding: pending[(pending.startIndex + lineStart)..<newline], as: UTF8.self))
            lineStart = offset + 1
            searchFrom = lineStart
        }
        if lineStart > 0 { pending = Data(pending.dropFirst(lineStart)) }
        return line != before
    }

    /// Feeds one output line.
    public mutating func consume(line text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if expectBundlePath, trimmed.hasSuffix(".xcresult") {
            announcedResultBundle = trimmed
            expectBundlePath = false
        }
        if trimmed.hasPrefix("Test session results") { expectBundlePath = true }
        if trimmed.hasPrefix("Testing started") || trimmed.hasPrefix("Test Suite '")
            || trimmed.hasPrefix("Test suite '")
            || trimmed.hasPrefix("◇ Test run started")
        {
            phase = .testing
        }
        // XCTest prints "Test Case '-[…]' passed (…)"; Xcode 26 "Test case '…' passed on '…'"; Swift Testing "✔ Test … passed".
        let isCase = trimmed.hasPrefix("Test Case '") || trimmed.hasPrefix("Test case '")
        if isCase, let close = trimmed.dropFirst("Test Case '".count).range(of: "' ") {
            let verdict = trimmed[close.upperBound...]
            if verdict.hasPrefix("passed") { passed += 1; phase = .testing }
            if verdict.hasPrefix("failed") { failed += 1; phase = .testing }
        } else if trimmed.hasPrefix("✔ Test ") && !trimmed.hasPrefix("✔ Test run") && trimmed.contains(" passed") {
            passed += 1
            phase = .testing
        } else if trimmed.hasPrefix("✘ Test ") && !trimmed.hasPrefix("✘ Test run") && trimmed.contains(" failed after")
        {
            failed += 1
            phase = .testing
        }
    }
}
