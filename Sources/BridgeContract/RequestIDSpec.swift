/// The request-id field that requests and their acknowledgements carry.
public struct RequestIDSpec: Codable, Sendable, Equatable {
    /// The field name, e.g. `id`; its value is a non-empty string.
    public var field: String

    public init(field: String) { self.field = field }

    private enum CodingKeys: String, CodingKey { case field }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(["field"])
        field = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .field)
    }
}
