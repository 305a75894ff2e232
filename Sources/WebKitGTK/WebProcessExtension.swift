#if os(Linux)
import CWebKitGTK
import Foundation

/// WebBridge's web process extension (Sources/WebBridgeWebExtension, a library beside the binary), which hears the
/// engine's console in each web process and sends the view the real text and place of an uncaught error that WebKit
/// hid from the page as "Script error." (see ``WKWebView/engineUncaughtError``). Not Apple API: Apple's WebKit has
/// no such extension, and without it a view behaves as one of Apple's.
package enum WebProcessExtension {
    /// The library's file name, as the product builds it (the extension's header names the same).
    static let fileName = "libWebBridgeWebExtension.so"
    /// The user message the extension sends its view, with parameters (ssu): text, script URL, line.
    static let messageName = "webbridge.uncaught-error"

    /// The folder the engine loads the extension from (the binary's own, by its real path), or why it cannot.
    package static let folder: Result<String, Unavailable> = locate()

    /// Why the extension is not loaded: the reason, for a check's verbose output.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Tells `context` to load the extension into its web processes: before its first view starts one. Only a
    /// context that is not ephemeral gets console messages there (``EngineDataFolder``).
    static func install(on context: UnsafeMutablePointer<WebKitWebContext>) {
        guard case .success(let folder) = folder, quietRuntime else { return }
        webkit_web_context_set_web_extensions_directory(context, folder)
    }

    /// The library links the Swift runtime, whose crash handler would catch the web process's own signals (a
    /// SIGQUIT to the check's process group printed "Program crashed" from each web process). The engine starts
    /// its processes with this process's environment: they get the runtime's handler off; this process keeps its
    /// own, set up when it started.
    private static let quietRuntime: Bool = {
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        return true
    }()

    /// The engine loads every library in the folder it is given: only a folder that holds ours and no other will do.
    private static func locate() -> Result<String, Unavailable> {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder + "/" + fileName) else {
            return .failure(
                Unavailable(
                    description: "\(fileName) is not beside the binary (build or install it with the binary: "
                        + "`make build`, `make install`)"))
        }
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".so") && $0 != fileName }
        guard others.isEmpty else {
            return .failure(
                Unavailable(
                    description: "the binary's folder also holds \(others.count) other libraries, which the engine "
                        + "would load into every web process with \(fileName)"))
        }
        return .success(folder)
    }

    /// The extension's report of an uncaught error: its text, script URL and line; nil for any other message.
    static func uncaughtError(_ message: UnsafeMutablePointer<WebKitUserMessage>) -> (
        text: String, url: String, line: Int
    )? {
        guard let name = webkit_user_message_get_name(message), String(cString: name) == messageName,
            let parameters = webkit_user_message_get_parameters(message),
            let type = g_variant_get_type_string(parameters), String(cString: type) == "(ssu)"
        else { return nil }
        let string = { (index: Int) -> String in
            guard let child = g_variant_get_child_value(parameters, gsize(index)) else { return "" }
            defer { g_variant_unref(child) }
            return g_variant_get_string(child, nil).map { String(cString: $0) } ?? ""
        }
        guard let lineValue = g_variant_get_child_value(parameters, 2) else { return nil }
        defer { g_variant_unref(lineValue) }
        return (string(0), string(1), Int(g_variant_get_uint32(lineValue)))
    }
}
#endif
