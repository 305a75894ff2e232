#if os(Linux)
import CWebKitGTK
import Foundation
internal import WebKitGTKHost

// Running a script in a WKWebView's page and turning the engine's result into Apple's value or WKError.

extension WKWebView {
    enum Script {
        case evaluate(String)
        case callAsync(String)
    }

    func run(
        _ script: Script, world: WKContentWorld,
        completion: @escaping @MainActor (Result<ResultValue, any Error>) -> Void
    ) {
        guard let view else {
            let error: any Error = environmentError ?? WKError(.webViewInvalidated)
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(.failure(error)) } }
            return
        }
        let box = Unmanaged.passRetained(ScriptCompletion(completion)).toOpaque()
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let completion = Unmanaged<ScriptCompletion>.fromOpaque(data).takeRetainedValue()
            MainActor.assumeIsolated { completion.finish(source: source, result: result) }
        }
        switch script {
        case .evaluate(let source):
            webkit_web_view_evaluate_javascript(view, source, -1, world.name, nil, nil, callback, box)
        case .callAsync(let body):
            webkit_web_view_call_async_javascript_function(view, body, -1, nil, world.name, nil, nil, callback, box)
        }
        MainContextDriver.shared.scheduleService()
    }
}

/// A script result, boxed so it can cross a continuation (it is only ever used on the main actor).
struct ResultValue: @unchecked Sendable {
    let value: Any?
}

/// Turns the engine's async result into Apple's result or WKError.
@MainActor
final class ScriptCompletion {
    private let completion: @MainActor (Result<ResultValue, any Error>) -> Void
    private let isCallAsync: Bool

    init(_ completion: @escaping @MainActor (Result<ResultValue, any Error>) -> Void, isCallAsync: Bool = false) {
        self.completion = completion
        self.isCallAsync = isCallAsync
    }

    func finish(source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let view = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self)
        // Both finish functions share the same GTask-based result.
        let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
        if let error {
            defer { g_error_free(error) }
            completion(.failure(Self.wkError(error.pointee)))
            return
        }
        guard let value else { completion(.success(ResultValue(value: nil))); return }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        do {
            completion(.success(ResultValue(value: try JSValueConversion.foundationValue(value))))
        } catch {
            completion(
                .failure(
                    WKError(
                        .javaScriptResultTypeIsUnsupported,
                        userInfo: [
                            NSLocalizedDescriptionKey: WKError.describe(.javaScriptResultTypeIsUnsupported)
                        ])))
        }
    }

    static func wkError(_ error: GError) -> WKError {
        let message = error.message.map { String(cString: $0) } ?? ""
        let domain = String(cString: g_quark_to_string(error.domain))
        if error.domain == cwk_javascript_error_quark() {
            switch error.code {
            case Int32(WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT.rawValue):
                return WKError(
                    .javaScriptResultTypeIsUnsupported,
                    userInfo: [
                        NSLocalizedDescriptionKey: WKError.describe(.javaScriptResultTypeIsUnsupported),
                        ErrorKey.engineDomain: domain, ErrorKey.engineCode: Int(error.code),
                        ErrorKey.engineMessage: message,
                    ])
            default:
                return WKError.javaScriptException(engineMessage: message, domain: domain, code: Int(error.code))
            }
        }
        return WKError(
            .unknown,
            userInfo: [
                NSLocalizedDescriptionKey: message, ErrorKey.engineDomain: domain,
                ErrorKey.engineCode: Int(error.code),
                ErrorKey.engineMessage: message,
            ])
    }
}
#endif
