#if os(Linux)
import CWebKitGTK
import Foundation

/// Maps engine load errors (GLib, libsoup, WebKitGTK) to the NSErrors Apple's WebKit reports.
///
/// Network failures become `NSURLErrorDomain` codes so callers can classify them (DNS, refused,
/// TLS, timeout); policy failures keep WebKit's own domain. The engine's domain, code and message
/// stay in `userInfo` under `ErrorKey.engineDomain`, `ErrorKey.engineCode`, `ErrorKey.engineMessage`.
enum LoadErrorMapping {
    /// Apple's domain for WebKit policy errors (e.g. 102, frame load interrupted).
    static let webKitErrorDomain = "WebKitErrorDomain"

    static func nsError(domain: GQuark, code: Int32, message: String, failingURL: String?) -> NSError {
        let domainName = String(cString: g_quark_to_string(domain))
        let (mappedDomain, mappedCode) = map(domain: domain, code: code, message: message)
        var info: [String: Any] = [
            ErrorKey.engineDomain: domainName, ErrorKey.engineCode: Int(code), ErrorKey.engineMessage: message,
            NSLocalizedDescriptionKey: message,
        ]
        if let failingURL {
            info["NSErrorFailingURLStringKey"] = failingURL
            if let url = URL(string: failingURL) { info[NSURLErrorFailingURLErrorKey] = url }
        }
        return NSError(domain: mappedDomain, code: mappedCode, userInfo: info)
    }

    /// The ports the Fetch standard blocks ("bad ports"), which WebKit refuses to load from.
    static let restrictedPorts: Set<Int> = [
        1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109,
        110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530,
        531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045,
        4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
    ]

    /// Apple's error for a load from a restricted port (WebKitErrorCannotUseRestrictedPort, 103), or nil.
    static func restrictedPortError(_ url: URL) -> NSError? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let port = url.port, restrictedPorts.contains(port)
        else { return nil }
        return NSError(
            domain: webKitErrorDomain, code: 103,
            userInfo: [
                NSLocalizedDescriptionKey: "Not allowed to use restricted network port",
                "NSErrorFailingURLStringKey": url.absoluteString, NSURLErrorFailingURLErrorKey: url,
            ])
    }

    static func map(domain: GQuark, code: Int32, message: String) -> (String, Int) {
        if domain == cwk_resolver_error_quark() {
            return (
                NSURLErrorDomain,
                code == Int32(G_RESOLVER_ERROR_TEMPORARY_FAILURE.rawValue)
                    ? NSURLErrorDNSLookupFailed : NSURLErrorCannotFindHost
            )
        }
        if domain == cwk_tls_error_quark() {
            // A certificate problem is "untrusted"; a handshake or protocol failure is a failed secure connection.
            let badCertificate = UInt32(code) == G_TLS_ERROR_BAD_CERTIFICATE.rawValue
            return (
                NSURLErrorDomain,
                badCertificate ? NSURLErrorServerCertificateUntrusted : NSURLErrorSecureConnectionFailed
            )
        }
        if domain == cwk_io_error_quark() {
            switch UInt32(code) {
            case G_IO_ERROR_CONNECTION_REFUSED.rawValue: return (NSURLErrorDomain, NSURLErrorCannotConnectToHost)
            case G_IO_ERROR_TIMED_OUT.rawValue: return (NSURLErrorDomain, NSURLErrorTimedOut)
            case G_IO_ERROR_HOST_UNREACHABLE.rawValue: return (NSURLErrorDomain, NSURLErrorCannotConnectToHost)
            case G_IO_ERROR_NETWORK_UNREACHABLE.rawValue: return (NSURLErrorDomain, NSURLErrorNotConnectedToInternet)
            case G_IO_ERROR_CANCELLED.rawValue: return (NSURLErrorDomain, NSURLErrorCancelled)
            case G_IO_ERROR_HOST_NOT_FOUND.rawValue: return (NSURLErrorDomain, NSURLErrorCannotFindHost)
            case G_IO_ERROR_CONNECTION_CLOSED.rawValue, G_IO_ERROR_BROKEN_PIPE.rawValue:
                return (NSURLErrorDomain, NSURLErrorNetworkConnectionLost)
            default: return (NSURLErrorDomain, NSURLErrorUnknown)
            }
        }
        if domain == cwk_network_error_quark() {
            switch code {
            case Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue): return (NSURLErrorDomain, NSURLErrorCancelled)
            case Int32(WEBKIT_NETWORK_ERROR_UNKNOWN_PROTOCOL.rawValue):
                return (NSURLErrorDomain, NSURLErrorUnsupportedURL)
            case Int32(WEBKIT_NETWORK_ERROR_FILE_DOES_NOT_EXIST.rawValue):
                return (NSURLErrorDomain, NSURLErrorFileDoesNotExist)
            default: return (NSURLErrorDomain, classify(message))
            }
        }
        if domain == cwk_policy_error_quark() { return (webKitErrorDomain, Int(code)) }
        return (NSURLErrorDomain, classify(message))
    }

    /// WebKitGTK often reports transport failures as a generic network error; fall back on the message.
    static func classify(_ message: String) -> Int {
        let text = message.lowercased()
        if text.contains("could not connect") || text.contains("connection refused") {
            return NSURLErrorCannotConnectToHost
        }
        if text.contains("resolve") || text.contains("name or service not known") || text.contains("not found") {
            return NSURLErrorCannotFindHost
        }
        if text.contains("certificate") || text.contains("tls") || text.contains("ssl") {
            return NSURLErrorSecureConnectionFailed
        }
        if text.contains("timed out") || text.contains("timeout") { return NSURLErrorTimedOut }
        return NSURLErrorUnknown
    }
}
#endif
