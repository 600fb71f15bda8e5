import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Writes of different scopes go out in parallel, never more at once than the outbox's bound.
@Suite struct OutboxParallelScopesTests {
    @Test func writesOfDifferentScopesAreSentInParallelUpToTheBound() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(
            answering: Array(repeating: .sent(after: 10), count: 5),
            maxConcurrentSends: 2
        )
        for (index, tag) in ["a", "b", "c", "a", "b"].enumerated() {
            try outbox.enqueueNote("\(tag)\(index)", tag: tag)
        }
        var mostInFlight = 0
        fixture.step(to: 100) {
            let inFlight = handler.sendCallsCount - (5 - outbox.pending.count)
            #expect(inFlight <= 2)
            mostInFlight = max(mostInFlight, inFlight)
        }
        #expect(mostInFlight == 2)
        #expect(Set(handler.sentTexts) == ["a0", "b1", "c2", "a3", "b4"])
        // Each scope's writes in order.
        #expect(handler.sentTexts.filter { $0.hasPrefix("a") } == ["a0", "a3"])
        #expect(handler.sentTexts.filter { $0.hasPrefix("b") } == ["b1", "b4"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func theFirstWritesOfTwoScopesStartTogether() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 10), .sent(after: 10)])
        try outbox.enqueueNote("a", tag: "a")
        try outbox.enqueueNote("b", tag: "b")
        fixture.scheduler.advanceTo(1)
        #expect(handler.sentTexts == ["a", "b"])
        fixture.scheduler.start()
        #expect(outbox.pending.isEmpty)
    }

    @Test func aBoundBelowOneIsLoggedAndOneIsUsed() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 10), .sent(after: 10)], maxConcurrentSends: 0)
        #expect(outbox.maxConcurrentSends == 1)
        #expect(fixture.logged("maxConcurrentSends is 0"))
        try outbox.enqueueNote("a", tag: "a")
        try outbox.enqueueNote("b", tag: "b")
        fixture.scheduler.advanceTo(5)
        #expect(handler.sentTexts == ["a"])
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["a", "b"])
    }
}
