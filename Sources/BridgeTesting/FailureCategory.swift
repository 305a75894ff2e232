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

    /// The category's stable name in the JSON report (`native-did-not-receive`); its text is `rawValue`.
    public var identifier: String {
        switch self {
        case .pageLoadDidNotFinish: "page-load-did-not-finish"
        case .nativeDidNotReceive: "native-did-not-receive"
        case .pageDidNotAccept: "page-did-not-accept"
        case .pageUnreachable: "page-unreachable"
        }
    }

    /// The category an identifier names, nil for any other text.
    public init?(identifier: String) {
        guard let category = Self.allCases.first(where: { $0.identifier == identifier }) else { return nil }
        self = category
    }

    /// JSON carries the identifier: text can be reworded, an identifier a dashboard filters on stays.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let category = Self(identifier: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "'\(text)' is not a category (\(Self.allCases.map(\.identifier).joined(separator: ", ")))")
        }
        self = category
    }
}

/// One named failure: the category first, then what was seen (structure and errors, never message values).
///
/// Verdict data in reports, never thrown: the module's one error is `CheckError`.
public struct BridgeFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    public let category: FailureCategory
    public let detail: String

    public init(_ category: FailureCategory, _ detail: String) {
        self.category = category
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? category.rawValue : "\(category.rawValue): \(detail)" }

    private enum CodingKeys: String, CodingKey { case category, categoryText, detail }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(FailureCategory.self, forKey: .category),
            try container.decode(String.self, forKey: .detail))
    }

    /// The category's identifier with its text beside it, then the detail.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(category, forKey: .category)
        try container.encode(category.rawValue, forKey: .categoryText)
        try container.encode(detail, forKey: .detail)
    }
}
