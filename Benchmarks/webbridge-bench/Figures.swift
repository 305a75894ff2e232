import Foundation

/// One page → native burst: how long it took and how the messages arrived.
struct BurstFigure {
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
struct PipelineFigure {
    let count: Int
    let seconds: Double
    /// CPU time of the main thread over the same span.
    let mainThreadSeconds: Double
    let errors: Int

    var callsPerSecond: Double { Double(count) / seconds }
}
