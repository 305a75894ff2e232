import BridgeContract
import Foundation

/// What happened in one session, as the engine side recorded it: the judge reads only this.
///
/// The timeline holds the session's events in order (the load, each message with its structure, native's sends and
/// their outcomes, the page's errors, navigations, perturbations); the rest holds what the timeline only samples:
/// every valid message with its channel and document, the counts, the refusals grouped, each native step's outcome,
/// and how the session's wait ended. Nothing here reads a clock or an engine.
struct SessionRecord: Sendable, Equatable {
    /// What was checked: the contract, the play, how strictly, and each step's deadline.
    var contract: BridgeContract
    var play: CheckPlay
    var strictness: ValidationMode = .strict
    var timeout: TimeInterval = CheckConfiguration.defaultTimeout
    /// The page's address when it is a real page (`--url`); nil for HTML loaded as a string.
    var url: URL?

    var load = Load()
    /// Valid page → native messages in order of arrival (the first 10,000), each with its channel and document.
    var messages: [Message] = []
    /// Valid messages by document and kind, all of them: an expected message must come once in each document.
    var documentCounts: [Int: [String: Int]] = [:]
    /// The first committed document of the check's own reload (a stressed session), if it reloaded.
    var reloadDocument: Int?
    /// The first refused messages, how many were refused, and the refusals grouped by what was wrong.
    var rejections: [BridgeRejection] = []
    var rejectedCount = 0
    var rejectionTally: [Tally] = []
    var uncloneable: [UncloneableMessage] = []
    var acknowledgements: [Acknowledgement] = []
    var diagnostics: [PageDiagnostic] = []
    var dialogs: [DialogKind] = []
    /// Where the page went when it left the document the session loaded (scheme and host only), if it did.
    var navigatedAwayTo: String?
    var processTerminated = false
    /// Native's steps that ran, in order, with their outcomes.
    var steps: [StepOutcome] = []
    /// How the session's last wait ended.
    var ending: Ending = .settled
    var timeline: [TimelineEntry] = []
    var perturbation: Perturbation?
    var perturbed: [String]?
    /// What the check's own server refused the page (a module's typo), as ``ServedRefusals`` words it; "" when none.
    var servedRefusals = ""

    /// A valid page → native message: its kind, its structure, the channel it came on, and its document.
    struct Message: Sendable, Equatable {
        var kind: String
        var structure: String
        /// The handler it was posted to, or `prompt` for the prompt channel.
        var channel: String
        var document = 1
    }

    /// Refusals of one structure and violation list, and how many came.
    struct Tally: Sendable, Equatable {
        var rejection: BridgeRejection
        var count: Int
    }

    /// The load as the engine told it.
    struct Load: Sendable, Equatable {
        /// nil while it had not ended; `finished` on didFinish.
        var outcome: Outcome?
        var httpStatusCode: Int?
        var mimeType: String?
        /// What the server answered when WebKit ended the load on a redirect without a word (see `RedirectProbe`).
        var redirect: RedirectProbe.Redirect?

        enum Outcome: Sendable, Equatable {
            case finished
            case failed(Failure)
        }

        /// A failed load's error, as the verdict needs it.
        struct Failure: Sendable, Equatable {
            var detail: String
            var cause: LoadError.Cause
            var unreachable = false
            var unreachableBeforeAResponse = false
        }
    }

    /// One native step's outcome: what it sent (or whose reply it was), its failure, and what passing showed.
    struct StepOutcome: Sendable, Equatable {
        /// The step's place in the play.
        var index: Int
        /// The native → page kind it sent, or nil for a reply step.
        var sent: String?
        var name: String
        var failure: BridgeFailure?
        var note: String
    }

    /// Why the session stopped waiting.
    enum Ending: Sendable, Equatable {
        /// Nothing more was expected.
        case settled
        /// What had arrived already decided the verdict; the rest was not waited for.
        case decided
        /// A step's deadline passed with something still expected.
        case deadline
        /// The web process ended.
        case processEnded
    }
}

extension SessionRecord {
    /// The page messages that must arrive.
    var expected: [String] { play.expectedMessages }

    /// The documents the check loaded itself: the first, and the one it loaded again.
    private func phase(of document: Int) -> Int { reloadDocument.map { document >= $0 ? 2 : 1 } ?? 1 }

    /// Whether `kind` arrived in every document the check loaded (any document of each load counts).
    func arrived(_ kind: String) -> Bool {
        let phases = Set(documentCounts.filter { $0.value[kind, default: 0] > 0 }.keys.map(phase))
        return phases.count == (reloadDocument == nil ? 1 : 2)
    }

    /// Whether `kind` arrived in the document the check first loaded, before its reload.
    func arrivedBeforeReload(_ kind: String) -> Bool {
        documentCounts.contains { phase(of: $0.key) == 1 && $0.value[kind, default: 0] > 0 }
    }

    /// The most copies of `kind` one document sent.
    func mostCopies(_ kind: String) -> Int {
        documentCounts.values.map { $0[kind, default: 0] }.max() ?? 0
    }

    /// Copies of `kind` beyond one per document.
    func extraCopies(_ kind: String) -> Int {
        documentCounts.values.reduce(0) { $0 + max(0, $1[kind, default: 0] - 1) }
    }

    /// Whether more than one document sent messages: counts are then per document.
    var severalDocuments: Bool { documentCounts.count > 1 || reloadDocument != nil || navigatedAwayTo != nil }

    /// How many valid messages of `kind` arrived in all.
    func count(_ kind: String) -> Int { documentCounts.values.reduce(0) { $0 + $1[kind, default: 0] } }
}
