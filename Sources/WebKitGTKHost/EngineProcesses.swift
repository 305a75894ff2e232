#if os(Linux)
import Foundation
import Glibc

/// The engine's helper processes (web and network processes) started by this process, found through /proc.
///
/// A web process stuck in a script does not notice that its UI process went away, so at exit every engine
/// process this process started is killed: nothing the engine started outlives the tool.
package enum EngineProcesses {
    /// Command names as /proc shows them (cut to 15 characters).
    static let names = ["WebKitWebProces", "WebKitNetworkPr", "WebKitGPUProces"]

    private nonisolated(unsafe) static var registered = false

    /// Registers the exit handler once.
    @MainActor
    package static func stopAtExit() {
        guard !registered else { return }
        registered = true
        registerExitHandler()
    }

    /// Nonisolated: a handler declared on the main actor would trap when `exit` runs on another thread
    /// (Swift Testing ends its run from one).
    private nonisolated static func registerExitHandler() {
        atexit { _ = EngineProcesses.killAll() }
    }

    /// Pids of engine processes descended from this process.
    package static func descendants() -> [pid_t] { descendants(of: getpid(), named: names) }

    /// Pids of the web processes descended from this process.
    package static func webProcesses() -> [pid_t] { descendants(of: getpid(), named: [names[0]]) }

    /// Pids of the processes descended from `root` whose command name (as /proc shows it, cut to 15 characters)
    /// starts with one of `prefixes`.
    package static func descendants(of root: pid_t, named prefixes: [String]) -> [pid_t] {
        var parent: [pid_t: pid_t] = [:]
        var command: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            command[pid] = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if fields.count > 1, let ppid = pid_t(fields[1]) { parent[pid] = ppid }
        }
        return command.compactMap { pid, name in
            guard prefixes.contains(where: { name.hasPrefix($0) }) else { return nil }
            var ancestor = parent[pid]
            while let current = ancestor, current > 1 {
                if current == root { return pid }
                ancestor = parent[current]
            }
            return nil
        }
    }

    /// Kills every engine process of this process; returns how many were signalled.
    @discardableResult
    package static func killAll() -> Int {
        let pids = descendants()
        for pid in pids { kill(pid, SIGKILL) }
        return pids.count
    }
}
#endif
