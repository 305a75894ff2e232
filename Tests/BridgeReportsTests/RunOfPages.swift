import BridgeTesting

extension RunReport {
    /// A run of `pages`, each with its sessions, against the default contract's name and version.
    static func of(_ pages: [(page: String, sessions: [SessionReport])]) -> RunReport {
        RunReport(
            pages: pages.map { PageTally(name: $0.page, tally: SessionTally($0.sessions)) },
            contract: RunReport.Contract(name: "bridge", version: 1))
    }

    /// A run of one page with its sessions: a single page is a run of one.
    static func of(page: String, _ sessions: [SessionReport]) -> RunReport { of([(page, sessions)]) }

    /// A run of one page's tally.
    static func of(page: String, _ tally: SessionTally) -> RunReport {
        RunReport(
            pages: [PageTally(name: page, tally: tally)], contract: RunReport.Contract(name: "bridge", version: 1))
    }
}
