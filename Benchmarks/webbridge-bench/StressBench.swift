import BridgeContract
import BridgeTesting
import Foundation

/// Stressed sessions in a warm process (`webbridge check --stress`): how many a second on a robust page, and how
/// long each race page of the tests takes to fail for the first time under the default seed.
@MainActor
enum StressBench {
    /// The race pages of the tests (Tests/BridgeTestingTests/Fixtures/Stress), read in place.
    nonisolated static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/BridgeTestingTests/Fixtures/Stress")

    /// Native answers `ready` instead of didFinish (the play of the late-script race).
    static let afterReady = CheckPlay(
        steps: [
            PlayStep(
                after: "ready", send: "sync", value: .object(["value": .string("ok")]),
                accepted: .observed(expression: CheckPlay.fixtureObservationPoint, equals: .string("ok")))
        ])

    /// The race pages whose time to the first failure is measured, with their play (nil: the fixture style).
    static let races: [(name: String, play: CheckPlay?)] = [
        ("receiver-after-load", nil), ("late-script", afterReady), ("page-deadline", nil),
        ("ready-once-per-window", nil),
    ]

    static func configuration(_ name: String, play: CheckPlay?, timeout: Double) throws -> CheckConfiguration {
        let url = folder.appendingPathComponent("\(name).html")
        guard let html = try? String(contentsOf: url, encoding: .utf8) else {
            throw BenchFailure("the race page \(url.path) can't be read: run the bench from the repository")
        }
        return CheckConfiguration(page: .html(html, baseURL: folder), timeout: timeout, play: play)
    }

    /// `stress_sessions_per_s` over `sessions` stressed sessions of the robust twin (every one must pass), and
    /// `stress_first_failure_s_<race>` for each race page (shrinking off; it must fail within 200 sessions).
    static func run(sessions: Int, into report: inout BenchReport) async throws {
        let twin = try configuration("receiver-before-ready", play: nil, timeout: 2)
        let clock = Stopwatch()
        let verdict = await StressRun.run(twin, options: StressOptions(sessions: sessions, shrinkBudget: 0))
        let seconds = clock.milliseconds / 1000
        guard verdict.passed else {
            throw BenchFailure("the robust page failed \(verdict.failed) of \(sessions) stressed sessions")
        }
        report["stress_sessions_per_s"] = Double(sessions) / seconds
        for race in races {
            let configuration = try configuration(race.name, play: race.play, timeout: 2)
            let started = Stopwatch()
            var failedAt: Double?
            var ran = 0
            _ = await StressRun.run(
                configuration, options: StressOptions(sessions: 200, shrinkBudget: 0),
                record: { session in
                    ran += 1
                    if failedAt == nil, !session.passed { failedAt = started.milliseconds / 1000 }
                }, shouldStop: { failedAt != nil })
            guard let failedAt else { throw BenchFailure("\(race.name) did not fail in 200 stressed sessions") }
            report["stress_first_failure_s_\(race.name.replacingOccurrences(of: "-", with: "_"))"] = failedAt
            report.details["stress_first_failure_session_\(race.name)"] = ran
        }
    }

    /// The table's lines: the robust page's rate, then each race page's time to its first failure.
    nonisolated static func rows(_ report: BenchReport) -> [String] {
        func cell(_ key: String, _ digits: Int) -> String {
            report[key].map { String(format: "%.\(digits)f", $0) } ?? "—"
        }
        let races = ["receiver-after-load", "late-script", "page-deadline", "ready-once-per-window"].map { name in
            "\(name) \(cell("stress_first_failure_s_\(name.replacingOccurrences(of: "-", with: "_"))", 2))"
        }
        return [
            "stressed sessions/s (robust page)       \(cell("stress_sessions_per_s", 1))",
            "  first failure s: " + races.joined(separator: ", "),
        ]
    }
}
