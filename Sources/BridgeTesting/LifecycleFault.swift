import Foundation
import SeededRandom

/// A fault in the life cycle of the bridge's handler, as real bridges' users report them: part of a stressed
/// session's ``Perturbation`` when the run asks for it (`StressOptions.faults`), applied by the session's perturber
/// through the engine's own API (`WKUserContentController`, `evaluateJavaScript`, the web content process), named
/// in words in the verdict, and re-created by the replay token.
package struct LifecycleFault: Sendable, Equatable, Codable, CustomStringConvertible {
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// The contract's handlers are registered only after the load started: `milliseconds` after didFinish.
        case handlerLate = "handler-late"
        /// At the page's first message the handlers are removed, and added again `milliseconds` later.
        case handlerReAdded = "handler-re-added"
        /// At the page's first message the app's user scripts (the bridge's script) run again in the page.
        case scriptTwice = "script-twice"
        /// Native's first message to the page is delivered twice (its call evaluated again).
        case deliveredTwice = "delivered-twice"
        /// At the page's first message the web process is killed, and native loads the page again.
        case processKilled = "process-killed"
        /// Native's first call to the page is issued (`evaluateJavaScript`) while a navigation to the page again is
        /// under way.
        case evaluateInNavigation = "evaluate-in-navigation"

        /// The kinds this platform can apply: killing the web process needs the engine's process identifiers.
        package static var available: [Kind] {
            allCases.filter { $0 != .processKilled || WebProcessStarvation.isAvailable }
        }
    }

    public var kind: Kind
    /// Milliseconds on the page's clock the fault lasts (a late or re-added handler); 0 for the others.
    public var milliseconds: Double

    public init(_ kind: Kind, milliseconds: Double = 0) {
        self.kind = kind
        self.milliseconds = milliseconds
    }

    /// The fault of one session, one of `kinds`, drawn from `seed` with a generator of its own (the session's
    /// timings are drawn as without faults); nil when `kinds` is empty.
    static func drawn(seed: UInt64, from kinds: [Kind], bound: Double) -> LifecycleFault? {
        guard !kinds.isEmpty else { return nil }
        var random = SeededGenerator(seed: seed ^ 0x11FE_C1C1_E5EE_D000)
        let kind = kinds[random.next(below: kinds.count)]
        let lasting = kind == .handlerLate || kind == .handlerReAdded
        let milliseconds = lasting ? max(1, (Double(random.next(below: 10_001)) / 10_000 * bound).rounded()) : 0
        return LifecycleFault(kind, milliseconds: milliseconds)
    }

    /// The fault in the words the verdict uses.
    public var description: String {
        switch kind {
        case .handlerLate:
            "the handler registered after the load started (\(Perturbation.ms(milliseconds)) after didFinish)"
        case .handlerReAdded:
            "the handler removed at the page's first message and added again \(Perturbation.ms(milliseconds)) later"
        case .scriptTwice:
            "the bridge's script injected twice (run again at the page's first message)"
        case .deliveredTwice:
            "one message delivered twice (native's first call evaluated again)"
        case .processKilled:
            "the web process killed in the middle of a call (at the page's first message), the page loaded again"
        case .evaluateInNavigation:
            "evaluateJavaScript issued during a navigation (native's first call, as the page loads again)"
        }
    }
}
