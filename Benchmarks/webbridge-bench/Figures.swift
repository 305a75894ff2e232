import Foundation

/// A timed run of `count` messages or calls, with the main thread's CPU time over the same span.
protocol MainThreadTimed {
    var count: Int { get }
    var seconds: Double { get }
    var mainThreadSeconds: Double { get }
}

/// One page → native burst: how long it took and how the messages arrived.
struct BurstFigure: MainThreadTimed {
    let count: Int
    let seconds: Double
    /// CPU time of the main thread over the same span.
    let mainThreadSeconds: Double
    let tally: BenchPage.Tally
    /// Messages the contract refused (WebBridge only).
    let rejected: Int

    var messagesPerSecond: Double { Double(count) / seconds }
}

/// One pipelined run of native → page calls.
struct PipelineFigure: MainThreadTimed {
    let count: Int
    let seconds: Double
    /// CPU time of the main thread over the same span.
    let mainThreadSeconds: Double
    let errors: Int

    var callsPerSecond: Double { Double(count) / seconds }
}
