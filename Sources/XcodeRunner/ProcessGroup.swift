import Foundation

/// A tool started as the leader of its own process group, so that it and every child it starts can be stopped.
///
/// xcodebuild starts children (the build service, test runners) that share its output; stopping only its pid
/// leaves them running and holding the pipe open. Plain POSIX calls are used because `Process` can't put the
/// child in a new group, and the same code runs on macOS and Linux.
struct ProcessGroup {
    /// The leader's pid, which is also the group id.
    let pid: pid_t

    /// Starts `executable` with `argv`, stdout on `output` and stderr on `errorOutput` (by default `output` too),
    /// stdin on /dev/null, in a new group; nil if it can't.
    static func spawn(
        _ executable: URL, argv: [String], environment: [String: String], folder: URL?, output: Int32,
        errorOutput: Int32? = nil
    ) -> ProcessGroup? {
        // The pointee types differ (a pointer on Darwin, a struct on Glibc): each is inferred from its init function.
        guard let actions = initialized(posix_spawn_file_actions_init) else { return nil }
        defer {
            posix_spawn_file_actions_destroy(actions)
            actions.deallocate()
        }
        guard let attributes = initialized(posix_spawnattr_init) else { return nil }
        defer {
            posix_spawnattr_destroy(attributes)
            attributes.deallocate()
        }
        let signals = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        defer { signals.deallocate() }
        var status = posix_spawn_file_actions_adddup2(actions, output, 1)
        if status == 0 { status = posix_spawn_file_actions_adddup2(actions, errorOutput ?? output, 2) }
        if status == 0 { status = posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0) }
        if status == 0, let folder { status = addChdir(actions, folder.path) }
        // Its own group (pgid = its pid); the default action for every signal webbridge stops on (and SIGPIPE),
        // and no blocked signals, whatever ours are.
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if status == 0 { status = posix_spawnattr_setflags(attributes, Int16(flags)) }
        if status == 0 { status = posix_spawnattr_setpgroup(attributes, 0) }
        sigemptyset(signals)
        for number in SignalRelay.caught + [SIGPIPE] { sigaddset(signals, number) }
        if status == 0 { status = posix_spawnattr_setsigdefault(attributes, signals) }
        sigemptyset(signals)
        if status == 0 { status = posix_spawnattr_setsigmask(attributes, signals) }
        guard status == 0 else { return nil }
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgv + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        status = posix_spawn(&pid, executable.path, actions, attributes, cArgv, cEnvironment)
        return status == 0 ? ProcessGroup(pid: pid) : nil
    }

    /// Memory for a C object that `initialize` sets up; nil (and freed) when it fails.
    private static func initialized<T>(_ initialize: (UnsafeMutablePointer<T>) -> Int32) -> UnsafeMutablePointer<T>? {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        guard initialize(pointer) == 0 else {
            pointer.deallocate()
            return nil
        }
        return pointer
    }

    /// `posix_spawn_file_actions_addchdir_np` (macOS 10.15+, glibc 2.29+), looked up because Glibc's Swift
    /// module does not export it.
    private static func addChdir<T>(_ actions: UnsafeMutablePointer<T>, _ path: String) -> Int32 {
        typealias AddChdir = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddChdir.self)(UnsafeMutableRawPointer(actions), path)
    }

    /// Sends `signal` to every process of the group.
    func signal(_ number: Int32) { kill(-pid, number) }

    /// Waits for the leader to exit; its exit code, or 128 + the signal that ended it (as a shell reports it).
    func waitForLeader() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return 128 + SIGKILL }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// The names of the signals webbridge forwards, for messages and manifests.
public enum SignalName {
    public static func of(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        case SIGKILL: return "SIGKILL"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGALRM: return "SIGALRM"
        default: return "signal \(number)"
        }
    }
}

