import BridgeContract
import BridgeTesting
import Foundation

#if os(Linux)
import CWebKitGTK
import WebKitGTK
#endif

/// Runs every measurement in one process and one go, in an order that keeps them from disturbing each other.
@MainActor
final class BenchRunner {
    let options: BenchOptions
    var report = BenchReport()

    init(options: BenchOptions) {
        self.options = options
        report.coldRuns = options.coldRuns
        report.sessionsTotal = options.sessionsTotal
        report.rssFrom = options.rssFrom
    }

    /// Measures, prints the table, writes the JSON; exit 0 when every figure was measured.
    func run() async -> Int32 {
        report.machine = Machine.describe()
        #if os(Linux)
        report.machine["webkitgtk"] =
            "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
        #endif
        let fixture: String
        do { fixture = try BundledFixture.html() } catch {
            print("webbridge-bench: the bundled fixture can't be read: \(error)")
            return 1
        }

        if options.runs("contract") {
            progress("contract: encoders and validator alone, 20,000 each")
            await measure("contract cost") {
                _ = try ContractCost.encoderMicroseconds(count: 1_000)
                report["encoder_us_per_call"] = try ContractCost.encoderMicroseconds(count: 20_000)
                _ = try ContractCost.encoderMicroseconds(count: 1_000, encoder: .jsonSerialization)
                report["encoder_json_serialization_us_per_call"] = try ContractCost.encoderMicroseconds(
                    count: 20_000, encoder: .jsonSerialization)
                _ = try ContractCost.jsonSerializationMicroseconds(count: 1_000)
                report["json_serialization_us_per_call"] = try ContractCost.jsonSerializationMicroseconds(count: 20_000)
                _ = try ContractCost.validatorMicroseconds(count: 1_000)
                report["validator_us_per_message"] = try ContractCost.validatorMicroseconds(count: 20_000)
            }
        }

        // Child processes first, while this process holds no engine, display or web process of its own.
        if options.runs("cold") {
            progress("cold check: `webbridge check` and the raw C check, ×\(options.coldRuns) each, DISPLAY unset")
            await measure("cold check") {
                let samples = try await ColdCheck.run(
                    webbridge: options.webbridge, raw: options.rawColdCheck, fixture: BundledFixture.url.path,
                    runs: options.coldRuns, timeout: options.timeout)
                report["cold_check_s"] = Statistics.median(samples.webbridge)
                report["raw_cold_check_s"] = Statistics.median(samples.raw)
                if let ours = report["cold_check_s"], let raw = report["raw_cold_check_s"] {
                    report["cold_check_ratio"] = raw / ours
                }
                report.details["cold_check_runs_s"] = samples.webbridge.map(BenchReport.rounded)
                let failing = try await ColdCheck.failVerdict(
                    webbridge: options.webbridge, fixture: fixture, runs: options.coldRuns, timeout: options.timeout)
                report["fail_verdict_s"] = Statistics.median(failing)
                if let failed = report["fail_verdict_s"], let passed = report["cold_check_s"], passed > 0 {
                    report["fail_verdict_ratio"] = failed / passed
                }
                report.details["fail_verdict_runs_s"] = failing.map(BenchReport.rounded)
                report.details["raw_cold_check_runs_s"] = samples.raw.map(BenchReport.rounded)
                let startUp = try await ColdCheck.startUp(
                    webbridge: options.webbridge, raw: options.rawColdCheck, runs: options.coldRuns * 2,
                    timeout: options.timeout)
                report["start_up_s"] = Statistics.median(startUp.webbridge)
                report["raw_start_up_s"] = Statistics.median(startUp.raw)
                let perView = try await ColdCheck.engineGrowthPerView(
                    raw: options.rawColdCheck, fixture: BundledFixture.url.path, views: options.sessionsTotal,
                    timeout: options.timeout)
                report["engine_rss_kb_per_view"] = perView
                // On the sessions' schedule: as many views as sessions between the two RSS readings.
                report["engine_rss_growth_mb"] = perView * Double(options.sessionsTotal - options.rssFrom) / 1024
            }
        }
        if options.runs("suite") {
            progress(
                "suite: \(SuiteBench.pages) pages with --jobs 1, 2 and the default, then as \(SuiteBench.pages) runs")
            await measure("suite") {
                let folder = try SuiteBench.folder(fixture: fixture)
                defer { try? FileManager.default.removeItem(at: folder) }
                var figures = report
                try await SuiteBench.wallTimes(
                    webbridge: options.webbridge, fixture: fixture, folder: folder, runs: options.quick ? 1 : 3,
                    timeout: options.timeout, into: &figures)
                report = figures
            }
        }
        if !options.runs("peer") {
        } else if let missing = PeerCheck.missing(python: options.python) {
            report["peer_check_s"] = nil
            report.details["peer_check"] = "not installed: \(missing); run `make bench-peer`"
        } else {
            progress("peer check: Selenium + WebKitWebDriver ×\(options.peerRuns)")
            await measure("peer check") {
                let samples = try await PeerCheck.run(
                    python: options.python, script: options.peerScript, fixture: BundledFixture.url.path,
                    runs: options.peerRuns, timeout: options.timeout)
                report["peer_check_s"] = Statistics.median(samples)
                report.details["peer_check_runs_s"] = samples.map(BenchReport.rounded)
            }
            if options.runs("suite") {
                progress("peer suite: \(SuiteBench.pages) pages in one Selenium session, then a session per page")
                await measure("peer suite") {
                    let pages = SuiteBench.pages
                    for fresh in [false, true] {
                        report["peer_suite_\(pages)\(fresh ? "_fresh" : "")_s"] = try await PeerCheck.suite(
                            python: options.python, script: options.peerScript, fixture: BundledFixture.url.path,
                            pages: pages, fresh: fresh, timeout: options.timeout)
                    }
                    if let suite = report["suite_\(pages)_default_s"], suite > 0 {
                        // Like for like: the suite gives every page its own isolated session, as a WebDriver
                        // session per page does; one reused session shares cookies and storage between pages.
                        report["suite_vs_peer"] = report["peer_suite_\(pages)_fresh_s"].map { $0 / suite }
                        report["suite_vs_peer_reused"] = report["peer_suite_\(pages)_s"].map { $0 / suite }
                    }
                }
            }
        }

        do { try EngineEnvironment.prepare() } catch {
            report.errors.append("the engine could not start: \(error)")
            return finish()
        }

        if options.runs("sessions") {
            progress("sessions: \(options.sessionsTotal) fresh sessions on the fixture")
            await measure("sessions") {
                let figures = try await SessionBench.run(
                    html: fixture, total: options.sessionsTotal, warmUp: options.sessionsWarmUp,
                    timed: options.sessionsTimed,
                    rssFrom: options.rssFrom, timeout: options.timeout)
                report["session_ms_p50"] = Statistics.percentile(figures.samples, 50)
                report["session_ms_p95"] = Statistics.percentile(figures.samples, 95)
                report["rss_after_\(options.rssFrom)_sessions_mb"] = figures.rssAfterFirst
                report["rss_after_\(options.sessionsTotal)_sessions_mb"] = figures.rssAfterAll
                if let first = figures.rssAfterFirst, let all = figures.rssAfterAll {
                    report["rss_growth_mb"] = all - first
                }
                var phases: [String: Double] = [:]
                for (event, samples) in figures.phases {
                    phases[event.rawValue] = Statistics.median(samples).map(BenchReport.rounded)
                }
                report.details["session_phase_ms_p50"] = phases
                // From the session's start (before the view is made), as the raw phases are measured.
                report.details["session_phase_from_start_ms_p50"] = figures.phasesFromStart.mapValues {
                    Statistics.median($0).map(BenchReport.rounded) as Any
                }
                report.details["sessions_run"] = figures.sessions
                report.details["rss_curve_mb"] = figures.rssCurve.map(BenchReport.rounded)
            }
        }

        if options.runs("suite") {
            progress("suite memory: \(SuiteBench.pages) pages in one lane")
            await measure("suite memory") {
                var figures = report
                try await SuiteBench.memory(fixture: fixture, timeout: options.timeout, into: &figures)
                report = figures
            }
        }

        if options.runs("stress") {
            let sessions = options.quick ? 20 : 100
            progress("stress: \(sessions) stressed sessions of a robust page, then each race page to its first failure")
            await measure("stress") {
                var figures = report
                try await StressBench.run(sessions: sessions, into: &figures)
                report = figures
            }
        }

        #if os(Linux)
        await measureThroughput(fixture: fixture)
        #endif
        return finish()
    }

