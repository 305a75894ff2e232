import BridgeTesting

extension RunReport {
    /// A run of `pages`, each with its sessions, against the default contract's name and version.
    static func of(_ pages: [(page: String, sessions: [SessionReport])]) -> RunReport {
        RunReport(
            pages: pages.map { BridgeReport(page: $0.page, sessions: $0.sessions) },
            contract: RunReport.Contract(name: "bridge", version: 1))
    }

    /// A run of one page with its sessions: a single page is a run of one.
    static func of(page: String, _ sessions: [SessionReport]) -> RunReport { of([(page, sessions)]) }

    /// A run of one page's report, named `name`.
    static func of(page name: String, _ tally: BridgeReport) -> RunReport {
        var page = tally
        page.page = name
        return RunReport(pages: [page], contract: RunReport.Contract(name: "bridge", version: 1))
    }
}
