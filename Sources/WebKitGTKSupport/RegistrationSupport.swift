#if os(Linux)
import Foundation
import WebKitGTK

/// Why a handler could not be registered (what Apple reports by raising an exception, which Swift cannot catch).
public struct WKScriptMessageHandlerRegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handler name that was refused.
    public let name: String
    /// Apple's exception text for the refusal.
    public let message: String
    public var description: String { message }
}

extension WKUserContentController {
    /// Registers like `add(_:contentWorld:name:)` but reports a refusal instead of trapping, so tests can observe it.
    public func addRefusingDuplicates(
        _ scriptMessageHandler: any WKScriptMessageHandler, contentWorld: WKContentWorld = .page, name: String
    ) throws(WKScriptMessageHandlerRegistrationError) {
        do throws(RegistrationRefusal) {
            try registerRefusingDuplicates(scriptMessageHandler, contentWorld: contentWorld, name: name)
        } catch {
            throw WKScriptMessageHandlerRegistrationError(name: error.name, message: error.message)
        }
    }

    /// Registers like `addScriptMessageHandler(_:contentWorld:name:)` but reports a refusal instead of trapping.
    public func addRefusingDuplicates(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld = .page,
        name: String
    ) throws(WKScriptMessageHandlerRegistrationError) {
        do throws(RegistrationRefusal) {
            try registerRefusingDuplicates(scriptMessageHandlerWithReply, contentWorld: contentWorld, name: name)
        } catch {
            throw WKScriptMessageHandlerRegistrationError(name: error.name, message: error.message)
        }
    }
}

/// userInfo keys for a JavaScript exception: the strings Apple's private keys are read under.
public let WKJavaScriptExceptionMessage = ErrorKey.exceptionMessage
public let WKJavaScriptExceptionLineNumber = ErrorKey.exceptionLineNumber
public let WKJavaScriptExceptionColumnNumber = ErrorKey.exceptionColumnNumber
public let WKJavaScriptExceptionSourceURL = ErrorKey.exceptionSourceURL

/// userInfo keys that keep the engine's original error next to the mapped one.
public let WebKitGTKErrorDomainKey = ErrorKey.engineDomain
public let WebKitGTKErrorCodeKey = ErrorKey.engineCode
public let WebKitGTKErrorMessageKey = ErrorKey.engineMessage
#endif
