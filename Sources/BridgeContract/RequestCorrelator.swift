import Foundation

/// The id of one request, unique across page loads, sessions and processes.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// How an acknowledgement's id relates to the requests a correlator issued.
public enum Correlation: String, Sendable, Equatable {
    /// It acknowledges the current request, which is now settled.
    case matched
    /// It acknowledges an earlier request that was abandoned or superseded before it was acknowledged.
    case late
    /// It acknowledges a request that was already matched: the acknowledgement came twice.
    case duplicate
    /// No request of this correlator has this id.
    case unknown
}

/// Issues request ids and classifies acknowledgements, so a late reply never satisfies the current request.
///
/// Ids are `<process prefix>-<counter>`: the prefix is random per process and the counter is shared by
/// every correlator of the process, so ids never restart at 1 on a new page load or session.
public struct RequestCorrelator: Sendable {
    /// The request awaiting its acknowledgement, if any.
    public private(set) var current: RequestID?
    private var matched: Set<RequestID> = []
    private var abandoned: Set<RequestID> = []

    public init() {}

    /// Starts a request with a fresh id; a still-pending request is abandoned (its acknowledgement will be `late`).
    public mutating func begin() -> RequestID {
        if let current { abandoned.insert(current) }
        let id = RequestIDSource.shared.next()
        current = id
        return id
    }

    /// Classifies an acknowledgement; only `matched` settles the current request.
    public mutating func settle(_ id: RequestID) -> Correlation {
        if id == current {
            matched.insert(id)
            current = nil
            return .matched
        }
        if matched.contains(id) { return .duplicate }
        if abandoned.contains(id) { return .late }
        return .unknown
    }

    /// Classifies an acknowledgement carrying the id as message text (e.g. `ValidatedMessage.requestID`).
    public mutating func settle(rawID: String) -> Correlation {
        settle(RequestID(rawValue: rawID))
    }

    /// Gives up on a request (e.g. after a timeout); its acknowledgement, if it ever comes, is `late`.
    public mutating func abandon(_ id: RequestID) {
        if id == current { current = nil }
        if !matched.contains(id) { abandoned.insert(id) }
    }
}

/// The process-wide id source: a random prefix and a counter behind a lock.
final class RequestIDSource: @unchecked Sendable {
    static let shared = RequestIDSource()

    let prefix: String
    private let lock = NSLock()
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = String(generator.next(), radix: 36)
    }

    func next() -> RequestID {
        lock.lock()
        counter += 1
        let value = counter
        lock.unlock()
        return RequestID(rawValue: "\(prefix)-\(value)")
    }
}
