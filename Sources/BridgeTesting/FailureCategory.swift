import Foundation

/// Which side of the bridge broke, in the words a CI log should show.
public enum FailureCategory: String, Sendable, Codable, CaseIterable {
    /// `webView(_:didFinish:)` never came, or the load failed.
    case pageLoadDidNotFinish = "page load did not finish"
    /// No valid page → native message reached the handler.
    case nativeDidNotReceive = "native did not receive the page's message"
    /// The receiver threw, or the observation point did not show the sent value.
    case pageDidNotAccept = "page did not accept the native message"
    /// A real page could not be fetched: DNS, connection, TLS, timeout or HTTP status >= 400.
    case pageUnreachable = "page not deployed / request failed"
}

/// One named failure: the category first, then what was seen (structure and errors, never message values).
public struct BridgeFailure: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public let category: FailureCategory
    public let detail: String

    public init(_ category: FailureCategory, _ detail: String) {
        self.category = category
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? category.rawValue : "\(category.rawValue): \(detail)" }
}
