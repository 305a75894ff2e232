import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// Something the page reported about itself while the session ran: an uncaught error, an unhandled promise
/// rejection, or a console message. Its text is the page's own error text, as a receiver's error is; a console
/// message's other arguments are shown by their JS type, never their values.
package struct PageDiagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    package enum Kind: String, Sendable, Codable {
        case uncaughtError = "uncaught error"
        case unhandledRejection = "unhandled rejection"
        case consoleError = "console.error"
        case consoleWarn = "console.warn"
        case consoleLog = "console.log"
        case consoleInfo = "console.info"
        case consoleDebug = "console.debug"
        /// How many console calls the script only counted, past its budget (`PageDiagnostics.consoleBudget`).
        case consoleLeftOff = "console left off"
        /// How many uncaught errors and unhandled rejections were only counted: by the session past
        /// `PageDiagnostics.kept`, and by the script past `PageDiagnostics.errorBudget` (which sends the count).
        case errorsLeftOff = "errors left off"

        /// An error the page did not handle, as opposed to a console message it chose to write.
        package var isUnhandled: Bool { self == .uncaughtError || self == .unhandledRejection }

        /// A count of what was left off past a budget, whose note ends with the last of them.
        package var isLeftOffCount: Bool { self == .consoleLeftOff || self == .errorsLeftOff }

        /// The kind a `page reported` timeline note names (``PageDiagnostic/timelineNote``); nil for another text.
        package init?(timelineNote note: String) { self.init(rawValue: String(note.prefix { $0 != ":" })) }
    }

    package let kind: Kind
    package let text: String
    /// `file:line:column` of the page's script, the file by its name (`app.js:10:38`); empty when unknown.
    package let location: String

    package init(kind: Kind, text: String, location: String) {
        self.kind = kind
        self.text = text
        self.location = location
    }

    /// Its note on the session's timeline (`page reported`): the kind, then the text and where.
    var timelineNote: String { "\(kind.rawValue): \(description)" }

    package var description: String {
        if isHidden { return text + " " + Self.hiddenExplanation }
        if kind == .consoleLeftOff {
            // "99900" or "99900 console.error: line number": the count, then the last call left off.
            let count = text.prefix { $0.isNumber }
            let last = text.dropFirst(count.count).drop { $0 == " " }
            return "\(count) console messages after the first \(PageDiagnostics.consoleBudget) of a document, "
                + "counted only (no place, so logging costs the page what the engine's console does)"
                + (last.isEmpty ? "" : "; the last: \(last)")
        }
        if kind == .errorsLeftOff {
            // "3 uncaught error: TypeError: x (app.js:1:2)": the count, then the last error left off.
            let count = text.prefix { $0.isNumber }
            let last = text.dropFirst(count.count).drop { $0 == " " }
            return "\(count) uncaught errors or unhandled rejections after the first \(PageDiagnostics.kept) "
                + "diagnostics or \(PageDiagnostics.errorBudget) errors of a document, counted only; the last: \(last)"
        }
        return location.isEmpty ? text : "\(text) (\(location))"
    }

    /// An error WebKit muted: what the engine gives for an error in a script of another origin (HTML's rule).
    var isHidden: Bool { kind == .uncaughtError && text == "Script error." && location.isEmpty }

    static let hiddenExplanation =
        "(WebKit hides the text and place of an error in a script of another origin, such as a page file's own script files; load the page over http from one origin to see it)"

    /// The most characters of a diagnostic's text kept: a page that logs a megabyte is not copied into reports.
    static let maximumText = 300

    /// Reads the diagnostics script's report; anything else posted to the handler is ignored.
    init?(report body: Any) {
        guard let report = body as? [String: Any], report["problem"] as? String == "page",
            let kind = (report["kind"] as? String).flatMap(Kind.init(rawValue:)),
            let text = report["text"] as? String
        else { return nil }
        let location = Self.location(
            url: report["url"] as? String ?? "", line: (report["line"] as? NSNumber)?.intValue ?? 0,
            column: (report["column"] as? NSNumber)?.intValue ?? 0)
        self.init(
            kind: kind, text: String(String.UnicodeScalarView(text.unicodeScalars.prefix(Self.maximumText))),
            location: location)
    }

    /// The script's file by its last path component (a page's folder would name no file), then line and column.
    static func location(url: String, line: Int, column: Int) -> String {
        guard line > 0 else { return "" }
        let name = URL(string: url).map { $0.lastPathComponent.isEmpty ? ($0.host ?? "") : $0.lastPathComponent }
        let file = String(String.UnicodeScalarView((name ?? "").unicodeScalars.prefix(120)))
        let parts = [file.isEmpty ? "page" : file, String(line)] + (column > 0 ? [String(column)] : [])
        return parts.joined(separator: ":")
    }
}