    #if os(Linux)
    /// Raw engine and WebBridge, interleaved round by round so a busy moment on the machine hits both alike.
    private func measureThroughput(fixture: String) async {
        let engine: RawEngine
        do { engine = try RawEngine() } catch {
            report.errors.append("raw engine: \(error)")
            return
        }
        if options.runs("raw-sessions") {
            progress("raw sessions: \(options.sessionsTotal) on the fixture")
            await measure("raw sessions") {
                // The same schedule as WebBridge's sessions, so the RSS growth of the engine alone can be told apart.
                var samples: [Double] = []
                var phases: [String: [Double]] = [:]
                var rssAfterFirst: Double?
                var curve: [Double] = []
                for index in 1...options.sessionsTotal {
                    if options.rawRecycle > 0 && index % options.rawRecycle == 0 {
                        try engine.recycle(timeout: options.timeout)
                    }
                    let session = try RawBench.session(engine, html: fixture, timeout: options.timeout)
                    if index > options.sessionsWarmUp && index <= options.sessionsWarmUp + options.rawSessions {
                        samples.append(session.total)
                        phases["didFinish", default: []].append(session.didFinish)
                        phases["sync done", default: []].append(session.syncDone)
                        phases["accepted", default: []].append(session.accepted)
                    }
                    if index == options.rssFrom { rssAfterFirst = ResidentMemory.megabytes() }
                    if index % max(options.sessionsTotal / 10, 1) == 0, let rss = ResidentMemory.megabytes() {
                        curve.append(rss)
                    }
                }
                report.details["raw_rss_curve_mb"] = curve.map(BenchReport.rounded)
                report.details["raw_views_and_managers_finalized"] =
                    "\(Finalization.finalized) of \(Finalization.watched)"
                report.details["raw_session_phase_ms_p50"] = phases.mapValues {
                    Statistics.median($0).map(BenchReport.rounded) as Any
                }
                report["raw_session_ms_p50"] = Statistics.percentile(samples, 50)
                report["raw_session_ms_p95"] = Statistics.percentile(samples, 95)
                if let first = rssAfterFirst, let all = ResidentMemory.megabytes() {
                    report["raw_rss_growth_mb"] = all - first
                }
            }
        }

        if options.runs("sessions") && options.runs("raw-sessions") {
            progress("sessions, interleaved: \(options.interleavedPairs) WebBridge and raw pairs")
            await measure("interleaved sessions") {
                // One of each in turn, the order swapped every pair, so a busy moment on the machine hits both alike;
                // the two long schedules above run minutes apart and their ratio drifts with the machine.
                var ours: [Double] = []
                var raw: [Double] = []
                // Where each side's sessions spent CPU: this process, its main thread, the engine's processes.
                var cpu = [CPUShares(), CPUShares()]
                // One session of each first, so both sides' processes exist when they are looked up.
                _ = try await SessionBench.session(html: fixture, index: 0, timeout: options.timeout)
                _ = try RawBench.session(engine, html: fixture, timeout: options.timeout)
                CPUShares.refreshProcesses()
                for pair in 0..<options.interleavedPairs {
                    for side in pair.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                        let before = CPUShares.now()
                        if side == 0 {
                            ours.append(
                                try await SessionBench.session(html: fixture, index: pair, timeout: options.timeout)
                                    .milliseconds)
                        } else {
                            raw.append(try RawBench.session(engine, html: fixture, timeout: options.timeout).total)
                        }
                        cpu[side] = cpu[side] + (CPUShares.now() - before)
                    }
                }
                report["session_interleaved_ms_p50"] = Statistics.percentile(ours, 50)
                report["raw_session_interleaved_ms_p50"] = Statistics.percentile(raw, 50)
                let pairs = Double(options.interleavedPairs)
                for (side, name) in [(0, "session"), (1, "raw_session")] {
                    report["\(name)_cpu_ms_process"] = cpu[side].process / pairs * 1000
                    report["\(name)_cpu_ms_main_thread"] = cpu[side].mainThread / pairs * 1000
                    report["\(name)_cpu_ms_engine"] = cpu[side].engine / pairs * 1000
                }
            }
        }

