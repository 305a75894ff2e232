import CommandLineOptions
import Foundation

/// The bench's command line: where to write, what to run, and how much.
struct BenchOptions {
    static let sections = [
        "contract", "cold", "peer", "sessions", "raw-sessions", "suite", "stress", "burst", "round-trips", "pipelined",
    ]

    static let options = OptionTable(
        command: "webbridge-bench",
        options: [
            .value("--output", "FILE", "where to write the JSON", default: .value(".build/bench.json")),
            .value(
                "--webbridge", "PATH", "the release `webbridge` to time", default: .described("next to this executable")
            ),
            .value("--peer-script", "PATH", "the peer check", default: .described("Benchmarks/peer/peer_check.py")),
            .value("--python", "PATH", "the Python that has selenium", default: .value("python3")),
            .flag("--quick", "smaller counts, for trying the bench out (figures not comparable)"),
            .value("--only", "LIST", "measure only these (for profiling one of them)", rule: .list(sections)),
            .value(
                "--timeout", "SECONDS", "wait at most this long for any one event; raise it under valgrind",
                rule: .seconds(maximum: 86_400), default: .value("30")),
            .value(
                "--raw-recycle", "N", "experiment: the raw loop replaces its web context and process every N sessions",
                rule: .integer(1...1_000_000_000)),
            .flag("--trim-before-rss", "experiment: malloc_trim(0) before each RSS reading (fragmentation vs leak)"),
            .value(
                "--side", "SIDE", "with --only: one side", rule: .choice(["webbridge", "raw"]),
                default: .described("both")),
            .value(
                "--messages", "N",
                "experiment: N messages a burst and N pipelined calls a round, for profiling under valgrind (figures "
                    + "not comparable)",
                rule: .integer(1...1_000_000_000), default: .value("50000")),
            .flag(
                "--main-runloop",
                "experiment: run the main RunLoop, as XCTest does, so GLib's events reach the main thread through the "
                    + "watcher thread (one hop each) instead of GLib's own loop"),
        ])

    static let usage = options.help(
        """
        Measures WebBridge against the raw WebKitGTK engine and against Selenium + WebKitWebDriver, prints a
        table and writes the figures as JSON. Figures, not pass/fail: the exit code is 0 when every figure was
        measured, 1 when one could not be; 2 for a wrong command line.
        """)

    var output: String
    var webbridge: String
    /// The engine's floor for the cold check (`Benchmarks/raw-cold-check`, C), built next to this executable.
    var rawColdCheck: String
    var peerScript: String
    var python: String
    var quick: Bool
    /// Sections to run; empty means all.
    var only: Set<String> = []
    var side: String?
    /// Experiment: the raw loop replaces its context every this many sessions (0: never).
    var rawRecycle: Int
    /// Experiment: `malloc_trim(0)` before each RSS reading.
    var trimBeforeRSS: Bool
    /// Experiment: run the main RunLoop instead of GLib's loop.
    var mainRunLoop: Bool

    /// Whether `section` runs on `side` ("webbridge" or "raw"; nil for sections with one side).
    func runs(_ section: String, side: String? = nil) -> Bool {
        (only.isEmpty || only.contains(section)) && (side == nil || self.side == nil || self.side == side)
    }

    var coldRuns: Int { quick ? 2 : 5 }
    var peerRuns: Int { quick ? 1 : 5 }
    var sessionsTotal: Int { quick ? 60 : 500 }
    var sessionsWarmUp: Int { quick ? 10 : 50 }
    var sessionsTimed: Int { quick ? 40 : 200 }
    var rssFrom: Int { quick ? 10 : 50 }
    var rawSessions: Int { quick ? 20 : 200 }
    /// WebBridge and raw sessions taken in turn, for the session ratio.
    var interleavedPairs: Int { quick ? 20 : 400 }
    /// Long enough that the engine's own pauses (its garbage collector, say) land in every round: 10,000 gave
    /// rounds from 0.3 to 2.5 times the other side's.
    var burstCount: Int { messages }
    var roundTrips: Int { quick ? 300 : 2_000 }
    var pipelined: Int { messages }
    /// Messages per burst and calls per pipelined round (fewer for profiling under valgrind).
    var messages: Int
    var rounds: Int { quick ? 1 : 5 }
    /// Seconds to wait for any single event (a load, a burst, a process) before calling it failed.
    var timeout: Double

    /// The options the table read; `executable` is this program's path (`CommandLine.arguments[0]`).
    init(_ parsed: ParsedOptions, executable: String) {
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        webbridge = executable.deletingLastPathComponent().appendingPathComponent("webbridge").path
        rawColdCheck = executable.deletingLastPathComponent().appendingPathComponent("webbridge-raw-cold-check").path
        // The source tree's copy; `make bench` runs from the package root.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let relative = "Benchmarks/peer/peer_check.py"
        peerScript =
            FileManager.default.fileExists(atPath: relative)
            ? relative : packageRoot.appendingPathComponent(relative).path
        // The table checked every value; these have defaults in it.
        output = parsed.value("--output")!
        python = parsed.value("--python")!
        timeout = parsed.seconds("--timeout")!
        messages = parsed.integer("--messages")!
        webbridge = parsed.value("--webbridge") ?? webbridge
        peerScript = parsed.value("--peer-script") ?? peerScript
        quick = parsed.has("--quick")
        only = Set(parsed.list("--only"))
        side = parsed.value("--side")
        rawRecycle = parsed.integer("--raw-recycle") ?? 0
        trimBeforeRSS = parsed.has("--trim-before-rss")
        mainRunLoop = parsed.has("--main-runloop")
    }
}
