#if os(Linux)
import Foundation

/// The engine's own figures, from `RawEngine`: the ceiling for WebBridge's.
@MainActor
enum RawBench {
    /// Posts `ids.count` messages in one burst and counts them in the signal handler; with `readEveryField`,
    /// the handler also reads every field as a validator must (`raw_validating_page_to_native_msgs_per_s`).
    static func pageToNative(_ engine: RawEngine, ids: [String], timeout: Double, readEveryField: Bool = false) throws
        -> BurstFigure
    {
        let page = try engine.openPage(html: BenchPage.html, timeout: timeout)
        defer { page.close() }
        try page.evaluateAndWait(try BenchPage.idsScript(ids), timeout: timeout)
        page.expectBurst(ids: ids, readEveryField: readEveryField)
        let clock = CPUStopwatch()
        page.evaluate(BenchPage.burstScript)
        try engine.iterate(timeout: timeout, what: "\(ids.count) script-message-received signals") {
            page.messages >= ids.count
        }
        let (seconds, cpu) = clock.reading
        return BurstFigure(count: ids.count, seconds: seconds, mainThreadSeconds: cpu, tally: page.tally!, rejected: 0)
    }

    /// Sequential round trips: each receiver call waits for its completion before the next starts.
    static func roundTrips(_ engine: RawEngine, count: Int, timeout: Double) throws -> [Double] {
        let page = try engine.openPage(html: BenchPage.html, timeout: timeout)
        defer { page.close() }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let clock = Stopwatch()
            try page.evaluateAndWait(Self.receiverCall(index), timeout: timeout)
            samples.append(clock.milliseconds)
        }
        return samples
    }

    /// Pipelined calls: all started at once, then the completions counted.
    static func pipelined(_ engine: RawEngine, count: Int, timeout: Double) throws -> PipelineFigure {
        let page = try engine.openPage(html: BenchPage.html, timeout: timeout)
        defer { page.close() }
        let clock = CPUStopwatch()
        for index in 0..<count { page.evaluate(Self.receiverCall(index)) }
        try engine.iterate(timeout: timeout, what: "\(count) evaluate_javascript completions") {
            page.completions >= count
        }
        let (seconds, cpu) = clock.reading
        return PipelineFigure(count: count, seconds: seconds, mainThreadSeconds: cpu, errors: page.errors)
    }

    /// One session's milliseconds from its start: to FINISHED (view made and page loaded), to the sync's
    /// completion, to the read-back (accepted), and to the end of the teardown.
    struct SessionPhases {
        var didFinish = 0.0
        var syncDone = 0.0
        var accepted = 0.0
        var total = 0.0
    }

    /// A fresh raw session on `html`: manager, handler, view, load, ready, FINISHED, sync, read-back, teardown.
    static func session(_ engine: RawEngine, html: String, timeout: Double) throws -> SessionPhases {
        let clock = Stopwatch()
        var phases = SessionPhases()
        let page = try engine.openPage(html: html, timeout: timeout)
        defer { page.close() }
        phases.didFinish = clock.milliseconds
        try engine.iterate(timeout: timeout, what: "the fixture's ready") { page.messages >= 1 }
        try page.evaluateAndWait(#"window.bridgeReceive({"kind":"sync","value":"ok"})"#, timeout: timeout)
        phases.syncDone = clock.milliseconds
        let shown = try page.evaluateAndWait("document.body.dataset.received", timeout: timeout, keepString: true)
        guard shown == "ok" else { throw BenchFailure("raw engine: the fixture did not show the sync value") }
        phases.accepted = clock.milliseconds
        page.close()
        phases.total = clock.milliseconds
        return phases
    }

    /// The same message WebBridge's encoder renders (kind, value, a request id shaped like the correlator's),
    /// built by plain interpolation: no encoder, no check.
    static func receiverCall(_ index: Int) -> String {
        #"window.bridgeReceive({"id":"3kq8w1v0zj2mf-\#(index)","kind":"sync","value":"v\#(index)"})"#
    }
}
#endif
