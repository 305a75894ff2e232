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
