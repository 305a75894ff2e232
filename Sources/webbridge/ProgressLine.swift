import Foundation

/// A one-line progress counter on a terminal: done / total, failures, elapsed time and the page waited on,
/// redrawn every half second while a page waits. Output erases it before any other line (see `Output.status`),
/// so it is never glued to one; silent when standard error is a file or pipe.
@MainActor
final class ProgressLine {
    /// How often the line is redrawn while nothing finishes, so the clock and the page waited on stay current.
    static let tick: DispatchTimeInterval = .milliseconds(500)

    let total: Int
    let unit: String
    let enabled: Bool
    private let start = ContinuousClock.now
    private var done = 0
    private var failed = 0
    private var timer: (any DispatchSourceTimer)?
    /// The page the run waits on now, named after the counts.
    var waitingOn: String? {
        didSet { draw() }
    }

    init(total: Int, unit: String = "session", waitingOn: String? = nil) {
        self.total = total
        self.unit = unit
        self.waitingOn = waitingOn
        enabled = total > 1 && isatty(STDERR_FILENO) != 0
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + Self.tick, repeating: Self.tick)
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.draw() } }
        timer.resume()
        self.timer = timer
        draw()
    }

    func update(done: Int, failed: Int) {
        self.done = done
        self.failed = failed
        draw()
    }

    /// Erases the line and stops redrawing it.
    func finish() {
        guard enabled else { return }
        timer?.cancel()
        timer = nil
        Output.status(nil)
    }

    /// The line as shown: `page 3/10, 0 failed, 1.4 s; waiting on checkout.html`, cut to the terminal's width
    /// (a wrapped line could not be erased).
    var text: String {
        let elapsed = (ContinuousClock.now - start) / .milliseconds(1) / 1000
        var line = "\(unit) \(done)/\(total), \(failed) failed, \(String(format: "%.1f", elapsed)) s"
        if let waitingOn, done < total { line += "; waiting on \(waitingOn)" }
        let width = Self.columns - 1
        return line.count > width ? String(line.prefix(max(0, width - 1))) + "…" : line
    }

    private func draw() {
        guard enabled, timer != nil else { return }
        Output.status(text)
    }

    /// Standard error's terminal width, 80 when it cannot be read.
    private static var columns: Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