/// The signals that would end webbridge while a tool runs, caught and written as one byte each to a pipe the run
/// loop polls: SIGINT and SIGTERM (Ctrl-C, a cancelled CI job), SIGHUP (a dropped ssh session to the cloud Mac),
/// SIGQUIT (Ctrl-\, which would otherwise print a crash backtrace), SIGUSR1, SIGUSR2 and SIGALRM (whose default
/// action ends a process). Each stops the tool's group, so none leaves xcodebuild running without its manifest.
///
/// A C signal handler can only do async-signal-safe work, so it keeps the first signal in `received` and writes
/// the signal number to `wakeFD` (none between tools), and the run loop decides what to do. Only one tool runs at
/// a time (runs are sequential). A job holds the handlers from before its preflight until webbridge exits (see
/// ``XcodeJob/holdStopSignals()``), so a signal between tools stops the job before its next tool.
enum SignalRelay {
    nonisolated(unsafe) static var wakeFD: Int32 = -1
    /// The first stop signal since the job began holding them (0 until one arrives).
    nonisolated(unsafe) static var received: Int32 = 0

    /// The stop signal received, if any: the job runs no further tool.
    static var stopped: Int32? { received == 0 ? nil : received }

    /// Tells a tool's run loop, through its new `fd`, of a signal that arrived before its handlers were installed.
    static func replay(to fd: Int32) {
        guard received != 0 else { return }
        var byte = UInt8(truncatingIfNeeded: received)
        _ = write(fd, &byte, 1)
    }

    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

    /// What the tool's group is sent for `received`: SIGINT as itself (xcodebuild cancels on it), every other
    /// stop signal as SIGTERM (xcodebuild cancels and writes what it has; SIGQUIT would make it dump core).
    static func forwarded(_ received: Int32) -> Int32 { received == SIGINT ? SIGINT : SIGTERM }

    /// Installs the handlers; the returned closure puts the previous ones back whole (flags and mask too).
    ///
    /// `sigaction`, not `signal`: a previous handler that takes the signal's details (SA_SIGINFO, as the engine's
    /// SIGUSR1 guard in a process that also runs WebKit) would come back from `signal` without that flag and be
    /// called with none, ending the process on the engine's own next SIGUSR1.
    static func install(wakeFD fd: Int32) -> () -> Void {
        wakeFD = fd
        var relay = sigaction()
        #if canImport(Darwin)
        relay.__sigaction_u.__sa_handler = { received in
            if SignalRelay.received == 0 { SignalRelay.received = received }
            var byte = UInt8(truncatingIfNeeded: received)
            _ = write(SignalRelay.wakeFD, &byte, 1)
        }
        #else
        relay.__sigaction_handler.sa_handler = { received in
            if SignalRelay.received == 0 { SignalRelay.received = received }
            var byte = UInt8(truncatingIfNeeded: received)
            _ = write(SignalRelay.wakeFD, &byte, 1)
        }
        #endif
        sigemptyset(&relay.sa_mask)
        let previous = caught.map { number in
            var old = sigaction()
            sigaction(number, &relay, &old)
            return old
        }
        return {
            for (number, handler) in zip(caught, previous) {
                var handler = handler
                sigaction(number, &handler, nil)
            }
            wakeFD = -1
        }
    }
}

extension XcodeJob {
    /// Catches the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM) from now until the
    /// process exits, between tools as well as while one runs: a signal during preflight or between runs stops
    /// the tool then running (its group gets SIGTERM, SIGINT as itself) and `test` runs nothing further, returning
    /// `.interrupted`. The command line holds them until it exits; the returned closure puts the previous handlers
    /// back and forgets the signal.
    /// The first stop signal received since ``holdStopSignals()``, if any.
    public static var stopSignal: Int32? { SignalRelay.stopped }

    @discardableResult public static func holdStopSignals() -> () -> Void {
        SignalRelay.received = 0
        let restore = SignalRelay.install(wakeFD: -1)
        return {
            restore()
            SignalRelay.received = 0
        }
    }
}
