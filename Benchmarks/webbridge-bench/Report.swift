import Foundation

/// Every figure of one bench run, printed as a table and written as `bench.json`.
struct BenchReport {
    /// Figures by their JSON key; nil is written as null (not measured, or failed: see `errors`).
    var figures: [String: Double?] = [:]
    /// Per-run samples and details worth keeping next to the headline figures.
    var details: [String: Any] = [:]
    var machine: [String: String] = [:]
    var errors: [String] = []
    /// The counts behind the figures, for the table's labels (`--quick` lowers them).
    var coldRuns = 5
    var sessionsTotal = 500
    var rssFrom = 50

    subscript(key: String) -> Double? {
        get { figures[key] ?? nil }
        set { figures[key] = .some(newValue) }
    }

    /// One target: the figure, how it compares and with what.
    struct Target: Sendable {
        let name: String
        let key: String
        let bound: @Sendable (BenchReport) -> Double?
        let atMost: Bool
        let text: String
        /// What this run measured of the engine alone (or of the reference encoder, `JSONSerialization`) against the same bound,
        /// so a miss says whose it is; nil when nothing was measured.
        var whose: @Sendable (BenchReport) -> String? = { _ in nil }
    }

    static let targets: [Target] = [
        Target(
            name: "page → native vs raw", key: "page_to_native_ratio", bound: { _ in 0.5 }, atMost: false,
            text: "≥ 0.50",
            whose: { report in
                report["page_to_native_floor_ratio"].map { floor in
                    let api = report["page_to_native_api_ratio"].map {
                        String(format: "; a plain WKScriptMessageHandler (Apple's API, no check): %.2f", $0)
                    }
                    return String(format: "the raw engine reading every field a validator must: %.2f of raw", floor)
                        + (api ?? "")
                }
            }),
        Target(
            name: "native → page vs raw", key: "native_to_page_calls_ratio", bound: { _ in 0.5 }, atMost: false,
            text: "≥ 0.50",
            whose: { report in
                guard let encoder = report["encoder_us_per_call"], let raw = report["raw_native_to_page_us_per_call"]
                else { return nil }
                let api = report["native_to_page_api_ratio"].map {
                    String(format: "; Apple's evaluateJavaScript (no check, no encoder): %.2f of raw", $0)
                }
                return String(
                    format: "the encoder alone takes %.1f µs per call, the raw engine's whole call %.1f µs", encoder,
                    raw) + (api ?? "")
            }),
        Target(name: "warm session p50", key: "session_ms_p50", bound: { _ in 20 }, atMost: true, text: "≤ 20 ms"),
        Target(
            name: "warm session vs raw", key: "session_vs_raw", bound: { _ in 1.15 }, atMost: true, text: "≤ 1.15",
            whose: { report in
                guard let ours = report["session_interleaved_ms_p50"],
                    let raw = report["raw_session_interleaved_ms_p50"]
                else { return nil }
                return String(format: "taken in turn: %.2f ms against the raw engine's %.2f ms", ours, raw)
            }),
        Target(
            name: "cold check", key: "cold_check_s", bound: { _ in 0.5 }, atMost: true, text: "≤ 0.5 s",
            whose: { report in
                report["raw_cold_check_s"].map { String(format: "the engine alone (the C check): %.3f s", $0) }
            }),
        Target(
            name: "broken page's verdict", key: "fail_verdict_ratio", bound: { _ in 1.5 }, atMost: true,
            text: "≤ 1.5× the passing cold check",
            whose: { report in
                report["fail_verdict_s"].map { String(format: "a broken-version page, cold: %.3f s", $0) }
            }),
        Target(
            name: "RSS growth", key: "rss_growth_mb", bound: { $0["raw_rss_growth_mb"].map { $0 + 1 } },
            atMost: true, text: "≤ the raw loop's + 1 MB (same run, same schedule)",
            whose: { report in
                guard let raw = report["raw_rss_growth_mb"] else { return nil }
                let engine = report["engine_rss_growth_mb"].map {
                    String(format: "; the engine alone (C, no page load): %.1f MB", $0)
                }
                return String(format: "the raw C-API loop: %.2f MB", raw) + (engine ?? "")
            }),
        Target(
            name: "cold check vs peer", key: "cold_check_s", bound: { $0["peer_check_s"].map { $0 / 3 } }, atMost: true,
            text: "≤ peer / 3",
            whose: { report in
                guard let raw = report["raw_cold_check_s"], let peer = report["peer_check_s"] else { return nil }
                return String(
                    format: "the engine alone (the C check): %.3f s, a third of the peer: %.3f s", raw, peer / 3)
            }),
        Target(
            name: "100 pages, one suite", key: "suite_100_default_s", bound: { _ in 3 }, atMost: true,
            text: "≤ 3 s launch to summary"),
        Target(
            name: "suite, one page broken", key: "suite_one_broken_ratio", bound: { _ in 1.2 }, atMost: true,
            text: "≤ 1.2× the all-pass suite"),
        Target(
            name: "suite vs separate runs", key: "suite_speedup", bound: { _ in 10 }, atMost: false, text: "≥ 10×"),
        Target(
            name: "suite vs the peer's", key: "suite_vs_peer", bound: { _ in 30 }, atMost: false,
            text: "≥ 30× (a WebDriver session per page)",
            whose: { report in
                guard let reused = report["suite_vs_peer_reused"], let peer = report["peer_suite_100_s"] else {
                    return nil
                }
                let floor = report["raw_session_interleaved_ms_p50"] ?? report["raw_session_ms_p50"]
                return String(
                    format: "one reused WebDriver session: %.1f×; 30× that needs %.1f ms a page, start-up included",
                    reused, peer / 3)
                    + (floor.map { String(format: ", the raw engine's own session takes %.1f ms", $0) } ?? "")
            }),
    ]

