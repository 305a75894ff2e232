import BridgeContract
import Foundation
import SeededRandom

/// The timings one stressed session changes, as a remote machine changes them: native slow or instant, a reload in
/// the middle, the web process starved, subresources late. A value: drawn from a seed, recorded in the session's
/// report, replayed from its ``token``, and shrunk to the smallest one that still fails.
package struct Perturbation: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The web process paused for `milliseconds`, starting `at` milliseconds after the load started.
    package struct Pause: Sendable, Equatable, Codable {
        public var at: Double
        public var milliseconds: Double

        public init(at: Double, milliseconds: Double) {
            self.at = at
            self.milliseconds = milliseconds
        }
    }

    /// The seed it was drawn from (0 for one built by hand).
    public var seed: UInt64
    /// Milliseconds native waits after each action's trigger (didFinish, or the page message) before it sends,
    /// calls or replies: the first action, the second, …; actions beyond the list wait 0 ms.
    public var nativeDelays: [Double]
    /// Milliseconds by which native learns that a call to the page completed (its completion handler delivered
    /// late): the next action waits for it.
    public var completionDelay: Double
    /// Milliseconds after the first didFinish at which native loads the page again (a second document); nil: none.
    public var reloadAfter: Double?
    /// Milliseconds the web process is paused the moment didFinish reaches native; nil: not paused then.
    public var pauseAtFinish: Double?
    /// Further pauses of the web process, in seeded bursts from the load's start.
    public var pauses: [Pause]
    /// Milliseconds by which each of the page's timers (`setTimeout`) fires late, as on a busy web process whose
    /// tasks queue up; the same for every timer, so their order among themselves stays; nil: on time.
    public var timerDelay: Double?
    /// Milliseconds the check's loopback server (or its proxy, for an `http:` page given by URL) holds responses, by
    /// path (`LoopbackServer.slot(of:count:)` picks a path's entry, so replays hold the same files whatever order
    /// they are requested in); nil: the page is not served through it.
    public var responseDelays: [Double]?
    /// A fault in the handler's life cycle (``LifecycleFault``); nil: none.
    public var fault: LifecycleFault?

    public init(
        seed: UInt64 = 0, nativeDelays: [Double] = [], completionDelay: Double = 0, reloadAfter: Double? = nil,
        pauseAtFinish: Double? = nil, pauses: [Pause] = [], timerDelay: Double? = nil,
        responseDelays: [Double]? = nil, fault: LifecycleFault? = nil
    ) {
        self.seed = seed
        self.nativeDelays = nativeDelays
        self.completionDelay = completionDelay
        self.reloadAfter = reloadAfter
        self.pauseAtFinish = pauseAtFinish
        self.pauses = pauses
        self.timerDelay = timerDelay
        self.responseDelays = responseDelays
        self.fault = fault
    }

    /// No perturbation: the session runs on this machine's own timing.
    public static let none = Perturbation()

    /// How far a drawn perturbation reaches, in milliseconds.
    package struct Bounds: Sendable, Equatable, Codable {
        public var native: Double
        public var completion: Double
        public var reload: Double
        public var pause: Double
        public var response: Double

        public init(
            native: Double = 200, completion: Double = 50, reload: Double = 100, pause: Double = 100,
            response: Double = 200
        ) {
            self.native = native
            self.completion = completion
            self.reload = reload
            self.pause = pause
            self.response = response
        }
    }

    /// The perturbation of one session, drawn from `seed` with the one seeded generator.
    ///
    /// Each kind is on in part of the sessions, so combinations and each kind alone both occur; a quarter of the
    /// native delays are 0 ms (native instant, right at its trigger).
    /// - Parameters:
    ///   - servesPage: whether the page has a folder the loopback server can serve, or an `http:` origin its proxy
    ///     can forward to.
    ///   - faults: the life-cycle faults the run asks for: each session gets one of them (none when empty).
    public static func drawn(
        seed: UInt64, bounds: Bounds = Bounds(), servesPage: Bool, faults: [LifecycleFault.Kind] = []
    ) -> Perturbation {
        var random = SeededGenerator(seed: seed)
        func chance(_ numerator: Int, in denominator: Int) -> Bool { random.next(below: denominator) < numerator }
        func upTo(_ bound: Double) -> Double {
            (Double(random.next(below: 10_001)) / 10_000 * bound * 10).rounded() / 10
        }
        var drawn = Perturbation(seed: seed)
        drawn.nativeDelays = (0..<8).map { _ in chance(1, in: 4) ? 0 : upTo(bounds.native) }
        drawn.completionDelay = chance(1, in: 2) ? 0 : upTo(bounds.completion)
        if chance(1, in: 3) { drawn.reloadAfter = upTo(bounds.reload) }
        if WebProcessStarvation.isAvailable {
            if chance(1, in: 3) { drawn.pauseAtFinish = max(1, upTo(bounds.pause)) }
        }
        if chance(1, in: 3) { drawn.timerDelay = max(1, upTo(bounds.pause)) }
        if WebProcessStarvation.isAvailable {
            if chance(1, in: 3) {
                drawn.pauses = (0...random.next(below: 3)).map { _ in
                    Pause(at: upTo(3 * bounds.pause), milliseconds: max(1, upTo(bounds.pause)))
                }
            }
        }
        if servesPage, chance(1, in: 2) {
            drawn.responseDelays = (0..<8).map { _ in chance(1, in: 3) ? 0 : upTo(bounds.response) }
        }
        drawn.fault = LifecycleFault.drawn(seed: seed, from: faults, bound: bounds.pause)
        return drawn
    }

    /// The seed of session `index` (1-based) of a run seeded `seed`: SplitMix's own step, so neighbours differ.
    public static func sessionSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        return random.next()
    }

    /// Whether this perturbation changes nothing.
    public var isNone: Bool { self.with(seed: 0) == .none || weight == 0 }

    /// How much it changes: the number of changes plus their milliseconds, the order shrinking reduces.
    public var weight: Double {
        let changes =
            nativeDelays.filter { $0 > 0 } + [completionDelay].filter { $0 > 0 }
            + (responseDelays ?? []).filter { $0 > 0 }
            + pauses.map(\.milliseconds) + [pauseAtFinish, timerDelay, reloadAfter.map { _ in 1 }].compactMap { $0 }
            + [fault.map { $0.milliseconds + 1 }].compactMap { $0 }
        return Double(changes.count) * 1_000 + changes.reduce(0, +)
    }

    private func with(seed: UInt64) -> Perturbation {
        var copy = self
        copy.seed = seed
        return copy
    }

    // MARK: Words

    /// What it changes, in words, e.g. "native's actions 1–3 held 0, 0.3, 120 ms after their triggers; a reload
    /// 30 ms after didFinish".
    public var description: String {
        var parts: [String] = []
        if !nativeDelays.isEmpty {
            let held = Self.trimmed(nativeDelays)
            parts.append(
                held.isEmpty
                    ? "native instant (0 ms after each trigger)"
                    : "native's actions held \(Self.list(held)) ms after their triggers")
        }
        if completionDelay > 0 { parts.append("native learns of each completed call \(Self.ms(completionDelay)) late") }
        if let reloadAfter { parts.append("the page loaded again \(Self.ms(reloadAfter)) after didFinish") }
        if let pauseAtFinish { parts.append("the web process paused \(Self.ms(pauseAtFinish)) at didFinish") }
        if let timerDelay { parts.append("the page's timers fire \(Self.ms(timerDelay)) late") }
        for pause in pauses {
            parts.append(
                "the web process paused \(Self.ms(pause.milliseconds)) from \(Self.ms(pause.at)) after the load started"
            )
        }
        if let fault { parts.append(fault.description) }
        if let responseDelays {
            let held = Self.trimmed(responseDelays)
            parts.append(
                held.isEmpty
                    ? "the page served on loopback, no response held"
                    : "responses held \(Self.list(held)) ms (by path)")
        }
        return parts.isEmpty ? "no perturbation" : parts.joined(separator: "; ")
    }

    private static func trimmed(_ values: [Double]) -> [Double] {
        Array(values.reversed().drop { $0 == 0 }.reversed())
    }

    static func ms(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) ms" : String(format: "%.1f ms", value)
    }

    private static func list(_ values: [Double]) -> String {
        values.map { $0 == $0.rounded() ? "\(Int($0))" : String(format: "%.1f", $0) }.joined(separator: ", ")
    }

    /// The page's clock (``PageClock``), injected before the page's own scripts: its timers and time run on the
    /// session's virtual timeline, each timer `timerDelay` late.
    var userScripts: [UserScriptSpec] {
        [
            UserScriptSpec(
                source: PageClock.userScript(late: timerDelay ?? 0), injectionTime: .documentStart,
                forMainFrameOnly: true)
        ]
    }

    // MARK: Replay token

    /// The prefix of every token: the format's version.
    static let tokenPrefix = "wbs1-"

    /// The text `--replay` takes to run exactly this perturbation again: the value, base64url-encoded.
    public var token: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        let base64 = data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return Self.tokenPrefix + base64
    }

    /// Reads a token printed by a stressed check.
    public init(token: String) throws(CheckError) {
        guard token.hasPrefix(Self.tokenPrefix) else {
            // `wbs2-…` is a token of a later format, not a typo: the remedy is the version that printed it.
            let format = token.prefix { $0 != "-" }
            let number = format.dropFirst(3)
            let otherFormat =
                token.contains("-") && format.hasPrefix("wbs") && !number.isEmpty
                && number.allSatisfy { ("0"..."9").contains($0) }
            throw .token(otherFormat ? .tokenOtherVersion : .notAToken)
        }
        var base64 = String(token.dropFirst(Self.tokenPrefix.count)).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw .token(.tokenUnreadable) }
        do {
            self = try JSONDecoder().decode(Perturbation.self, from: data)
        } catch {
            throw .token(.tokenUnreadable)
        }
        let values =
            nativeDelays + [completionDelay] + (responseDelays ?? [])
            + pauses.flatMap { [$0.at, $0.milliseconds] }
            + [reloadAfter, pauseAtFinish, timerDelay, fault?.milliseconds].compactMap { $0 }
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 60_000 }) else { throw .token(.tokenOutOfRange) }
    }

    // MARK: Shrinking

    /// Smaller perturbations to try, smallest change first: each kind dropped, then each delay dropped, then halved.
    package func shrinkCandidates() -> [Perturbation] {
        var candidates: [Perturbation] = []
        func add(_ change: (inout Perturbation) -> Void) {
            var copy = self
            change(&copy)
            if copy != self, copy.weight < weight, !candidates.contains(copy) { candidates.append(copy) }
        }
        add { $0.nativeDelays = [] }
        add { $0.completionDelay = 0 }
        add { $0.reloadAfter = nil }
        add { $0.pauseAtFinish = nil }
        add { $0.pauses = [] }
        add { $0.timerDelay = nil }
        add { $0.responseDelays = $0.responseDelays.map { $0.map { _ in 0 } } }
        add { $0.fault = nil }
        for index in nativeDelays.indices { add { $0.nativeDelays[index] = 0 } }
        for index in (responseDelays ?? []).indices { add { $0.responseDelays?[index] = 0 } }
        for index in pauses.indices { add { $0.pauses.remove(at: index) } }
        func halve(_ value: Double) -> Double { value < 2 ? 0 : (value / 2 * 10).rounded() / 10 }
        add { $0.nativeDelays = $0.nativeDelays.map(halve) }
        add { $0.responseDelays = $0.responseDelays.map { $0.map(halve) } }
        add { $0.completionDelay = halve($0.completionDelay) }
        add { $0.reloadAfter = $0.reloadAfter.map(halve) }
        add { $0.pauseAtFinish = $0.pauseAtFinish.map { max(1, halve($0)) } }
        add { $0.timerDelay = $0.timerDelay.map { max(1, halve($0)) } }
        add { $0.pauses = $0.pauses.map { Pause(at: $0.at, milliseconds: max(1, halve($0.milliseconds))) } }
        if let fault, fault.milliseconds > 1 {
            add { $0.fault = LifecycleFault(fault.kind, milliseconds: max(1, halve(fault.milliseconds))) }
        }
        return candidates
    }
}
