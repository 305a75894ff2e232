import Foundation

/// The id of one request, unique across page loads, sessions and processes.
package struct RequestID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// How an acknowledgement's id relates to the requests a correlator issued.
package enum Correlation: String, Sendable, Equatable {
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
package struct RequestCorrelator: Sendable {
    /// The request awaiting its acknowledgement, if any.
    public private(set) var current: RequestID?
    private var currentNumber: UInt64 = 0
    // Counters of this correlator's ids, ascending: an id is issued per call, so a pipelined sender's begin()
    // appends to an array instead of hashing its string into a growing set.
    private var matched = NumberSet()
    private var abandoned = NumberSet()

    public init() {}

    /// Starts a request with a fresh id; a still-pending request is abandoned (its acknowledgement will be `late`).
    public mutating func begin() -> RequestID {
        if current != nil { abandoned.insert(currentNumber) }
        let (id, number) = RequestIDSource.shared.nextNumbered()
        current = id
        currentNumber = number
        return id
    }

    /// Classifies an acknowledgement; only `matched` settles the current request.
    public mutating func settle(_ id: RequestID) -> Correlation {
        if id == current {
            matched.insert(currentNumber)
            current = nil
            return .matched
        }
        guard let number = RequestIDSource.shared.number(of: id) else { return .unknown }
        if matched.contains(number) { return .duplicate }
        if abandoned.contains(number) { return .late }
        return .unknown
    }

    /// Classifies an acknowledgement carrying the id as message text (e.g. `ValidatedMessage.requestID`).
    public mutating func settle(rawID: String) -> Correlation {
        settle(RequestID(rawValue: rawID))
    }

    /// Gives up on a request (e.g. after a timeout); its acknowledgement, if it ever comes, is `late`.
    public mutating func abandon(_ id: RequestID) {
        guard let number = id == current ? currentNumber : RequestIDSource.shared.number(of: id) else { return }
        if id == current { current = nil }
        if !matched.contains(number) { abandoned.insert(number) }
    }
}

/// Ascending counters: appending is the common case, lookups are binary searches.
private struct NumberSet: Sendable {
    private var numbers: [UInt64] = []

    mutating func insert(_ number: UInt64) {
        if numbers.last.map({ $0 < number }) ?? true { return numbers.append(number) }
        let index = firstIndex(notBelow: number)
        if index == numbers.count || numbers[index] != number { numbers.insert(number, at: index) }
    }

    func contains(_ number: UInt64) -> Bool {
        let index = firstIndex(notBelow: number)
        return index < numbers.count && numbers[index] == number
    }

    private func firstIndex(notBelow number: UInt64) -> Int {
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The process-wide id source: a random prefix and a counter behind a lock.
final class RequestIDSource: @unchecked Sendable {
    static let shared = RequestIDSource()

    let prefix: String
    /// `prefix` and the dash, joined once: an id is then one concatenation.
    private let stem: String
    private let lock = NSLock()
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = String(generator.next(), radix: 36)
        stem = prefix + "-"
    }

    func next() -> RequestID { nextNumbered().id }

    /// A fresh id and its counter.
    func nextNumbered() -> (id: RequestID, number: UInt64) {
        lock.lock()
        counter += 1
        let value = counter
        lock.unlock()
        return (RequestID(rawValue: stem + String(value)), value)
    }

    /// The counter of an id this source issued (`<prefix>-<counter>`), or nil for anyone else's.
    func number(of id: RequestID) -> UInt64? {
        let text = id.rawValue.utf8
        guard let dash = text.lastIndex(of: UInt8(ascii: "-")),
            text[..<dash].elementsEqual(prefix.utf8)
        else { return nil }
        let digits = text[text.index(after: dash)...]
        // Only what `nextNumbered` writes: ASCII digits without a leading zero (no "+1", no "01").
        guard !digits.isEmpty, digits.first != UInt8(ascii: "0"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return UInt64(Substring(digits))
    }
}