        var bursts: (raw: [BurstFigure], ours: [BurstFigure], floor: [BurstFigure], api: [BurstFigure]) = (
            [], [], [], []
        )
        var trips: (raw: [Double], ours: [Double]) = ([], [])
        var pipes: (raw: [PipelineFigure], ours: [PipelineFigure], api: [PipelineFigure]) = ([], [], [])
        // Both sides measure throughput on web processes of their own, new here: by now WebBridge's default
        // process has served every session and suite page above (≈ 1,300 views), the raw loop's about 900.
        do { try engine.recycle(timeout: options.timeout) } catch {
            report.errors.append("raw engine: a new web process: \(error)")
            return
        }
        WebBridgeBench.store = WKWebsiteDataStore.nonPersistent()
        defer { WebBridgeBench.store = nil }
        for round in 1...options.rounds {
            // Each section's sides swap places every round, so neither always runs on the heels of the other.
            let sides = round.isMultiple(of: 2) ? ["webbridge", "raw"] : ["raw", "webbridge"]
            progress(
                "throughput round \(round)/\(options.rounds): burst, round trips, pipelined (\(sides[0]) first)")
            let ids = BenchPage.requestIDs(options.burstCount)
            await inTurn("burst", sides) {
                await measure("raw page → native") {
                    bursts.raw.append(try RawBench.pageToNative(engine, ids: ids, timeout: options.timeout))
                }
                await measure("raw page → native, every field read") {
                    bursts.floor.append(
                        try RawBench.pageToNative(
                            engine, ids: BenchPage.requestIDs(options.burstCount), timeout: options.timeout,
                            readEveryField: true))
                }
            } webbridge: {
                await measure("a plain WKScriptMessageHandler, page → native") {
                    bursts.api.append(
                        try await APIBench.pageToNative(
                            ids: BenchPage.requestIDs(options.burstCount), timeout: options.timeout))
                }
                await measure("WebBridge page → native") {
                    bursts.ours.append(
                        try await WebBridgeBench.pageToNative(
                            ids: BenchPage.requestIDs(options.burstCount), timeout: options.timeout))
                }
            }
            await inTurn("round-trips", sides) {
                await measure("raw round trips") {
                    trips.raw += try RawBench.roundTrips(engine, count: options.roundTrips, timeout: options.timeout)
                }
            } webbridge: {
                await measure("WebBridge round trips") {
                    trips.ours += try await WebBridgeBench.roundTrips(
                        count: options.roundTrips, timeout: options.timeout)
                }
            }
            await inTurn("pipelined", sides) {
                await measure("raw pipelined") {
                    pipes.raw.append(try RawBench.pipelined(engine, count: options.pipelined, timeout: options.timeout))
                }
            } webbridge: {
                await measure("Apple's evaluateJavaScript, pipelined") {
                    pipes.api.append(try await APIBench.pipelined(count: options.pipelined, timeout: options.timeout))
                }
                await measure("WebBridge pipelined") {
                    pipes.ours.append(
                        try await WebBridgeBench.pipelined(count: options.pipelined, timeout: options.timeout))
                }
            }
        }
        record(bursts: bursts.raw, prefix: "raw_")
        record(bursts: bursts.ours, prefix: "")
        report["raw_validating_page_to_native_msgs_per_s"] = Statistics.median(bursts.floor.map(\.messagesPerSecond))
        report["page_to_native_floor_ratio"] = ratio(
            report["raw_validating_page_to_native_msgs_per_s"], report["raw_page_to_native_msgs_per_s"])
        // What Apple's API costs by itself (Foundation body, WKScriptMessage): the floor for any handler using it.
        report["api_page_to_native_msgs_per_s"] = Statistics.median(bursts.api.map(\.messagesPerSecond))
        report["page_to_native_api_ratio"] = ratio(
            report["api_page_to_native_msgs_per_s"], report["raw_page_to_native_msgs_per_s"])
        report["page_to_native_vs_api_ratio"] = ratio(
            report["page_to_native_msgs_per_s"], report["api_page_to_native_msgs_per_s"])
        report.details["api_page_to_native_msgs_per_s_rounds"] = bursts.api.map {
            BenchReport.rounded($0.messagesPerSecond)
        }
        report["raw_native_to_page_rtt_ms_p50"] = Statistics.percentile(trips.raw, 50)
        report["native_to_page_rtt_ms_p50"] = Statistics.percentile(trips.ours, 50)
        report["raw_native_to_page_rtt_ms_p95"] = Statistics.percentile(trips.raw, 95)
        report["native_to_page_rtt_ms_p95"] = Statistics.percentile(trips.ours, 95)
        report["raw_native_to_page_calls_per_s"] = Statistics.median(pipes.raw.map(\.callsPerSecond))
        report["native_to_page_calls_per_s"] = Statistics.median(pipes.ours.map(\.callsPerSecond))
        // What Apple's API costs by itself native → page (its call and completion): the floor for any caller.
        report["api_native_to_page_calls_per_s"] = Statistics.median(pipes.api.map(\.callsPerSecond))
        report.details["api_native_to_page_calls_per_s_rounds"] = pipes.api.map {
            BenchReport.rounded($0.callsPerSecond)
        }
        // The raw loop's whole pipelined call, to set against JSONSerialization's share of ours.
        report["raw_native_to_page_us_per_call"] = report["raw_native_to_page_calls_per_s"].map { 1e6 / $0 }
        report["raw_native_to_page_errors"] = pipes.raw.isEmpty ? nil : Double(pipes.raw.map(\.errors).reduce(0, +))
        report["native_to_page_errors"] = pipes.ours.isEmpty ? nil : Double(pipes.ours.map(\.errors).reduce(0, +))
        report.details["page_to_native_msgs_per_s_rounds"] = bursts.ours.map {
            BenchReport.rounded($0.messagesPerSecond)
        }
        report.details["raw_page_to_native_msgs_per_s_rounds"] = bursts.raw.map {
            BenchReport.rounded($0.messagesPerSecond)
        }
        report.details["native_to_page_calls_per_s_rounds"] = pipes.ours.map { BenchReport.rounded($0.callsPerSecond) }
        report.details["raw_native_to_page_calls_per_s_rounds"] = pipes.raw.map {
            BenchReport.rounded($0.callsPerSecond)
        }
        recordMainThread("raw_page_to_native", bursts.raw, per: "msg")
        recordMainThread("page_to_native", bursts.ours, per: "msg")
        recordMainThread("api_page_to_native", bursts.api, per: "msg")
        recordMainThread("raw_native_to_page", pipes.raw, per: "call")
        recordMainThread("native_to_page", pipes.ours, per: "call")
        recordMainThread("api_native_to_page", pipes.api, per: "call")
        report["page_to_native_ratio"] = ratio(
            report["page_to_native_msgs_per_s"], report["raw_page_to_native_msgs_per_s"])
        report["native_to_page_calls_ratio"] = ratio(
            report["native_to_page_calls_per_s"], report["raw_native_to_page_calls_per_s"])
        report["native_to_page_api_ratio"] = ratio(
            report["api_native_to_page_calls_per_s"], report["raw_native_to_page_calls_per_s"])
        report["native_to_page_vs_api_ratio"] = ratio(
            report["native_to_page_calls_per_s"], report["api_native_to_page_calls_per_s"])
        report["session_vs_raw"] = ratio(
            report["session_interleaved_ms_p50"], report["raw_session_interleaved_ms_p50"])
        report["session_vs_raw_apart"] = ratio(report["session_ms_p50"], report["raw_session_ms_p50"])
        // Throughput of sequential calls: the raw loop's round trip over ours.
        report["native_to_page_rtt_ratio"] = ratio(
            report["raw_native_to_page_rtt_ms_p50"], report["native_to_page_rtt_ms_p50"])
    }
    #endif

    /// Where a side's time goes: its main thread's CPU per message or call, and the share of the wall time it was
    /// busy (near 1: bound by its own work; well below: waiting on the web process).
    private func recordMainThread(_ name: String, _ runs: [some MainThreadTimed], per unit: String) {
        guard !runs.isEmpty else { return }
        report["\(name)_main_thread_us_per_\(unit)"] = Statistics.median(
            runs.map { 1e6 * $0.mainThreadSeconds / Double($0.count) })
        report["\(name)_main_thread_busy"] = Statistics.median(runs.map { $0.mainThreadSeconds / $0.seconds })
    }

    private func record(bursts: [BurstFigure], prefix: String) {
        guard !bursts.isEmpty else { return }
        report["\(prefix)page_to_native_msgs_per_s"] = Statistics.median(bursts.map(\.messagesPerSecond))
        report["\(prefix)page_to_native_lost"] = Double(bursts.map(\.tally.lost).reduce(0, +))
        report["\(prefix)page_to_native_duplicated"] = Double(bursts.map(\.tally.duplicated).reduce(0, +))
        report["\(prefix)page_to_native_misattributed"] = Double(bursts.map(\.tally.misattributed).reduce(0, +))
        report["\(prefix)page_to_native_out_of_order"] = Double(bursts.map(\.tally.outOfOrder).reduce(0, +))
        if prefix.isEmpty { report["page_to_native_rejected"] = Double(bursts.map(\.rejected).reduce(0, +)) }
    }

    private func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
        guard let numerator, let denominator, denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// Runs one measurement; a failure is recorded with its name and the run goes on.
    /// Runs the sides of `section` this run measures, in `order` ("raw", "webbridge").
    private func inTurn(
        _ section: String, _ order: [String], raw: () async -> Void, webbridge: () async -> Void
    ) async {
        for side in order where options.runs(section, side: side) {
            if side == "raw" { await raw() } else { await webbridge() }
        }
    }

    private func measure(_ name: String, _ body: () async throws -> Void) async {
        do { try await body() } catch { report.errors.append("\(name): \(error)") }
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("webbridge-bench: \(text)\n".utf8))
    }

    private func finish() -> Int32 {
        print(report.table)
        let url = URL(fileURLWithPath: options.output)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try report.json.write(to: url, options: .atomic)
            print("\nwritten: \(options.output)")
        } catch {
            print("webbridge-bench: could not write \(options.output): \(error)")
            return 1
        }
        return report.errors.isEmpty ? 0 : 1
    }
}
