#if os(Linux)
import CWebKitGTK
import Dispatch
import Foundation
import Glibc

/// Drives GLib's default main context from the main dispatch queue, without a busy loop.
///
/// The main thread owns the context and runs GLib's prepare/query/check/dispatch protocol; a watcher
/// thread only blocks in `poll` on the descriptors GLib asked for (plus a private pipe) and, when one
/// is ready or GLib's timeout expires, enqueues a service pass on the main queue. The main queue is
/// drained by XCTest's RunLoop waits and by the main actor, so both see GLib callbacks.
final class MainContextDriver: @unchecked Sendable {
    static let shared = MainContextDriver()

    private let lock = NSCondition()
    // Guarded by `lock`.
    private var armedFDs: [GPollFD] = []
    private var armedTimeout: Int32 = -1
    private var generation = 0
    private var watcherPolling = false
    private var servicePending = false
    // Main thread only.
    private let context = g_main_context_default()
    private var started = false
    private var depth = 0
    /// Service passes run so far (for measuring wake-ups).
    nonisolated(unsafe) var services = 0
    private var kickPipe: [Int32] = [-1, -1]

    /// Acquires the default context for the main thread and starts the watcher.
    @MainActor
    func start() {
        guard !started else { return }
        started = true
        _ = g_main_context_acquire(context)
        pipe(&kickPipe)
        for fd in kickPipe {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let thread = Thread { [self] in watch() }
        thread.name = "WebKitGTK main-context watcher"
        thread.start()
        scheduleService()
    }

    /// Asks for a service pass soon; call after touching WebKit from Swift (sources added on the owner thread don't wake GLib).
    func scheduleService() {
        lock.lock()
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
#endif
