import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// How a script evaluation ended.
package enum EvaluationOutcome {
    case value(Any?)
    case error(any Error)
    case timedOut
}

extension BridgeSession {
    /// Evaluates `script` in the page and waits at most `timeout` seconds for its completion.
    ///
    /// Wraps the completion-handler form: Apple's `async` import of `evaluateJavaScript` has crashed on a nil result.
    public func evaluate(_ script: String, timeout: TimeInterval) async -> EvaluationOutcome {
        await evaluate(script, until: .now() + timeout)
    }

    /// Evaluates `script` in the page and waits for its completion until `deadline`.
    func evaluate(_ script: String, until deadline: DispatchTime) async -> EvaluationOutcome {
        guard let webView else { return .error(SessionClosed()) }
        let box = OutcomeBox()
        ownScriptsRunning += 1
        webView.evaluateJavaScript(script) { [weak self] value, error in
            box.outcome = error.map { .error($0) } ?? .value(value)
            self?.ownScriptsRunning -= 1
            self?.notify()
        }
        _ = await wait(until: deadline) { box.outcome != nil }
        return box.outcome ?? .timedOut
    }

    /// Runs an async function body in the page, its arguments passed by the engine as values (never as code);
    /// nil when it has not completed by `deadline`. A returned promise is awaited.
    func callAsync(_ body: String, arguments: [String: Any] = [:], until deadline: DispatchTime) async -> Result<
        Any?, any Error
    >? {
        guard let webView else { return .failure(SessionClosed()) }
        @MainActor final class Box { var result: Result<Any?, any Error>? }
        let box = Box()
        nonisolated(unsafe) let arguments = arguments
        // The async form is the one both engines share; the wait below bounds it.
        ownScriptsRunning += 1
        Task { @MainActor [weak self] in
            defer { self?.ownScriptsRunning -= 1 }
            do {
                box.result = .success(
                    try await webView.callAsyncJavaScript(body, arguments: arguments, in: nil, contentWorld: .page))
            } catch {
                box.result = .failure(error)
            }
            self?.notify()
        }
        _ = await wait(until: deadline) { box.result != nil }
        return box.result
    }
}

/// The error text the page produced: message, then line and column where the engine tells them.
package func javaScriptErrorText(_ error: any Error) -> String {
    let error = error as NSError
    guard var message = error.userInfo["WKJavaScriptExceptionMessage"] as? String else {
        return error.localizedDescription
    }
    if message.allSatisfy(\.isWhitespace) {
        // A thrown value whose toString throws or gives nothing: the engine has no text to pass on.
        message = "the page threw a value whose text can't be read (its toString threw or returned nothing)"
    }
    var place: [String] = []
    if let source = error.userInfo["WKJavaScriptExceptionSourceURL"] { place.append("\(source)") }
    if let line = error.userInfo["WKJavaScriptExceptionLineNumber"] as? NSNumber { place.append("\(line)") }
    if let column = error.userInfo["WKJavaScriptExceptionColumnNumber"] as? NSNumber { place.append("\(column)") }
    return place.isEmpty ? message : "\(message) (\(place.joined(separator: ":")))"
}

/// The session was torn down before the call. Not a `CheckError` code: it is no mistake anyone fixes, only the end
/// of the session reaching a script still asked of it, which the caller reads as the evaluation's outcome.
private struct SessionClosed: Error, CustomStringConvertible {
    var description: String { "the bridge session was already torn down" }
}

@MainActor
private final class OutcomeBox {
    var outcome: EvaluationOutcome?
}