/// The script that reports the page's errors and console messages to the session's diagnostics handler.
enum PageDiagnostics {
    /// The console levels shown unless the check asks for all of them.
    static let defaultLevels = ["error", "warn"]
    static let allLevels = ["error", "warn", "log", "info", "debug"]

    /// At most this many diagnostics a session reach the timeline; the rest are counted.
    static let keptOnTimeline = 20
    /// At most this many diagnostics a session keeps; past them only its first unhandled error is kept.
    static let kept = 100
    /// Console calls per document the script reports with their text and place (a stack each, about 350 µs);
    /// past it, it only counts them (the engine's own console costs about 1.4 µs a call) and reports the count
    /// once the page's task ends.
    static let consoleBudget = 100
    /// Uncaught errors and unhandled rejections per document the script reports with their text and place; past
    /// it, it only counts them (no stack read, one message a task), as 100,000 rejections would otherwise keep
    /// the page busy posting them for longer than a check waits.
    static let errorBudget = 100

    /// Keeps `diagnostic` in `kept`: the first `kept` of them, then the first unhandled error (the one a verdict
    /// names) whatever came before it, and the latest count of console calls left off with the last of them. Returns the note to put
    /// on the timeline, or nil: past `keptOnTimeline`, only the first unhandled error and each doubling of the
    /// count left off are noted.
    static func keep(_ diagnostic: PageDiagnostic, in kept: inout [PageDiagnostic]) -> String? {
        if diagnostic.kind == .consoleLeftOff {
            let counted = { (text: String) in Int(text.prefix { $0.isNumber }) ?? 0 }
            let count = counted(diagnostic.text)
            guard let index = kept.firstIndex(where: { $0.kind == .consoleLeftOff }) else {
                kept.append(diagnostic)
                return diagnostic.timelineNote
            }
            let previous = counted(kept[index].text)
            guard count > previous else { return nil }
            kept[index] = diagnostic
            // Halved, not doubled: a count the page forged near Int.max never overflows.
            return count / 2 >= previous ? diagnostic.timelineNote : nil
        }
        let firstUnhandled = diagnostic.kind.isUnhandled && !kept.contains { $0.kind.isUnhandled }
        if diagnostic.kind == .errorsLeftOff
            || (kept.count >= Self.kept && !firstUnhandled && diagnostic.kind.isUnhandled)
        {
            // Past the budget the first error is kept and the others counted, with the last of them; the script's
            // count (of those past its own budget since its last report) adds to the session's.
            let counted = { (text: String) in Int(text.prefix { $0.isNumber }) ?? 0 }
            let added = diagnostic.kind == .errorsLeftOff ? counted(diagnostic.text) : 1
            let last =
                diagnostic.kind == .errorsLeftOff
                ? String(diagnostic.text.drop { $0.isNumber }.drop { $0 == " " })
                : "\(diagnostic.kind.rawValue): \(diagnostic.description)"
            let index = kept.firstIndex { $0.kind == .errorsLeftOff }
            // A page can post to the diagnostics handler itself: a forged count never overflows.
            let sum = (index.map { counted(kept[$0].text) } ?? 0).addingReportingOverflow(added)
            let leftOff = PageDiagnostic(
                kind: .errorsLeftOff, text: "\(sum.overflow ? Int.max : sum.partialValue) \(last)", location: "")
            if let index { kept[index] = leftOff } else { kept.append(leftOff) }
            return leftOff.timelineNote
        }
        guard kept.count < Self.kept || firstUnhandled else { return nil }
        kept.append(diagnostic)
        return kept.count <= keptOnTimeline || firstUnhandled ? diagnostic.timelineNote : nil
    }

