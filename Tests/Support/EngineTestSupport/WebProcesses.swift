#if os(Linux)
import CWebKitGTK
import Foundation
import WebKitGTK
import WebKitGTKHost

/// The engine's web processes started by this process (WebKitGTK may start them through a sandbox launcher).
public enum WebProcesses {
    /// Process ids of `WebKitWebProcess` descendants of this process, read from /proc.
    public static func descendants() -> [pid_t] { descendants(named: ["WebKitWebProces"]) }

    /// Process ids of descendants of this process whose command name starts with one of `prefixes`.
    public static func descendants(named prefixes: [String]) -> [pid_t] {
        EngineProcesses.descendants(of: getpid(), named: prefixes)
    }

    /// Process ids of descendants of `root` (another process, such as a `webbridge` a test runs) by name prefix.
    public static func descendants(of root: pid_t, named prefixes: [String]) -> [pid_t] {
        EngineProcesses.descendants(of: root, named: prefixes)
    }

    /// Kills every web process of this process with SIGKILL, as a crash would; returns how many it signalled.
    @discardableResult
    public static func killAll() -> Int {
        let pids = descendants()
        for pid in pids { kill(pid, SIGKILL) }
        return pids.count
    }

    /// Process ids of every process (of any parent) whose environment holds `name=value`: how a test finds what
    /// a child it ran left behind, after the child itself has exited.
    public static func carrying(_ name: String, _ value: String) -> [pid_t] {
        let entry = Array("\(name)=\(value)".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { item in
            guard let pid = pid_t(item), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(item)/environ")
            else { return nil }
            return environ.split(separator: 0).contains { Array($0) == entry } ? pid : nil
        }
    }

    /// The state /proc shows for `pid` (`T` for stopped, `S` sleeping, …), nil when it is gone.
    public static func state(_ pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)]
    }

    /// Waits until one of the processes `candidates` lists is in `state`, looking every 10 ms (a process's stop
    /// is no event another process can wait on) for at most `timeout` seconds; returns those in it, or [].
    public static func waitForState(
        _ state: Character, of candidates: () -> [pid_t], timeout: TimeInterval
    ) -> [pid_t] {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let matching = candidates().filter { self.state($0) == state }
            if !matching.isEmpty { return matching }
            usleep(10_000)
        } while Date() < deadline
        return []
    }

    /// Waits for the exit of each of `pids` (a pidfd event, no polling of /proc), for at most `timeout` seconds in
    /// all; returns the pids still running at the deadline.
    public static func waitForExit(of pids: [pid_t], timeout: TimeInterval) -> [pid_t] {
        let deadline = Date().addingTimeInterval(timeout)
        var running: [pid_t] = []
        for pid in pids {
            let fd = cwk_pidfd_open(pid)
            guard fd >= 0 else { continue }  // already gone
            defer { close(fd) }
            var ready: Int32 = -1
            repeat {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                ready = poll(&entry, 1, Int32(max(0, deadline.timeIntervalSinceNow * 1000)))
            } while ready < 0 && errno == EINTR
            if ready <= 0 { running.append(pid) }
        }
        return running
    }

    /// CPU seconds (user + system) this process has used.
    public static func cpuSecondsOfThisProcess() -> Double { cpuSeconds(of: getpid()) ?? 0 }

    /// CPU seconds (user + system) all of `pid`'s threads have used, from /proc; nil when it cannot be read.
    public static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
#endif
