import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// What the page itself reported going wrong: an uncaught error, an unhandled promise rejection, or a console
/// message, with where it came from (the file's name and the line, never its folder).
///
/// The text is the page's own error or console text, as a receiver's thrown error is; it is bounded, and the
/// reports escape it.
public struct PageDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// `uncaught`, `muted` (an uncaught error WebKit hid the details of), `rejection`, or a console level (`error`, `warn`, and with `--console` `log`, `info`, `debug`).
    public let kind: String
    public let text: String
    /// The script's file name (`checkout.js`, `page.html`), or "" when the engine gave none.
    public let file: String
    public let line: Int
    public let column: Int

    public init(kind: String, text: String, file: String, line: Int, column: Int) {
        self.kind = kind
        self.text = text
        self.file = file
        self.line = line
        self.column = column
    }

    /// Uncaught errors and rejections are page errors on the timeline; the rest are console messages.
    var event: TimelineEntry.Event { ["uncaught", "muted", "rejection"].contains(kind) ? .pageError : .console }

    /// `uncaught ReferenceError: x is not defined (page.html:10:38)`, `console.warn: slow (app.js:3:9)`.
    public var description: String {
        if kind == "muted" {
            return
                "uncaught error, its text and place hidden by WebKit (a file page's scripts have an opaque origin). Remedy: load the page over http (--url) to see it"
        }
        let label =
            switch kind {
            case "uncaught": "uncaught"
            case "rejection": "unhandled rejection:"
            default: "console.\(kind):"
            }
        let location = file.isEmpty ? "" : " (\(file)\(line > 0 ? ":\(line)" : "")\(column > 0 ? ":\(column)" : ""))"
        return "\(label) \(text)\(location)"
    }

    static let kinds = PageDiagnostics.allConsoleLevels.union(["uncaught", "muted", "rejection"])

    /// Reads the diagnostics script's report; nil for anything else.
    init?(report body: Any) {
        guard let report = body as? [String: Any], report["problem"] as? String == "page",
            let kind = report["kind"] as? String, Self.kinds.contains(kind)
        else { return nil }
        let text = report["text"] as? String ?? ""
        self.init(
            kind: kind, text: String(text.prefix(PageDiagnostics.textLimit)),
            file: Self.fileName(report["file"] as? String ?? ""),
            line: (report["line"] as? NSNumber)?.intValue ?? 0, column: (report["column"] as? NSNumber)?.intValue ?? 0)
    }

    /// A script URL's file name: `file:///…/pages/page.html` → `page.html`; a URL that ends in a folder keeps its
    /// host and path (`example.com/app/`).
    static func fileName(_ url: String) -> String {
        guard !url.isEmpty else { return "" }
        let parsed = URL(string: url)
        if let parsed, !parsed.lastPathComponent.isEmpty, parsed.lastPathComponent != "/", !url.hasSuffix("/") {
            return String(parsed.lastPathComponent.prefix(200))
        }
        let path = (parsed?.path ?? url) + (url.hasSuffix("/") && parsed?.path.hasSuffix("/") == false ? "/" : "")
        return String(((parsed?.host ?? "") + path).prefix(200))
    }
}

/// The script that reports the page's uncaught errors, unhandled rejections and console messages to the
/// diagnostics handler (`CloneDiagnostics.handlerName`).
enum PageDiagnostics {
    /// The console levels recorded by default: what a page means as trouble.
    static let defaultConsoleLevels = ["error", "warn"]
    /// Every level `--console` records.
    static let allConsoleLevels: Set<String> = ["error", "warn", "log", "info", "debug"]
    /// The most characters of one diagnostic's text kept.
    static let textLimit = 500
    /// The most diagnostics a session records on its timeline.
    static let recorded = 20

    @MainActor
    static func userScript(allLevels: Bool) -> WKUserScript {
        let key = allLevels
        if let script = scripts[key] { return script }
        let levels = allLevels ? defaultConsoleLevels + ["log", "info", "debug"] : defaultConsoleLevels
        let script = WKUserScript(
            source: source(levels: levels), injectionTime: .atDocumentStart, forMainFrameOnly: false)
        scripts[key] = script
        return script
    }

    @MainActor private static var scripts: [Bool: WKUserScript] = [:]

    static func source(levels: [String]) -> String {
        let names = levels.map(ReceiverCall.stringLiteral).joined(separator: ", ")
        return """
            (() => {
              "use strict";
              const handlers = window.webkit && window.webkit.messageHandlers;
              const report = handlers && handlers.\(CloneDiagnostics.handlerName);
              if (!report) return;
              // Captured now, before the page's scripts run: the page cannot silence its own errors here.
              const post = report.postMessage.bind(report);
              const send = (kind, text, file, line, column) => {
                try {
                  post({ problem: "page", kind, text: String(text).slice(0, \(textLimit)), file: String(file || ""),
                         line: Number(line) || 0, column: Number(column) || 0 });
                } catch (e) {}
              };
              const describe = (value) => {
                try {
                  if (value instanceof Error) return String(value.name) + ": " + String(value.message);
                  return typeof value === "string" ? value : String(value);
                } catch (e) { return "(a value whose text cannot be read)"; }
              };
              window.addEventListener("error", (event) => {
                // A resource that failed to load is a plain Event; a script error is an ErrorEvent.
                if (!(event instanceof ErrorEvent)) return;
                const error = event.error;
                // WebKit mutes an error of a script whose origin the page's is not ("Script error.", no file):
                // every script of a file page, whose origin is opaque.
                if ((error === undefined || error === null) && !event.filename) { send("muted", "", "", 0, 0); return; }
                send("uncaught", error !== undefined && error !== null ? describe(error) : event.message,
                     event.filename, event.lineno, event.colno);
              }, true);
              window.addEventListener("unhandledrejection", (event) => {
                const reason = event.reason;
                let file = "", line = 0, column = 0;
                // JavaScriptCore gives an Error where it was made.
                try { if (reason instanceof Error) { file = reason.sourceURL; line = reason.line; column = reason.column; } }
                catch (e) {}
                send("rejection", describe(reason), file, line, column);
              });
              for (const level of [\(names)]) {
                const original = console[level];
                if (typeof original !== "function") continue;
                console[level] = function () {
                  let file = "", line = 0, column = 0;
                  try {
                    // The caller's frame, as JavaScriptCore writes it: `name@url:line:column`.
                    const caller = String(new Error().stack).split("\\n")[1] || "";
                    const found = /^(?:.*@)?(.*):(\\d+):(\\d+)$/.exec(caller);
                    if (found) { file = found[1]; line = found[2]; column = found[3]; }
                    // A script's top-level call can be missing from the stack: the running script is the file.
                    else if (document.currentScript && document.currentScript.src) { file = document.currentScript.src; }
                  } catch (e) {}
                  send(level, Array.prototype.map.call(arguments, describe).join(" "), file, line, column);
                  return original.apply(this, arguments);
                };
              }
            })();
            """
    }
}
