import LoopbackServer

/// What the check's own server for the page's folder (`--serve`, or a stressed page's folder) refused the page:
/// a module imported with a typo (404), a file that cannot be read (403). Named in the verdict, since the engine
/// itself says nothing of a module that failed to load.
enum ServedRefusals {
    /// Paths named at most; the rest are counted.
    static let shown = 8

    /// ` (the check's server answered …)` for each path it refused, in the order asked; "" when none (or when the
    /// server forwards to an origin, whose answers are the origin's own).
    static func note(_ server: LoopbackServer?) -> String {
        guard let server, server.root != nil else { return "" }
        var refused: [String] = []
        for entry in server.log where entry.status >= 400 {
            let reason = entry.status == 404 ? "not found" : entry.status == 403 ? "unreadable" : "refused"
            let item = "\(entry.path) \(entry.status) \(reason)"
            if !refused.contains(item) { refused.append(item) }
        }
        guard !refused.isEmpty else { return "" }
        let more = refused.count > shown ? ", and \(refused.count - shown) more" : ""
        let listed = refused.prefix(shown).joined(separator: ", ")
        return " (the check's server for the page's folder answered \(listed)\(more))"
    }
}

extension DirectionVerdict {
    /// The verdict with `note` after its failure's detail; itself when it did not fail or the note is empty.
    func noting(_ note: String) -> DirectionVerdict {
        guard let failure, !note.isEmpty else { return self }
        return .fail(BridgeFailure(failure.category, failure.detail + note))
    }
}
