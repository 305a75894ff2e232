import Foundation

/// Which frames may post page → native messages: the main frame always, other frames only from these origins.
public struct FrameRule: Codable, Sendable, Equatable {
    /// Origins (`https://example.com`, `https://example.com:8443`) whose frames may post; `*` allows any.
    public var origins: [String]

    public init(origins: [String]) { self.origins = origins }

    private enum CodingKeys: String, CodingKey, CaseIterable { case origins }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        origins = try decoder.container(keyedBy: CodingKeys.self).decode([String].self, forKey: .origins)
    }

    func check() throws(ContractError) {
        for (index, origin) in origins.enumerated() where origin != "*" && FrameRule.normalized(origin) == nil {
            throw ContractError(
                code: .invalidValue, path: "frames.origins[\(index)]",
                problem: "an origin is a scheme and a host, with an optional port from 1 to 65535, and nothing else",
                remedy: "write it as https://example.com or https://example.com:8443, or \"*\" for any origin")
        }
    }

    /// `scheme://host[:port]` lower-cased, with the scheme's default port left out; nil when not an origin.
    static func normalized(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil,
            url.user == nil, url.port.map({ (1...65535).contains($0) }) ?? true
        else { return nil }
        return origin(scheme: scheme, host: host, port: url.port)
    }

    /// The origin of a frame of a `file:` page, which has no host (so `frames.origins` allows it only as `*`).
    public static let fileOrigin = "file://"

    /// An origin as the frame rule compares it.
    public static func origin(scheme: String, host: String, port: Int?) -> String {
        let defaults = ["http": 80, "https": 443]
        guard let port, port != 0, defaults[scheme.lowercased()] != port else {
            return "\(scheme.lowercased())://\(host.lowercased())"
        }
        return "\(scheme.lowercased())://\(host.lowercased()):\(port)"
    }
}

extension BridgeContract {
    /// Whether a message from this frame counts; the violation names the frame's kind and origin, never a body.
    ///
    /// - Parameter origin: the frame's security origin as `scheme://host[:port]` (empty for an opaque origin).
    public func frameViolation(isMainFrame: Bool, origin makeOrigin: @autoclosure () -> String) -> ContractViolation? {
        // The origin's text is built only for a subframe: the main frame's messages, nearly all of them, need none.
        if isMainFrame { return nil }
        let origin = makeOrigin()
        let allowed = frames?.origins ?? []
        if allowed.contains("*") { return nil }
        if !origin.isEmpty, allowed.contains(where: { FrameRule.normalized($0) == origin }) { return nil }
        let expected =
            allowed.isEmpty ? "the main frame" : "the main frame or a frame of \(allowed.joined(separator: ", "))"
        return ContractViolation(
            path: "frame", rule: .wrongFrame, expected: expected,
            found: origin.isEmpty
                ? "a frame with an opaque origin"
                : origin == FrameRule.fileOrigin
                    ? "a frame of a file: page (a file: origin has no host; frames.origins allows it only as \"*\")"
                    : "a frame of \(origin)")
    }
}