    /// Whether a target is met; nil when a figure is missing.
    func met(_ target: Target) -> Bool? {
        guard let value = self[target.key], let bound = target.bound(self) else { return nil }
        return target.atMost ? value <= bound : value >= bound
    }

    var json: Data {
        var object: [String: Any] = [:]
        for (key, value) in figures { object[key] = value.map { Self.rounded($0) as Any } ?? NSNull() }
        object["machine"] = machine
        object["details"] = details
        object["errors"] = errors
        object["targets"] = Dictionary(
            uniqueKeysWithValues: Self.targets.map { target in
                (
                    target.name,
                    [
                        "figure": target.key, "target": target.text,
                        "met": met(target).map { $0 as Any } ?? NSNull(),
                        "whose": target.whose(self).map { $0 as Any } ?? NSNull(),
                    ] as [String: Any]
                )
            })
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
            ?? Data("{}".utf8)
    }

    /// Four significant decimals are more than any of these figures can tell.
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    var table: String {
        func cell(_ value: Double?, _ digits: Int = 2) -> String {
            guard let value else { return "—" }
            return String(format: "%.\(digits)f", value)
        }
        func row(_ columns: [String]) -> String {
            let widths = [40, 13, 12, 6]
            return columns.enumerated().map { index, text in
                index < widths.count
                    ? text.padding(toLength: max(widths[index], text.count), withPad: " ", startingAt: 0) : text
            }.joined(separator: " ")
        }
        var lines: [String] = []
        lines.append(row(["figure", "WebBridge", "raw engine", "ratio"]))
        lines.append(
            row([
                "page → native msgs/s (50,000 burst)", cell(self["page_to_native_msgs_per_s"], 0),
                cell(self["raw_page_to_native_msgs_per_s"], 0), cell(self["page_to_native_ratio"]),
            ]))
        lines.append(
            row([
                "  raw, reading every field (the floor)", "", cell(self["raw_validating_page_to_native_msgs_per_s"], 0),
                cell(self["page_to_native_floor_ratio"]),
            ]))
        lines.append(
            row([
                "  a plain WKScriptMessageHandler", "", cell(self["api_page_to_native_msgs_per_s"], 0),
                cell(self["page_to_native_api_ratio"]),
            ]))
        lines.append(
            row([
                "  WebBridge over the plain handler", "", "", cell(self["page_to_native_vs_api_ratio"]),
            ]))
        lines.append(
            row([
                "  lost / duplicated / misattributed",
                ["page_to_native_lost", "page_to_native_duplicated", "page_to_native_misattributed"].map {
                    cell(self[$0], 0)
                }.joined(separator: "/"),
                ["raw_page_to_native_lost", "raw_page_to_native_duplicated", "raw_page_to_native_misattributed"].map {
                    cell(self[$0], 0)
                }.joined(separator: "/"), "",
            ]))
        lines.append(
            row([
                "native → page RTT p50 ms", cell(self["native_to_page_rtt_ms_p50"], 3),
                cell(self["raw_native_to_page_rtt_ms_p50"], 3), cell(self["native_to_page_rtt_ratio"]),
            ]))
        lines.append(
            row([
                "native → page calls/s (pipelined)", cell(self["native_to_page_calls_per_s"], 0),
                cell(self["raw_native_to_page_calls_per_s"], 0), cell(self["native_to_page_calls_ratio"]),
            ]))
        lines.append(
            row([
                "  Apple's evaluateJavaScript, no check", "", cell(self["api_native_to_page_calls_per_s"], 0),
                cell(self["native_to_page_api_ratio"]),
            ]))
        lines.append(
            row([
                "  WebBridge over Apple's call", "", "", cell(self["native_to_page_vs_api_ratio"]),
            ]))
        lines.append(
            row([
                "  ours alone: encoder µs/call, validator µs/msg",
                "\(cell(self["encoder_us_per_call"], 1)) / \(cell(self["validator_us_per_message"], 1))", "", "",
            ]))
        lines.append(
            row([
                "  encoder with JSONSerialization µs/call", cell(self["encoder_json_serialization_us_per_call"], 1),
                "", "",
            ]))
        lines.append(
            row([
                "  JSONSerialization alone µs/call", cell(self["json_serialization_us_per_call"], 1),
                cell(self["raw_native_to_page_us_per_call"], 1), "",
            ]))
        lines.append(
            row([
                "warm session p50 / p95 ms", "\(cell(self["session_ms_p50"], 1)) / \(cell(self["session_ms_p95"], 1))",
                cell(self["raw_session_ms_p50"], 1), cell(self["session_vs_raw_apart"]),
            ]))
        lines.append(
            row([
                "  taken in turn, p50 ms", cell(self["session_interleaved_ms_p50"], 2),
                cell(self["raw_session_interleaved_ms_p50"], 2), cell(self["session_vs_raw"]),
            ]))
        // Where the sessions taken in turn spent CPU: on two cores the engine and this process compete for both.
        for (label, key) in [("process", "process"), ("main thread", "main_thread"), ("engine processes", "engine")] {
            lines.append(
                row([
                    "    CPU ms a session, \(label)", cell(self["session_cpu_ms_\(key)"], 2),
                    cell(self["raw_session_cpu_ms_\(key)"], 2),
                ]))
        }
        lines.append(
            row([
                "cold check s (median of \(coldRuns))", cell(self["cold_check_s"], 3),
                cell(self["raw_cold_check_s"], 3),
                cell(self["cold_check_ratio"]),
            ]))
        lines.append(row(["  a broken page's verdict s (cold)", cell(self["fail_verdict_s"], 3), "", ""]))
        lines.append(
            row([
                "  of which start-up s (libraries loaded)", cell(self["start_up_s"], 3),
                cell(self["raw_start_up_s"], 3),
                "",
            ]))
        lines.append(row(["peer check s (Selenium+WebKitWebDriver)", cell(self["peer_check_s"], 3), "", ""]))
        lines.append(
            row([
                "RSS growth MB (\(sessionsTotal) − \(rssFrom) sessions)", cell(self["rss_growth_mb"], 2),
                cell(self["raw_rss_growth_mb"], 2),
                "",
            ]))
        lines.append(
            row([
                "  engine alone (C, no load), kB per view", "", cell(self["engine_rss_kb_per_view"], 1), "",
            ]))
        lines += SuiteBench.rows(self)
        lines += StressBench.rows(self)
        lines.append("")
        lines.append("targets (2 cores):")
        for target in Self.targets {
            var verdict = met(target).map { $0 ? "met" : "MISSED" } ?? "not measured"
            if met(target) == false, let whose = target.whose(self) { verdict += " (\(whose))" }
            lines.append(
                "  \(target.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(target.key) \(target.text): \(verdict)"
            )
        }
        if !errors.isEmpty {
            lines.append("")
            lines.append("errors:")
            lines.append(contentsOf: errors.map { "  " + $0.replacingOccurrences(of: "\n", with: "\n    ") })
        }
        return lines.joined(separator: "\n")
    }
}

/// What the figures were taken on.
enum Machine {
    static func describe() -> [String: String] {
        var machine: [String: String] = [:]
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let model = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
        {
            machine["cpu"] = model.split(separator: ":", maxSplits: 1).last.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        machine["cores"] = "\(ProcessInfo.processInfo.activeProcessorCount)"
        machine["memory_gb"] = String(format: "%.1f", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)
        machine["os"] = ProcessInfo.processInfo.operatingSystemVersionString
        if let loadavg = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
            machine["load_average_at_start"] = loadavg.split(separator: " ").prefix(3).joined(separator: " ")
        }
        let formatter = ISO8601DateFormatter()
        machine["date"] = formatter.string(from: Date())
        return machine
    }
}
