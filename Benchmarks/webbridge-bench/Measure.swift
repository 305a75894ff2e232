import Foundation

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
import WebKitGTKSupport
#endif

/// A monotonic stopwatch in seconds; `DispatchTime` never jumps with the wall clock.
struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    var milliseconds: Double { seconds * 1000 }
}

/// Wall time and the CPU time of the thread that started it (the main thread, where every engine callback and
/// all of WebBridge's work runs): a side whose main thread is busy nearly all the wall time is bound by its own
/// work; one that is not is waiting on the web process.
struct CPUStopwatch {
    private let wall = Stopwatch()
    private let start = CPUStopwatch.threadSeconds()

    /// Read on the thread that started it.
    var reading: (seconds: Double, mainThreadSeconds: Double) { (wall.seconds, Self.threadSeconds() - start) }

    private static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Order statistics over samples; nil when there are none.
enum Statistics {
    /// The nearest-rank percentile (`p` in 0...100) of `samples`.
    static func percentile(_ samples: [Double], _ p: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ samples: [Double]) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Resident memory of a process, read from `/proc` (Linux).
enum ResidentMemory {
    /// Experiment: return freed heap to the system before each reading, to tell a leak from fragmentation.
    nonisolated(unsafe) static var trimFirst = false

    /// The `VmRSS` of `pid` (default: this process) in MiB, or nil where `/proc` does not tell it.
    static func megabytes(pid: String = "self") -> Double? {
        #if os(Linux)
        // malloc.h is not part of the Glibc module: look the function up.
        if trimFirst, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        #endif
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Double(fields[1]) { return kilobytes / 1024 }
        }
        return nil
    }
}

/// A failed measurement: what did not happen, within which timeout.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A one-shot event to wait for on the main actor, with a timeout (for completions outside a session's events).
@MainActor
final class Occurrence {
    private(set) var happened = false
    private var continuation: CheckedContinuation<Bool, Never>?

    /// Marks the event as happened and wakes the waiter.
    func signal() {
        happened = true
        continuation?.resume(returning: true)
        continuation = nil
    }

    /// Waits until `signal()` or `timeout` seconds; returns whether the event happened.
    func wait(timeout: Double) async -> Bool {
        if happened { return true }
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
            DispatchQueue.main.asyncAfter(deadline: .now() + timeout) {
                MainActor.assumeIsolated {
                    // Whoever takes the continuation resumes it, so it is resumed exactly once.
                    guard let waiting = self.continuation else { return }
                    self.continuation = nil
                    waiting.resume(returning: self.happened)
                }
            }
        }
    }
}

/// CPU seconds, to tell which process a session's time went to: this process (all threads), its main thread, and
/// the engine's processes (the web and network processes this process started), read with each process's own
/// CPU clock (nanoseconds; `/proc`'s ticks are 10 ms, half a session).
struct CPUShares {
    var process = 0.0
    var mainThread = 0.0
    var engine = 0.0

    static func - (a: CPUShares, b: CPUShares) -> CPUShares {
        CPUShares(process: a.process - b.process, mainThread: a.mainThread - b.mainThread, engine: a.engine - b.engine)
    }

    static func + (a: CPUShares, b: CPUShares) -> CPUShares {
        CPUShares(process: a.process + b.process, mainThread: a.mainThread + b.mainThread, engine: a.engine + b.engine)
    }

    /// Read now.
    static func now() -> CPUShares {
        var shares = CPUShares(
            process: seconds(CLOCK_PROCESS_CPUTIME_ID) ?? 0, mainThread: seconds(CLOCK_THREAD_CPUTIME_ID) ?? 0)
        #if os(Linux)
        // The engine's processes are found once, and again whenever one of them has gone (its clock no longer reads).
        if let engine = engineSeconds() {
            shares.engine = engine
        } else {
            engineProcesses = WebKitGTKEnvironment.processes()
            shares.engine = engineSeconds() ?? 0
        }
        #endif
        return shares
    }

    /// Finds the engine's processes again now, outside any measured span: a section run before may have replaced
    /// one (a new anchor) while the old one lives on, and a stale list would count the wrong process.
    static func refreshProcesses() {
        #if os(Linux)
        engineProcesses = WebKitGTKEnvironment.processes()
        #endif
    }

    #if os(Linux)
    nonisolated(unsafe) private static var engineProcesses: [pid_t] = []

    /// The engine's processes' CPU seconds; nil when none is known or one of them has gone.
    private static func engineSeconds() -> Double? {
        guard !engineProcesses.isEmpty else { return nil }
        var total = 0.0
        for pid in engineProcesses {
            var clock = clockid_t()
            guard clock_getcpuclockid(pid, &clock) == 0, let value = seconds(clock) else { return nil }
            total += value
        }
        return total
    }
    #endif

    private static func seconds(_ clock: clockid_t) -> Double? {
        var now = timespec()
        guard clock_gettime(clock, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
