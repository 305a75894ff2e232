import BridgeContract
import Foundation

/// What a session saw, in the order it happened; the hook for XCTest expectations and the CLI.
package enum BridgeEvent {
    case didFinish
    case loadFailed(any Error)
    case httpResponse(statusCode: Int)
    /// A valid page → native message that acknowledges nothing, each time one arrives.
    case message(ValidatedMessage)
    case rejected(BridgeRejection)
    /// WebKit could not clone a message the page posted and dropped it; the handler never saw it.
    case dropped(UncloneableMessage)
    case acknowledgement(ValidatedMessage, Correlation)
    /// The page opened an `alert`, `confirm` or `prompt` dialog (answered at once, as WKWebView does).
    case dialog(DialogKind)
    case webContentProcessTerminated
}

/// A JavaScript dialog the page opened.
package enum DialogKind: String, Sendable {
    case alert, confirm, prompt
}

/// Native's answer to a page → native message that expects one (a reply handler's reply, a prompt's text).
package enum BridgeReply: Sendable {
    /// The reply value, as JSON types.
    case value(JSONValue)
    /// The reply handler's error: the page's promise rejects with this message.
    case error(String)
}

/// A page → native acknowledgement and how it matched the requests: only `matched` settles the current one.
package struct Acknowledgement: Sendable, Equatable {
    public let kind: String
    public let requestID: RequestID
    public let correlation: Correlation
    /// The path of the id in the message, when a correlation rule (not the request id) names it.
    var field: String? = nil
}

/// A page → native message the contract refused: its structure and every violation, never its values.
public struct BridgeRejection: Sendable, Equatable, Codable, CustomStringConvertible {
    public let structure: String
    public let violations: [ContractViolation]

    public var description: String {
        "\(structure): " + violations.map(\.description).joined(separator: "; ")
    }
}
