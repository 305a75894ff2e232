import Foundation

/// What a finished tool printed and how it exited.
public struct ToolOutput: Sendable, Equatable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Finds and runs Apple's command-line tools as argv (never through a shell).
public struct ToolRunner: Sendable {
    /// The environment whose `PATH` is searched and which the tools inherit.
    public let environment: [String: String]
    /// Seconds between SIGTERM and SIGKILL when a streamed run is stopped.
    public let stopGrace: TimeInterval
    /// Seconds a streamed run's output is still read after the tool exited (a child may hold it).
    public let drainGrace: TimeInterval

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, stopGrace: TimeInterval = 30,
        drainGrace: TimeInterval = 5
    ) {
        self.environment = environment
        self.stopGrace = stopGrace
        self.drainGrace = drainGrace
    }

    /// The executable named `tool` on `PATH`, or nil (as on Linux, where `xcrun` and `xcodebuild` don't exist).
    public func locate(_ tool: String) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(tool)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Whether the Mac tools are present.
    public var hasMacTools: Bool { locate("xcrun") != nil && locate("xcodebuild") != nil }

    func missing(_ tool: String) -> XcodeRunnerError {
        XcodeRunnerError(
            .toolMissing, field: tool, rule: "\(tool) is not on PATH (it exists only on a Mac with Xcode)",
            remedy:
                "run this on the cloud Mac, or select Xcode with 'sudo xcode-select -s /Applications/Xcode_<version>.app'"
        )
    }

    /// Runs `tool arguments…` to completion and captures both streams, stopping it after `timeout` seconds.
    ///
    /// The bound matters on a cloud Mac: `simctl` hangs when the CoreSimulator service is wedged.
    public func capture(
        _ tool: String, _ arguments: [String], in folder: URL? = nil, timeout: TimeInterval = 300
    ) throws(XcodeRunnerError) -> ToolOutput {
        guard let executable = locate(tool) else { throw missing(tool) }
        // The wake pipe first, closed by its defer whatever fails next; its spare pair is not needed.
        let (wake, spare) = try Self.pipePair(for: tool)
        defer { for fd in wake { close(fd) } }
        for fd in spare { close(fd) }
        let (out, err) = try Self.pipePair(for: tool)
        _ = fcntl(wake[1], F_SETFL, O_NONBLOCK)
        let restoreSignals = SignalRelay.install(wakeFD: wake[1])
        defer { restoreSignals() }
        SignalRelay.replay(to: wake[1])
        // Its own group, as for a streamed run: a tool that ignores SIGTERM is killed with its children.
        let spawned = ProcessGroup.spawn(
            executable, argv: [executable.path] + arguments, environment: environment, folder: folder,
            output: out[1], errorOutput: err[1])
        close(out[1])
        close(err[1])
        guard let group = spawned else {
            close(out[0])
            close(err[0])
            throw XcodeRunnerError(
                .toolFailed, field: tool, rule: "could not start", remedy: "check that \(tool) is executable")
        }
        // Drain both pipes on other threads so neither can fill up and block the tool.
        let outData = DataBox()
        let errData = DataBox()
        let drained = DispatchGroup()
        for (fd, box) in [(out[0], outData), (err[0], errData)] {
            DispatchQueue.global().async(group: drained) {
                box.value = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
            }
        }
        let exitStatus = StatusBox()
        let exited = DispatchSemaphore(value: 0)
        Thread {
            exitStatus.value = group.waitForLeader()
            exited.signal()
        }.start()
        let relayed = relayStopSignals(from: wake[0], to: group)
        defer {
            // Byte 0 (no signal's number) ends the relay once the tool is done.
            var done: UInt8 = 0
            _ = write(wake[1], &done, 1)
            relayed.wait()
        }
        func seconds(_ value: TimeInterval) -> DispatchTime { .now() + min(max(0, value), Self.longestTimeout) }
        if exited.wait(timeout: seconds(timeout)) == .timedOut {
            group.signal(SIGTERM)
            if exited.wait(timeout: seconds(stopGrace)) == .timedOut {
                group.signal(SIGKILL)
                exited.wait()
            }
            group.signal(SIGKILL)
            _ = drained.wait(timeout: .now() + 5)
            throw XcodeRunnerError(
                .toolFailed, field: ([tool] + arguments.prefix(3)).joined(separator: " "),
                rule: "did not finish within \(String(format: "%g", timeout)) s and was stopped",
                remedy:
                    "run it by hand; for simctl, 'sudo killall -9 com.apple.CoreSimulator.CoreSimulatorService' restarts the service"
            )
        }
        // Once the tool has exited, its pipes close unless a child of it holds them; don't wait on such a child
        // forever, and let nothing of its group outlive the run.
        _ = drained.wait(timeout: .now() + 5)
        group.signal(SIGKILL)
        _ = drained.wait(timeout: .now() + 5)
        return ToolOutput(
            status: exitStatus.value ?? 128 + SIGKILL, stdout: String(decoding: outData.value, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }

    /// Forwards the stop signals the handler writes to `fd` to the tool's group, as a streamed run does: the first
    /// as SIGTERM (SIGINT as itself), SIGKILL `stopGrace` seconds later or at once on a second one. Byte 0 ends it;
    /// the returned semaphore is signalled when it has.
    private func relayStopSignals(from fd: Int32, to group: ProcessGroup) -> DispatchSemaphore {
        let ended = DispatchSemaphore(value: 0)
        let grace = Int32(min(max(0, stopGrace), 86_400) * 1000)
        Thread {
            var stopping = false
            var killed = false
            var byte: UInt8 = 0
            while true {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let count = poll(&ready, 1, stopping && !killed ? grace : -1)
                if count == 0 {
                    group.signal(SIGKILL)
                    killed = true
                    continue
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    break
                }
                guard read(fd, &byte, 1) == 1, byte != 0 else { break }
                if stopping {
                    group.signal(SIGKILL)
                    killed = true
                } else {
                    stopping = true
                    group.signal(SignalRelay.forwarded(Int32(byte)))
                }
            }
            ended.signal()
        }.start()
        return ended
    }

    /// Two pipes, every end close-on-exec (the child gets its ends by dup2), or the error that names the limit.
    private static func pipePair(for tool: String) throws(XcodeRunnerError) -> ([Int32], [Int32]) {
        var first: [Int32] = [-1, -1]
        var second: [Int32] = [-1, -1]
        guard pipe(&first) == 0, pipe(&second) == 0 else {
            for fd in first + second where fd >= 0 { close(fd) }
            throw XcodeRunnerError(
                .toolFailed, field: tool, rule: "could not create a pipe for its output",
                remedy: "check the limit on open files ('ulimit -n')")
        }
        for fd in first + second { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (first, second)
    }

    /// How a streamed run ended.
    public struct StreamOutcome: Sendable, Equatable {
        /// The tool's exit code, or 128 + the signal that stopped it.
        public let status: Int32
        /// Whether the run was stopped because it outlived its time limit.
        public let timedOut: Bool
        /// The signal (see `SignalRelay`) webbridge received during the run and forwarded to the tool's group.
        public let interruptedBy: Int32?

        public init(status: Int32, timedOut: Bool, interruptedBy: Int32? = nil) {
            self.status = status
            self.timedOut = timedOut
            self.interruptedBy = interruptedBy
        }
    }

    /// The longest `timeout` honoured (a week); longer values are treated as this, so no deadline overflows.
    public static let longestTimeout: TimeInterval = 604_800

    /// Runs a tool with stdout and stderr merged, handing each chunk to `onOutput` as it arrives.
    ///
    /// The tool leads its own process group. With a `timeout`, a run still going after that many seconds is
    /// sent SIGTERM (xcodebuild then cancels and writes what it has), and SIGKILL if it is still there `stopGrace`
    /// seconds later; both go to the whole group. A stop signal received meanwhile (see ``SignalRelay``) is
    /// forwarded to the group the same way, SIGINT as itself and the others as SIGTERM (a second one sends SIGKILL
    /// at once). Once the tool has exited, its output is read for at most
    /// `drainGrace` seconds more (a child may hold the pipe), and whatever is left of its group is killed.
    public func stream(
        _ tool: String, _ arguments: [String], in folder: URL? = nil, timeout: TimeInterval? = nil,
        onOutput: (Data) -> Void
    ) throws(XcodeRunnerError) -> StreamOutcome {
        guard let executable = locate(tool) else { throw missing(tool) }
        let (output, wake) = try Self.pipePair(for: tool)
        _ = fcntl(wake[1], F_SETFL, O_NONBLOCK)
        defer { for fd in [output[0], wake[0], wake[1]] { close(fd) } }
        let restoreSignals = SignalRelay.install(wakeFD: wake[1])
        defer { restoreSignals() }
        SignalRelay.replay(to: wake[1])
        let spawned = ProcessGroup.spawn(
            executable, argv: [executable.path] + arguments, environment: environment, folder: folder,
            output: output[1])
        close(output[1])
        guard let group = spawned else {
            throw XcodeRunnerError(
                .toolFailed, field: tool, rule: "could not start", remedy: "check that \(tool) is executable")
        }
        // The leader's exit arrives on the wake pipe too, as byte 0, from a thread blocked in waitpid.
        let exitStatus = StatusBox()
        let wakeWriter = wake[1]
        let waiterDone = DispatchSemaphore(value: 0)
        Thread {
            exitStatus.value = group.waitForLeader()
            var byte: UInt8 = 0
            _ = write(wakeWriter, &byte, 1)
            waiterDone.signal()
        }.start()

        let clock = { DispatchTime.now().uptimeNanoseconds }
        func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
            UInt64(max(0, min(seconds, Self.longestTimeout)) * 1e9)
        }
        let timeoutAt = timeout.map { clock() + nanoseconds($0) }
        var timedOut = false
        var interruptedBy: Int32?
        var killAt: UInt64?
        var killed = false
        var drainUntil: UInt64?
        var outputOpen = true
        var buffer = [UInt8](repeating: 0, count: 65536)
        func stop(_ number: Int32) {
            group.signal(number)
            if number == SIGKILL { killed = true } else if killAt == nil { killAt = clock() + nanoseconds(stopGrace) }
        }
        while true {
            let now = clock()
            let exited = exitStatus.value != nil
            if exited && !outputOpen { break }
            if let at = timeoutAt, !timedOut, !exited, interruptedBy == nil, now >= at {
                timedOut = true
                stop(SIGTERM)
            }
            if let at = killAt, !killed, !exited, now >= at { stop(SIGKILL) }
            if exited && drainUntil == nil { drainUntil = now + nanoseconds(drainGrace) }
            if let until = drainUntil, now >= until {
                // A child still holds the output after the leader exited: it goes with the group.
                if killed { break }
                stop(SIGKILL)
                drainUntil = now + nanoseconds(1)
            }
            var deadlines = [drainUntil].compactMap { $0 }
            if !exited {
                if let at = timeoutAt, !timedOut, interruptedBy == nil { deadlines.append(at) }
                if let at = killAt, !killed { deadlines.append(at) }
            }
            let wait =
                deadlines.min().map { Int32(min((($0 > now ? $0 - now : 0) + 999_999) / 1_000_000, 60_000)) } ?? -1
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            if outputOpen { fds.append(pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), wait) < 0 {
                // Never return while the tool runs: stop it and let the loop see it exit.
                if errno != EINTR && !killed { stop(SIGKILL) }
                continue
            }
            if fds[0].revents != 0 {
                let count = read(wake[0], &buffer, buffer.count)
                for byte in buffer.prefix(max(count, 0)) where byte != 0 {
                    let number = Int32(byte)
                    if interruptedBy == nil && !timedOut {
                        interruptedBy = number
                        stop(SignalRelay.forwarded(number))
                    } else {
                        // A second signal (or one during a timeout's grace): stop now.
                        if interruptedBy == nil { interruptedBy = number }
                        stop(SIGKILL)
                    }
                }
            }
            if outputOpen && fds[1].revents != 0 {
                let count = read(output[0], &buffer, buffer.count)
                if count > 0 {
                    onOutput(Data(buffer.prefix(count)))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    outputOpen = false
                }
            }
        }
        // Nothing of the group outlives the run (ESRCH when it is already empty).
        group.signal(SIGKILL)
        // The waiter writes to the wake pipe right after setting the status: let it finish before the pipe closes.
        waiterDone.wait()
        return StreamOutcome(
            status: exitStatus.value ?? 128 + SIGKILL, timedOut: timedOut, interruptedBy: interruptedBy)
    }
}

/// The leader's exit status, written by the waiting thread and read by the run loop.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int32?
    var value: Int32? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A box written by one thread and read by another after a `DispatchGroup` wait.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var value: Data {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
