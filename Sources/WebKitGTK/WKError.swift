#if os(Linux)
import Foundation

/// The error domain of WebKit's own errors.
public let WKErrorDomain = "WKErrorDomain"

/// A WebKit error, with Apple's codes and raw values.
///
/// `userInfo` is `[String: Any]` as in Apple's bridged error; the values are Foundation objects that are never
/// mutated after creation, hence `@unchecked Sendable` (Apple's struct wraps an `NSError` the same way).
public struct WKError: Error, CustomNSError, Hashable, @unchecked Sendable {
    /// Apple's WKErrorCode values.
    public enum Code: Int, Sendable, Equatable {
        case unknown = 1
        case webContentProcessTerminated = 2
        case webViewInvalidated = 3
        case javaScriptExceptionOccurred = 4
        case javaScriptResultTypeIsUnsupported = 5
        case contentRuleListStoreCompileFailed = 6
        case contentRuleListStoreLookUpFailed = 7
        case contentRuleListStoreRemoveFailed = 8
        case contentRuleListStoreVersionMismatch = 9
        case attributedStringContentFailedToLoad = 10
        case attributedStringContentLoadTimedOut = 11
        case javaScriptInvalidFrameTarget = 12
        case navigationAppBoundDomain = 13
        case javaScriptAppBoundDomain = 14
        case duplicateCredential = 15
        case malformedCredential = 16
        case credentialNotFound = 17

        /// Lets `catch WKError.javaScriptExceptionOccurred` match, as with Apple's bridged errors.
        public static func ~= (match: Code, error: any Error) -> Bool {
            (error as? WKError)?.code == match
        }
    }

    public let code: Code
    /// Details such as the JavaScript exception message, line and column.
    public let userInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { WKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var localizedDescription: String { (userInfo[NSLocalizedDescriptionKey] as? String) ?? Self.describe(code) }

    public static func == (lhs: WKError, rhs: WKError) -> Bool {
        lhs.code == rhs.code && NSDictionary(dictionary: lhs.userInfo).isEqual(to: rhs.userInfo)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var unknown: Code { .unknown }
    public static var webContentProcessTerminated: Code { .webContentProcessTerminated }
    public static var webViewInvalidated: Code { .webViewInvalidated }
    public static var javaScriptExceptionOccurred: Code { .javaScriptExceptionOccurred }
    public static var javaScriptResultTypeIsUnsupported: Code { .javaScriptResultTypeIsUnsupported }
    public static var javaScriptInvalidFrameTarget: Code { .javaScriptInvalidFrameTarget }

    static func describe(_ code: Code) -> String {
        switch code {
        case .webContentProcessTerminated: "The web content process was terminated"
        case .webViewInvalidated: "The WKWebView was invalidated"
        case .javaScriptExceptionOccurred: "A JavaScript exception occurred"
        case .javaScriptResultTypeIsUnsupported: "JavaScript execution returned a result of an unsupported type"
        case .javaScriptInvalidFrameTarget: "JavaScript execution targeted a frame that could not be found"
        default: "An unknown error occurred"
        }
    }
}

/// userInfo keys: the strings Apple's private exception keys are read under, and the engine's original error.
///
/// Apple declares no public constants for them, so they stay internal here; WebKitGTKSupport names them.
package enum ErrorKey {
    package static let exceptionMessage = "WKJavaScriptExceptionMessage"
    package static let exceptionLineNumber = "WKJavaScriptExceptionLineNumber"
    package static let exceptionColumnNumber = "WKJavaScriptExceptionColumnNumber"
    package static let exceptionSourceURL = "WKJavaScriptExceptionSourceURL"
    package static let engineDomain = "WebKitGTKErrorDomain"
    package static let engineCode = "WebKitGTKErrorCode"
    package static let engineMessage = "WebKitGTKErrorMessage"
}

extension WKError {
    /// Builds the exception error from WebKitGTK's "source:line:column: message" text.
    static func javaScriptException(engineMessage: String, domain: String, code: Int) -> WKError {
        let parsed = ExceptionText(engineMessage)
        var info: [String: Any] = [
            ErrorKey.exceptionMessage: parsed.message,
            NSLocalizedDescriptionKey: "A JavaScript exception occurred: \(parsed.message)",
            ErrorKey.engineDomain: domain, ErrorKey.engineCode: code,
        ]
        if let line = parsed.line { info[ErrorKey.exceptionLineNumber] = NSNumber(value: line) }
        if let column = parsed.column { info[ErrorKey.exceptionColumnNumber] = NSNumber(value: column) }
        if let source = parsed.sourceURL, let url = URL(string: source) { info[ErrorKey.exceptionSourceURL] = url }
        return WKError(.javaScriptExceptionOccurred, userInfo: info)
    }
}

/// The parts of WebKitGTK's exception text `<source>:<line>:<column>: <message>`.
struct ExceptionText: Equatable {
    var sourceURL: String?
    var line: Int?
    var column: Int?
    var message: String

    init(_ text: String) {
        message = text
        // The source URL may itself contain colons, so find the first ":<digits>:<digits>: ".
        let chars = Array(text)
        var index = 0
        while index < chars.count {
            if chars[index] == ":", let (line, column, end) = Self.position(chars, from: index + 1) {
                sourceURL = String(chars[0..<index])
                self.line = line
                self.column = column
                message = String(chars[end...])
                return
            }
            index += 1
        }
    }

    private static func position(_ chars: [Character], from start: Int) -> (Int, Int, Int)? {
        func digits(_ from: Int) -> (Int, Int)? {
            var end = from
            while end < chars.count, chars[end].isASCII, chars[end].isNumber { end += 1 }
            guard end > from, let value = Int(String(chars[from..<end])) else { return nil }
            return (value, end)
        }
        guard let (line, afterLine) = digits(start), afterLine < chars.count, chars[afterLine] == ":",
            let (column, afterColumn) = digits(afterLine + 1), afterColumn + 1 < chars.count,
            chars[afterColumn] == ":", chars[afterColumn + 1] == " "
        else { return nil }
        return (line, column, afterColumn + 2)
    }
}
#endif
