import Foundation

/// The bench's command line: where to write, what to run, and how much.
struct BenchOptions {
    static let usage = """
        USAGE: webbridge-bench [--output FILE] [--webbridge PATH] [--peer-script PATH] [--python PATH] [--quick]

        Measures WebBridge against the raw WebKitGTK engine and against Selenium + WebKitWebDriver, prints a
        table and writes the figures as JSON (default .build/bench.json). Figures, not pass/fail: the exit
        code is 0 when every figure was measured, 1 when one could not be.

        OPTIONS:
          --output FILE        where to write the JSON (default: .build/bench.json)
          --webbridge PATH     the release `webbridge` to time (default: next to this executable)
          --peer-script PATH   the peer check (default: Benchmarks/peer/peer_check.py)
          --python PATH        the Python that has selenium (default: python3)
          --quick              smaller counts, for trying the bench out (figures not comparable)
          --only LIST          measure only these, comma-separated: contract, cold, peer, sessions, raw-sessions, suite,
                               burst, round-trips, pipelined (for profiling one of them)
          --timeout SECONDS    wait at most this long for any one event (default: 30; raise it under valgrind)
          --raw-recycle N      experiment: the raw loop replaces its web context and process every N sessions
          --trim-before-rss    experiment: malloc_trim(0) before each RSS reading (fragmentation vs leak)
          --side SIDE          with --only: webbridge or raw (default: both)
          --messages N         experiment: N messages a burst and N pipelined calls a round (default 50,000), for
                               profiling under valgrind (figures not comparable)
          --main-runloop       experiment: run the main RunLoop, as XCTest does, so GLib's events reach the main
                               thread through the watcher thread (one hop each) instead of GLib's own loop
        """

    var output = ".build/bench.json"
    var webbridge: String
    /// The engine's floor for the cold check (`Benchmarks/raw-cold-check`, C), built next to this executable.
    var rawColdCheck: String
    var peerScript: String
    var python = "python3"
    var quick = false
    /// Sections to run; empty means all.
    var only: Set<String> = []
    var side: String?
    /// Experiment: the raw loop replaces its context every this many sessions (0: never).
    var rawRecycle = 0

    static let sections: Set<String> = [
        "contract", "cold", "peer", "sessions", "raw-sessions", "burst", "round-trips", "pipelined", "suite",
    ]

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
    var burstCount: Int { messages ?? 50_000 }
    var roundTrips: Int { quick ? 300 : 2_000 }
    var pipelined: Int { messages ?? 50_000 }
    /// Experiment: messages per burst and calls per pipelined round (for profiling under valgrind).
    var messages: Int?
    var rounds: Int { quick ? 1 : 5 }
    /// Seconds to wait for any single event (a load, a burst, a process) before calling it failed.
    var timeout: Double = 30

    init(_ arguments: [String]) throws {
        let executable = URL(fileURLWithPath: arguments.first ?? "webbridge-bench").resolvingSymlinksInPath()
        webbridge = executable.deletingLastPathComponent().appendingPathComponent("webbridge").path
        rawColdCheck = executable.deletingLastPathComponent().appendingPathComponent("webbridge-raw-cold-check").path
        // The source tree's copy; `make bench` runs from the package root.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let relative = "Benchmarks/peer/peer_check.py"
        peerScript =
            FileManager.default.fileExists(atPath: relative)
            ? relative : packageRoot.appendingPathComponent(relative).path
        var rest = arguments.dropFirst()
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw BenchFailure("\(option) needs a value")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--output": output = try value(argument)
            case "--webbridge": webbridge = try value(argument)
            case "--peer-script": peerScript = try value(argument)
            case "--python": python = try value(argument)
            case "--quick": quick = true
            case "--only":
                only = Set(try value(argument).split(separator: ",").map(String.init))
                if let unknown = only.subtracting(Self.sections).first {
                    throw BenchFailure(
                        "--only: unknown section '\(unknown)'; known: \(Self.sections.sorted().joined(separator: ", "))"
                    )
                }
            case "--main-runloop":
                // Read by main.swift before the options are parsed.
                break
            case "--trim-before-rss":
                ResidentMemory.trimFirst = true
            case "--raw-recycle":
                guard let count = Int(try value(argument)), count > 0 else {
                    throw BenchFailure("--raw-recycle: a number of sessions > 0")
                }
                rawRecycle = count
            case "--timeout":
                guard let seconds = Double(try value(argument)), seconds > 0 else {
                    throw BenchFailure("--timeout: a number of seconds > 0")
                }
                timeout = seconds
            case "--messages":
                guard let count = Int(try value(argument)), count > 0 else {
                    throw BenchFailure("--messages: a number of messages > 0")
                }
                messages = count
            case "--side":
                let chosen = try value(argument)
                guard chosen == "webbridge" || chosen == "raw" else {
                    throw BenchFailure("--side: webbridge or raw, not '\(chosen)'")
                }
                side = chosen
            case "--help", "-h": throw HelpRequested()
            default: throw BenchFailure("unknown option '\(argument)'")
            }
        }
    }
}

/// `--help` was given: print the usage and exit 0.
struct HelpRequested: Error {}
