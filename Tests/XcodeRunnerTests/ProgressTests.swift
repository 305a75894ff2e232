import Foundation
import XCTest

@testable import XcodeRunner

final class ProgressTests: XCTestCase {
    func track(_ name: String) throws -> ProgressTracker {
        var tracker = ProgressTracker()
        // Feed in uneven chunks, as a pipe delivers them.
        let data = try Realdata.data("xcodebuild/" + name) + Data("\n".utf8)
        var index = data.startIndex
        while index < data.endIndex {
            let end = data.index(index, offsetBy: 97, limitedBy: data.endIndex) ?? data.endIndex
            _ = tracker.consume(data[index..<end])
            index = end
        }
        return tracker
    }

    func testAPassingXcode26LogCountsItsTestsAndFindsTheBundle() throws {
        let tracker = try track("verbum_xcode26.4_test-succeeded_sim-id.txt")
        XCTAssertEqual(tracker.line, "testing: 4 passed, 0 failed")
        XCTAssertEqual(tracker.announcedResultBundle?.hasSuffix("Test-Verbum-2026.04.23_09-05-45-+0300.xcresult"), true)
    }

    func testXcode26ParallelFailuresOnClonesAreCounted() throws {
        XCTAssertEqual(try track("fastlane_xcode26_testing_failure.log").line, "testing: 0 passed, 2 failed")
    }

    func testXCTestAndSwiftTestingLinesAreBothCounted() throws {
        // 3 XCTest passes + 1 failure, then Swift Testing: 1 pass + 1 failure.
        XCTAssertEqual(
            try track("xcbeautify_MixedTestLog_XCTest_plus_SwiftTesting.txt").line, "testing: 4 passed, 2 failed")
    }

    /// Seconds to feed one line of `megabytes` MB, then a test result, in the pipe's 64 KiB chunks (the best of
    /// two runs, so a busy machine's pause counts less).
    func secondsForOneLine(megabytes: Int) -> Double {
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 65_536)
        let result = Data("\nTest Case '-[AppTests testLaunch]' passed (0.001 seconds).\n".utf8)
        var best = Double.infinity
        for _ in 0..<2 {
            var tracker = ProgressTracker()
            let start = DispatchTime.now()
            for _ in 0..<(megabytes * 16) { _ = tracker.consume(chunk) }
            _ = tracker.consume(result)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
            XCTAssertEqual(tracker.line, "testing: 1 passed, 0 failed", "the line after the long one was lost")
        }
        return best
    }

    func testOneLongLineTakesTimeInProportionToItsLength() {
        // A quadratic scan takes 4 times as long for twice the line (8 MB: 10.5 s, 16 MB: 41 s); a linear one 2.
        let eight = secondsForOneLine(megabytes: 8)
        let sixteen = secondsForOneLine(megabytes: 16)
        XCTAssertLessThan(
            sixteen / max(eight, 1e-3), 3, "16 MB took \(sixteen) s against \(eight) s for 8 MB: not linear")
    }

    func testACompileErrorNeverLeavesBuilding() throws {
        XCTAssertEqual(try track("openbakery_xcodebuild-test-compile-error.txt").line, "building")
    }

    func testASwiftTestingMarkSplitAcrossChunksIsStillCounted() {
        // "✔" is three UTF-8 bytes; a pipe may deliver them in two reads.
        let line = Data("✔ Test testTrueIsTrue() passed after 0.001 seconds.\n".utf8)
        var tracker = ProgressTracker()
        _ = tracker.consume(line.prefix(1))
        _ = tracker.consume(line.dropFirst(1))
        XCTAssertEqual(tracker.line, "testing: 1 passed, 0 failed")
    }
}
