import Foundation

/// The page's virtual clock for stressed sessions (Resources/PageClock.js): the page's timers and the time it reads
/// move only when the check advances them, so the order of the page's timers and native's actions is the
/// perturbation's, not the machine's.
package enum PageClock {
    /// The message handler the clock tells the time to its next timer on.
    package static let handlerName = "webbridgeClock"

    /// The user script that installs the clock, for the main frame at document start; every timer fires `late`
    /// milliseconds after its delay (the perturbation's late timers).
    package static func userScript(late: Double = 0) -> String {
        "(\(source))(\(late), \"\(handlerName)\");"
    }

    /// The expression that advances the clock by `milliseconds` and evaluates to `{next, anchors}`.
    package static func advance(_ milliseconds: Double) -> String {
        "window.__webbridgeClock.advance(\(milliseconds))"
    }

    private static let source: String = {
        guard let url = Bundle.module.url(forResource: "PageClock", withExtension: "js"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            // The resource is declared in Package.swift; a missing file is a broken build, not user input.
            preconditionFailure("PageClock.js is missing from the BridgeTesting resources: rebuild the package")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }()
}