    /// The main frame's script: made once per set of levels, as every session of a run uses the same one.
    @MainActor
    static func userScript(console: Bool) -> WKUserScript {
        if let script = scripts[console] { return script }
        let script = WKUserScript(
            source: source(levels: console ? allLevels : defaultLevels), injectionTime: .atDocumentStart,
            forMainFrameOnly: true)
        scripts[console] = script
        return script
    }

    @MainActor private static var scripts: [Bool: WKUserScript] = [:]

    /// Where the diagnostics script takes the name of the user script that runs next (a registered symbol).
    static let userScriptSlot = "webbridge.userScript"

    /// The script run just before (`name`) and just after (nil) one of the app's user scripts, at its injection
    /// time and in its frames, so an error while it runs is named as its own. The script itself is left as written.
    static func marker(_ name: String?) -> String {
        let argument = name.map(ReceiverCall.stringLiteral) ?? "null"
        return """
            (() => { const slot = window[Symbol.for(\(ReceiverCall.stringLiteral(userScriptSlot)))]; if (typeof slot === "function") slot(\(argument)); })();
            """
    }

    static func source(levels: [String]) -> String {
        let levelList = levels.map(ReceiverCall.stringLiteral).joined(separator: ", ")
        return """
            (() => {
              "use strict";
              const handlers = window.webkit && window.webkit.messageHandlers;
              const report = handlers && handlers.\(CloneDiagnostics.handlerName);
              if (!report) return;
              // Taken before the page runs, so a page that replaces them cannot silence its own errors.
              const post = Object.getPrototypeOf(report).postMessage, apply = Reflect.apply;
              const listen = EventTarget.prototype.addEventListener, ErrorType = Error;
              const send = (kind, text, url, line, column) => {
                try { apply(post, report, [{ problem: "page", kind, text, url, line, column }]); } catch (e) {}
              };
              // The page's own error text; any other value by its JS type (never its value).
              const describe = (value) => {
                try {
                  if (typeof value === "string") return value;
                  if (value instanceof ErrorType) return String(value.name) + ": " + String(value.message);
                  if (value === null) return "null";
                  if (Array.isArray(value)) return "Array";
                  return typeof value === "object" ? "Object" : typeof value;
                } catch (e) {
                  return "a value whose text cannot be read";
                }
              };
              // A console message's other arguments: their JS type only, never their value (a string too:
              // `console.error("token:", token)`).
              const typeOf = (value) => {
                try {
                  if (value === null) return "null";
                  if (Array.isArray(value)) return "Array";
                  if (value instanceof ErrorType) return "Error";
                  return typeof value === "object" ? "Object" : typeof value;
                } catch (e) {
                  return "a value whose type cannot be read";
                }
              };
              // "name@url:line:column" of the first frame outside this script, from JavaScriptCore's stack.
              const caller = (stack, skip) => {
                try {
                  const frames = String(stack).split("\\n");
                  const found = /(?:@|\\()?((?:[a-z][a-z0-9+.-]*:)[^\\s]*?):(\\d+):(\\d+)\\)?$/.exec(frames[skip] || "");
                  return found ? [found[1], Number(found[2]), Number(found[3])] : ["", 0, 0];
                } catch (e) {
                  return ["", 0, 0];
                }
              };
              // The app's user script running now, named by the markers around each (see `marker(_:)`): WebKit
              // gives its error no place, and hides its text, so the name is all that says whose error it is.
              let userScript = null;
              Object.defineProperty(window, Symbol.for(\(ReceiverCall.stringLiteral(userScriptSlot))), {
                value: (name) => { userScript = name; }, configurable: false, enumerable: false, writable: false,
              });
              // Past the error budget an error is only counted (no stack read); the count goes once the task ends.
              const later = window.setTimeout;
              let errorsSent = 0, errorsLeftOff = 0, errorsFlushing = false, lastError = "";
              const flushErrors = () => {
                if (!errorsFlushing) return;
                errorsFlushing = false;
                const count = errorsLeftOff;
                errorsLeftOff = 0;
                send("errors left off", String(count) + " " + lastError, "", 0, 0);
              };
              // Whether the error is past the budget: then it is only counted, and kept as the last one.
              const countedOnly = (kind, text) => {
                if (errorsSent < \(errorBudget)) {
                  errorsSent += 1;
                  return false;
                }
                errorsLeftOff += 1;
                if (!errorsFlushing) {
                  errorsFlushing = true;
                  try { apply(later, window, [flushErrors, 0]); } catch (e) { errorsFlushing = false; }
                }
                lastError = kind + ": " + text;
                return true;
              };
              apply(listen, window, ["error", (event) => {
                // Errors of scripts only: a resource that fails to load fires a plain Event with no message.
                if (typeof event.message !== "string" || event.message === "") return;
                // A hidden error ("Script error.", no file) is always sent: the session drops those of its own
                // scripts, and one a task costs the page more than its post does.
                const hidden = event.message === "Script error." && !event.filename;
                if (!hidden && countedOnly("uncaught error", event.message)) return;
                if (userScript !== null) {
                  send("uncaught error", "the app's user script " + userScript + " threw or does not parse: " + event.message, "", 0, 0);
                  return;
                }
                send("uncaught error", event.message, String(event.filename || ""), event.lineno | 0, event.colno | 0);
              }, true]);
              apply(listen, window, ["unhandledrejection", (event) => {
                const reason = event.reason;
                if (countedOnly("unhandled rejection", describe(reason))) return;
                const where = reason instanceof ErrorType ? caller(reason.stack, 0) : ["", 0, 0];
                send("unhandled rejection", describe(reason), where[0], where[1], where[2]);
              }]);
              const console = window.console;
              if (!console) return;
              // Past the budget a call is only counted; the count goes once the page's task ends.
              // The last call counted is kept as is (its values, no text, no stack) and described once, here.
              let written = 0, leftOff = 0, flushing = false, lastLevel = "", lastValues = [];
              const flush = () => {
                if (!flushing) return;
                flushing = false;
                let text = lastValues.length === 0 ? "" : describe(lastValues[0]);
                for (let index = 1; index < lastValues.length; index += 1) text += " " + typeOf(lastValues[index]);
                send("console left off", String(leftOff) + " console." + lastLevel + ": " + text, "", 0, 0);
              };
              for (const level of [\(levelList)]) {
                const original = console[level];
                if (typeof original !== "function") continue;
                console[level] = function (...values) {
                  if (written >= \(consoleBudget)) {
                    leftOff += 1;
                    lastLevel = level;
                    lastValues = values;
                    if (!flushing) {
                      flushing = true;
                      try { apply(later, window, [flush, 0]); } catch (e) { flushing = false; }
                    }
                    return apply(original, this, values);
                  }
                  written += 1;
                  const where = caller(new ErrorType().stack, 1);
                  let text = values.length === 0 ? "" : describe(values[0]);
                  for (let index = 1; index < values.length; index += 1) text += " " + typeOf(values[index]);
                  send("console." + level, text, where[0], where[1], where[2]);
                  return apply(original, this, values);
                };
              }
              // What was counted during the load goes with the load event, before didFinish reaches native: a
              // timer may come after native's answer on a busy machine, and the session may end first.
              apply(listen, window, ["load", () => { flushErrors(); flush(); }, true]);
            })();
            """
    }
}
