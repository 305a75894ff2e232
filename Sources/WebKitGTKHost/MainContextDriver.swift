#if os(Linux)
import CWebKitGTK
import Dispatch
import Foundation
import Glibc

/// Drives GLib's default main context on the main thread, without a busy loop, in one of two ways.
///
/// When something else owns the main thread (XCTest's RunLoop waits, an app's RunLoop), the main thread runs
/// GLib's prepare/query/check/dispatch protocol from the main dispatch queue; a watcher thread only blocks in
/// `poll` on the descriptors GLib asked for (plus a private pipe) and, when one is ready or GLib's timeout
/// expires, enqueues a service pass on the main queue. Each engine event then costs a thread hop.
///
/// When the process hands its main thread over (`WebKitGTKEnvironment.runMainLoop()`: the CLI, the bench), GLib's
/// own loop runs it and drains the main dispatch queue as one of its sources: no watcher, no hop, as a GTK app runs.
package final class MainContextDriver: @unchecked Sendable {
    package static let shared = MainContextDriver()

    private let lock = NSCondition()
    // Guarded by `lock`.
    private var armedFDs: [GPollFD] = []
    private var armedTimeout: Int32 = -1
    private var generation = 0
    private var watcherPolling = false
    private var servicePending = false
    private var ownsMainThread = false
    /// The thread GLib's loop runs on once it owns the main thread: compared without a system call, where
    /// `Thread.isMainThread` makes two (`gettid`, `getpid`) for every script the engine is handed.
    private var loopThread: pthread_t?
    // Main thread only.
    private let context = g_main_context_default()
    private var started = false
    private var depth = 0
    /// Service passes run so far (for measuring wake-ups).
    nonisolated(unsafe) package var services = 0
    private var kickPipe: [Int32] = [-1, -1]

    /// Acquires the default context for the main thread and starts the watcher.
    @MainActor
    func start() {
        guard !started else { return }
        started = true
        _ = g_main_context_acquire(context)
        lock.lock()
        let owned = ownsMainThread
        lock.unlock()
        if owned { return }
        pipe(&kickPipe)
        for fd in kickPipe {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let thread = Thread { [self] in
            // Named from inside: Foundation's `Thread.name` does not reach the kernel's name here (at most 15 bytes).
            cwk_name_this_thread("GLib watcher")
            watch()
        }
        thread.start()
        scheduleService()
    }

    /// Asks for a service pass soon; call after touching WebKit from Swift (sources added on the owner thread don't wake GLib).
    package func scheduleService() {
        lock.lock()
        if ownsMainThread {
            let loopThread = self.loopThread
            lock.unlock()
            // The loop re-reads its sources after every dispatch; only another thread must wake it.
            if let loopThread, pthread_equal(pthread_self(), loopThread) == 0 { g_main_context_wakeup(context) }
            return
        }
        let already = servicePending
        servicePending = true
        lock.unlock()
        if !already { DispatchQueue.main.async { MainActor.assumeIsolated { self.service() } } }
    }

    /// Dispatches what is ready, then hands GLib's descriptors and timeout to the watcher.
    @MainActor
    private func service() {
        lock.lock()
        servicePending = false
        lock.unlock()
        guard started else { return }
        services += 1
        depth += 1
        defer { depth -= 1 }
        var fds = [GPollFD](repeating: GPollFD(), count: 16)
        var timeout: Int32 = -1
        var count: Int32 = 0
        // Bounded batches so other main-queue work (test code, other actors) gets a turn.
        for _ in 0..<64 {
            var priority: Int32 = 0
            _ = g_main_context_prepare(context, &priority)
            while true {
                count = g_main_context_query(context, priority, &timeout, &fds, Int32(fds.count))
                if Int(count) <= fds.count { break }
                fds = [GPollFD](repeating: GPollFD(), count: Int(count))
            }
            _ = g_poll(&fds, guint(count), 0)
            if g_main_context_check(context, priority, &fds, count) != 0 {
                g_main_context_dispatch(context)
                timeout = 0
                continue
            }
            break
        }
        arm(Array(fds[0..<Int(count)]), timeout: timeout)
    }

    /// Hands the calling main thread to GLib's loop for good; main-queue work (the main actor, `DispatchQueue.main`)
    /// runs from it. Call it once, before the engine starts, instead of running the main RunLoop: Foundation's
    /// RunLoop sources and timers do not run on this thread afterwards.
    @MainActor
    func runMainLoop() -> Never {
        lock.lock()
        ownsMainThread = !started
        let owned = ownsMainThread
        if owned { loopThread = pthread_self() }
        lock.unlock()
        if owned {
            _ = g_main_context_acquire(context)
            let queue = _dispatch_get_main_queue_handle_4CF()
            _ = fcntl(queue, F_SETFL, fcntl(queue, F_GETFL) | O_NONBLOCK)
            _ = g_unix_fd_add_full(
                G_PRIORITY_DEFAULT, queue, G_IO_IN,
                { descriptor, _, _ in
                    // libdispatch signals the eventfd but never resets it: read it first, or GLib would spin.
                    var count: UInt64 = 0
                    _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
                    _dispatch_main_queue_callback_4CF(nil)
                    return 1
                }, nil, nil)
            // Work enqueued before the queue had its eventfd never signalled it.
            _dispatch_main_queue_callback_4CF(nil)
            while true { _ = g_main_context_iteration(context, 1) }
        }
        // The engine already runs with the watcher: keep it, under the RunLoop.
        RunLoop.main.add(Timer(timeInterval: 86_400 * 365, repeats: false) { _ in }, forMode: .default)
        while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    }

    private func arm(_ fds: [GPollFD], timeout: Int32) {
        lock.lock()
        armedFDs = fds.map {
            var fd = $0; fd.revents = 0; return fd
        }
        armedTimeout = timeout
        generation += 1
        let interrupt = watcherPolling
        lock.signal()
        lock.unlock()
        if interrupt { var byte: UInt8 = 1; _ = write(kickPipe[1], &byte, 1) }
    }

    private func watch() {
        var seen = 0
        while true {
            lock.lock()
            while generation == seen { lock.wait() }
            seen = generation
            var fds = armedFDs
            let timeout = armedTimeout
            watcherPolling = true
            lock.unlock()
            fds.append(GPollFD(fd: kickPipe[0], events: gushort(POLLIN), revents: 0))
            let ready = g_poll(&fds, guint(fds.count), timeout)
            var drain = [UInt8](repeating: 0, count: 64)
            let kicked = fds.last!.revents != 0
            if kicked { while read(kickPipe[0], &drain, drain.count) > 0 {} }
            lock.lock()
            watcherPolling = false
            let rearmed = generation != seen
            lock.unlock()
            // A kick only means "new descriptors": poll again without waking the main thread.
            if kicked && rearmed && ready == 1 { continue }
            if ready < 0 && errno == EINTR { lock.lock(); generation += 1; lock.unlock(); continue }
            scheduleService()
        }
    }
}

/// What an async `main` runs instead of dispatch_main(), called by CEngineMainThread's hook on the main thread while
/// the main queue is still the main thread's: dispatch_main() would park the main thread and drain the main queue on
/// worker threads, one after another, and WebKitGTK aborts when touched from a thread other than the one it started
/// on (Swift Testing's `@MainActor` tests).
@_cdecl("webbridge_run_engine_main_loop")
package func runEngineMainLoopForAsyncMain() {
    MainActor.assumeIsolated { MainContextDriver.shared.runMainLoop() }
}
#endif
