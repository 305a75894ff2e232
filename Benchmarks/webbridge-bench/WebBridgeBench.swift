import BridgeContract
import BridgeTesting
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// WebBridge's figures, measured through the harness exactly as a test would use it.
@MainActor
enum WebBridgeBench {
    /// Where the throughput views live (nil: the default store): a store of their own gives them a web process
    /// of their own, as the raw loop's context does.
    static var store: WKWebsiteDataStore?

    /// A session on the bench page with the request-id contract, loaded (didFinish) and ready to measure.
    static func openSession(timeout: Double) async throws -> BridgeSession {
        let session = BridgeSession(contract: BenchPage.contract, websiteDataStore: store)
        session.loadHTMLString(BenchPage.html)
        guard await session.wait(timeout: timeout, until: { session.loadResult != nil }) else {
            session.tearDown()
            throw BenchFailure("WebBridge: webView(_:didFinish:) of the bench page did not come within \(timeout) s")
        }
        guard case .finished = session.loadResult else {
            session.tearDown()
            throw BenchFailure("WebBridge: the bench page failed to load")
        }
        return session
    }

    /// The page posts one `ready` per id in a burst; each is received, validated and checked against its id.
    static func pageToNative(ids: [String], timeout: Double) async throws -> BurstFigure {
        let session = try await openSession(timeout: timeout)
        defer { session.tearDown() }
        if case .error(let error) = await session.evaluate(try BenchPage.idsScript(ids), timeout: timeout) {
            throw BenchFailure("WebBridge: handing the page its ids failed: \(javaScriptErrorText(error))")
        }
        let burst = BurstState(ids: ids)
        session.onScriptMessage = { message in
            // The id as the page sent it, to check the validator attributes each message to its own id.
            burst.rawID = (message.body as? [String: Any])?["id"] as? String
        }
        session.onEvent = { event in
            switch event {
            // The bench contract's ready acknowledges sync, so each arrives as an acknowledgement (of no request).
            case .message(let message), .acknowledgement(let message, _):
                burst.tally.record(id: message.requestID, rawID: burst.rawID)
            case .rejected:
                burst.rejected += 1
            default:
                return
            }
            if burst.arrived == ids.count { burst.reading = burst.clock.reading }
        }
        burst.clock = CPUStopwatch()
        session.webView?.evaluateJavaScript(BenchPage.burstScript) { _, error in
            if error != nil { burst.scriptFailed = true }
        }
        guard await session.wait(timeout: timeout, until: { burst.arrived >= ids.count }),
            let (seconds, cpu) = burst.reading
        else {
            let why = burst.scriptFailed ? "; the burst script failed" : ""
            throw BenchFailure(
                "WebBridge: \(ids.count) ready messages did not arrive within \(timeout) s (\(burst.arrived) did\(why))"
            )
        }
        return BurstFigure(
            count: ids.count, seconds: seconds, mainThreadSeconds: cpu, tally: burst.tally, rejected: burst.rejected)
    }

    /// Sequential round trips: encode with the contract (`ReceiverCall`, the library's writer), deliver, wait for
    /// the completion.
    static func roundTrips(count: Int, timeout: Double) async throws -> [Double] {
        let session = try await openSession(timeout: timeout)
        defer { session.tearDown() }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let clock = Stopwatch()
            let id = session.correlator.begin()
            let call = try ReceiverCall(
                contract: session.contract, message: ["kind": "sync", "value": "v\(index)", "id": id.rawValue],
                encoder: .jsonWriter)
            if let failure = await session.deliver(call, expecting: nil, timeout: timeout) {
                throw BenchFailure("WebBridge: round trip \(index) failed: \(failure)")
            }
            samples.append(clock.milliseconds)
        }
        return samples
    }

    /// Pipelined calls: every call encoded and started, then the completions counted.
    static func pipelined(count: Int, timeout: Double) async throws -> PipelineFigure {
        let session = try await openSession(timeout: timeout)
        defer { session.tearDown() }
        guard let webView = session.webView else { throw BenchFailure("WebBridge: the session has no web view") }
        return try await PipelineState.run("WebBridge", count: count, timeout: timeout, on: webView) { index in
            let id = session.correlator.begin()
            return try ReceiverCall(
                contract: session.contract, message: ["kind": "sync", "value": "v\(index)", "id": id.rawValue],
                encoder: .jsonWriter
            ).script
        }
    }
}

/// What a burst has seen so far.
@MainActor
final class BurstState {
    var tally: BenchPage.Tally
    var rawID: String?
    var rejected = 0
    var clock = CPUStopwatch()
    var reading: (seconds: Double, mainThreadSeconds: Double)?
    var scriptFailed = false

    init(ids: [String]) { tally = BenchPage.Tally(ids: ids) }

    var arrived: Int { tally.received + rejected }
}

/// Completions of a pipelined run.
@MainActor
final class PipelineState {
    var completions = 0
    var errors = 0
    var reading: (seconds: Double, mainThreadSeconds: Double)?
    let done = Occurrence()

    /// Starts `count` scripts on `webView` without waiting (each made by `script` inside the timed loop, so making
    /// it is part of the call), then waits for every completion; `side` names who ran it in a failure.
    /// Inlined so that `script` is too, as it was in each side's own loop: a call through it cost ≈ 1.5 K
    /// instructions a call more (callgrind).
    @inline(__always)
    static func run(
        _ side: String, count: Int, timeout: Double, on webView: WKWebView, script: (Int) throws -> String
    ) async throws -> PipelineFigure {
        let pipeline = PipelineState()
        let clock = CPUStopwatch()
        for index in 0..<count {
            webView.evaluateJavaScript(try script(index)) { _, error in
                pipeline.completions += 1
                if error != nil { pipeline.errors += 1 }
                if pipeline.completions == count {
                    pipeline.reading = clock.reading
                    pipeline.done.signal()
                }
            }
        }
        guard await pipeline.done.wait(timeout: timeout), let (seconds, cpu) = pipeline.reading else {
            throw BenchFailure(
                "\(side): \(count) pipelined calls did not complete within \(timeout) s (\(pipeline.completions) did)")
        }
        return PipelineFigure(count: count, seconds: seconds, mainThreadSeconds: cpu, errors: pipeline.errors)
    }
}
