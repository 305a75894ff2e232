#if os(Linux)
import Foundation
import Glibc

/// A small process that outlives the check to end what the check paused: a check killed outright (SIGKILL, the
/// OOM killer, a CI job's hard kill) runs no exit handler, and a stopped web process never runs to notice that
/// its UI process is gone (it would stay stopped forever, reparented to init).
///
/// Started before the first pause, it reads one line per change from a pipe whose only writer is the check:
/// `S PID START` before a process is stopped, `C PID` once it is resumed (START is the process's start time, from
/// /proc, so a reused pid is never touched). When the pipe ends (the check exited, however), it ends each process
/// still listed as stopped, SIGKILL then SIGCONT, and exits. It runs `/bin/sh` in a process group of its own,
/// ignores the stop signals a terminal or a CI runner sends the check's group, and holds no file of the check's.
enum PauseWatchdog {
    /// The pipe's write end, close-on-exec; -1 until started (or when it could not start).
    nonisolated(unsafe) private static var writer: Int32 = -1
    nonisolated(unsafe) private static var tried = false

    static let script = """
        trap '' INT TERM HUP QUIT USR1 USR2 ALRM PIPE
        held=' '
        while read -r verb pid start; do
          case $verb in
            S) held="$held$pid:$start " ;;
            C) case $held in *" $pid:"*) after=${held#* $pid:}; held="${held%% $pid:*} ${after#* }" ;; esac ;;
          esac
        done
        for entry in $held; do
          pid=${entry%%:*}
          stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
          set -- ${stat##*) }
          [ "${20}" = "${entry#*:}" ] || continue
          kill -KILL "$pid" 2>/dev/null
          kill -CONT "$pid" 2>/dev/null
        done
        """

    /// Starts the watchdog once; false when it is not running (then nothing may be paused). Call under the
    /// paused processes' lock.
    static func start() -> Bool {
        if tried { return writer >= 0 }
        tried = true
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        // Close-on-exec: no web process the engine starts may hold the write end (the pipe would never end).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
            close(ends[0])
        }
        var status = posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        if status == 0 { status = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        if status == 0 { status = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // No other descriptor of the check (a socket to the engine would keep it from seeing the check end).
        if status == 0, let closeFrom = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
            status = withUnsafeMutablePointer(to: &actions) { unsafeBitCast(closeFrom, to: CloseFrom.self)($0, 3) }
        }
        if status == 0 { status = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)) }
        if status == 0 { status = posix_spawnattr_setpgroup(&attributes, 0) }
        let words: [String] = ["sh", "-c", script, "webbridge-pause-watchdog"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        if status == 0 { status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ) }
        guard status == 0 else {
            close(ends[1])
            return false
        }
        writer = ends[1]
        return true
    }

    /// Tells the watchdog that `pid` is about to be stopped; false when it cannot be protected (no watchdog, or
    /// the process is gone), and then it must not be stopped.
    static func willStop(_ pid: pid_t) -> Bool {
        guard start(), let started = startTime(pid) else { return false }
        return send("S \(pid) \(started)\n")
    }

    /// Tells the watchdog that `pid` runs again.
    static func resumed(_ pid: pid_t) { _ = send("C \(pid)\n") }

    private static func send(_ line: String) -> Bool {
        guard writer >= 0 else { return false }
        let bytes = Array(line.utf8)
        // Under PIPE_BUF bytes: one write, whole or not at all.
        while true {
            let written = write(writer, bytes, bytes.count)
            if written == bytes.count { return true }
            if written < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot.
    static func startTime(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
#endif
