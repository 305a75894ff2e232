import Foundation
import Testing

@testable import BridgeContract

@Suite("Request-id correlation")
struct RequestCorrelatorTests {
    @Test("the acknowledgement of the current request matches, once")
    func matchedThenDuplicate() {
        var correlator = RequestCorrelator()
        let id = correlator.begin()
        #expect(correlator.settle(id) == .matched)
        #expect(correlator.current == nil)
        #expect(correlator.settle(id) == .duplicate)
    }

    @Test("a late acknowledgement of an earlier request never settles the current one")
    func lateNeverSettlesCurrent() {
        var correlator = RequestCorrelator()
        let first = correlator.begin()
        let second = correlator.begin()
        #expect(correlator.settle(first) == .late)
        #expect(correlator.current == second)
        #expect(correlator.settle(second) == .matched)
    }

    @Test("an abandoned request's acknowledgement is late")
    func abandonedIsLate() {
        var correlator = RequestCorrelator()
        let id = correlator.begin()
        correlator.abandon(id)
        #expect(correlator.current == nil)
        #expect(correlator.settle(id) == .late)
    }

    @Test("an id this correlator never issued is unknown, and leaves the current request pending")
    func unknown() {
        var correlator = RequestCorrelator()
        let id = correlator.begin()
        #expect(correlator.settle(rawID: "1") == .unknown)
        var other = RequestCorrelator()
        #expect(correlator.settle(other.begin()) == .unknown)
        #expect(correlator.current == id)
        #expect(correlator.settle(rawID: id.rawValue) == .matched)
    }

    @Test("after thousands of pipelined requests, each earlier one is late, the current one matches, then duplicates")
    func pipelinedRequests() {
        var correlator = RequestCorrelator()
        var other = RequestCorrelator()
        var issued: [RequestID] = []
        for index in 0..<5_000 {
            issued.append(correlator.begin())
            if index % 7 == 0 { _ = other.begin() }  // another session's ids interleave with these
        }
        let last = issued.removeLast()
        #expect(issued.allSatisfy { correlator.settle($0) == .late })
        #expect(correlator.settle(other.current!) == .unknown)
        #expect(correlator.settle(last) == .matched)
        #expect(correlator.settle(last) == .duplicate)
    }

    @Test("an id that only looks like one of ours is unknown: another prefix, a sign, a leading zero, no digits")
    func lookalikesAreUnknown() throws {
        var correlator = RequestCorrelator()
        let id = correlator.begin()
        correlator.abandon(id)
        let dash = try #require(id.rawValue.lastIndex(of: "-"))
        let prefix = id.rawValue[..<dash]
        let number = id.rawValue[id.rawValue.index(after: dash)...]
        let lookalikes = [
            "x\(prefix)-\(number)", "\(prefix)-+\(number)", "\(prefix)-0\(number)", "\(prefix)-", "\(number)",
        ]
        for lookalike in lookalikes {
            #expect(correlator.settle(rawID: lookalike) == .unknown, "\(lookalike)")
        }
        #expect(correlator.settle(id) == .late)
    }

    @Test("ids abandoned out of order are each late; a matched one stays a duplicate")
    func abandonOutOfOrder() {
        var correlator = RequestCorrelator()
        var other = RequestCorrelator()
        let first = correlator.begin()
        let between = other.begin()  // issued between this correlator's ids
        let second = correlator.begin()
        #expect(correlator.settle(second) == .matched)
        let third = correlator.begin()
        correlator.abandon(third)
        correlator.abandon(between)  // given up on here too, below the last abandoned id
        correlator.abandon(first)  // already abandoned by the second begin(): no change
        #expect(correlator.current == nil)
        #expect([first, between, third].map { correlator.settle($0) } == [.late, .late, .late])
        correlator.abandon(second)
        #expect(correlator.settle(second) == .duplicate)
    }

    @Test("ids are unique across correlators (sessions, page loads) and never restart at 1")
    func uniqueAcrossCorrelators() {
        var seen = Set<RequestID>()
        var repeated = 0
        for _ in 0..<50 {
            var correlator = RequestCorrelator()  // a new session or page load
            for _ in 0..<20 where !seen.insert(correlator.begin()).inserted { repeated += 1 }
        }
        #expect(repeated == 0, "\(repeated) ids were issued twice")
        #expect(!seen.contains(RequestID(rawValue: "1")))
        #expect(seen.allSatisfy { $0.rawValue.count > 4 && $0.rawValue.contains("-") })
    }

    @Test("ids are unique across processes: each process draws its own random prefix")
    func uniqueAcrossProcesses() {
        // A new RequestIDSource is what a new process gets; its counter starts over, its prefix doesn't.
        let sources = (0..<100).map { _ in RequestIDSource() }
        #expect(Set(sources.map(\.prefix)).count == sources.count)
        let firstIDs = sources.map { $0.next() }
        #expect(Set(firstIDs).count == firstIDs.count)
    }
}
