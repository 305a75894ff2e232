import Foundation

// The real text and place of an error WebKit hid from the page, from the engine's own console.
//
// WebKit gives the page's error event only "Script error." for an error in a script of another origin (a page
// file's own script files are each their own origin), but logs the error to its console in full: what it did not
// dispatch unhidden (a handler that cancels the event stops both). Where the engine's console is heard
// (``EngineConsole``), each such log arrives after the page's own report of the same error, on the same channel
// from the same web process, so the n-th log of an uncaught error gives the text of the n-th hidden error
// reported. A log with no hidden error waiting is one the page already reported in full (an http page's): it is
// dropped, so nothing is reported twice.

extension BridgeSession {
    /// A hidden error was reported: `kept` when the session kept it (not its own evaluation's, not past a budget).
    func awaitText(kept: Bool) {
        // Bounded like the diagnostics kept: a page throwing in a loop never grows it past a budget.
        guard hiddenErrorsAwaitingText.count < PageDiagnostics.kept * 2 else { return }
        hiddenErrorsAwaitingText.append(kept)
    }

    /// The engine logged an uncaught error with its real text, script and line: it replaces the hidden error it
    /// matches, in the diagnostics and on the timeline (the note at the same time), with the same rules as one the
    /// page reported (its text as the page's own error text, its script by file name).
    func engineReported(text: String, url: String, line: Int) {
        guard !hiddenErrorsAwaitingText.isEmpty, hiddenErrorsAwaitingText.removeFirst(),
            let index = pageDiagnostics.firstIndex(where: \.isHidden)
        else { return }
        let hidden = pageDiagnostics[index]
        let shown = PageDiagnostic(
            kind: .uncaughtError,
            text: String(String.UnicodeScalarView(text.unicodeScalars.prefix(PageDiagnostic.maximumText))),
            location: PageDiagnostic.location(url: url, line: line, column: 0))
        pageDiagnostics[index] = shown
        if let entry = timeline.firstIndex(where: { $0.event == .pageReported && $0.note == hidden.timelineNote }) {
            timeline[entry] = TimelineEntry(
                event: .pageReported, milliseconds: timeline[entry].milliseconds, note: shown.timelineNote)
        }
        wakeWaiters()
    }
}
