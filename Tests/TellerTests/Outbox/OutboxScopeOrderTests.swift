import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Writes of one scope go out one at a time, in the order they were enqueued.
@Suite struct OutboxScopeOrderTests {
    @Test func writesOfOneScopeAreSentOneAtATimeInEnqueueOrder() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: Array(repeating: .sent(after: 10), count: 3))
        for text in ["first", "second", "third"] {
            try outbox.enqueueNote(text)
        }
        var mostInFlight = 0
        fixture.step(to: 100) {
            let answered = 3 - outbox.pending.count
            #expect(handler.sendCallsCount - answered <= 1)
            mostInFlight = max(mostInFlight, handler.sendCallsCount - answered)
        }
        #expect(mostInFlight == 1)
        #expect(handler.sentTexts == ["first", "second", "third"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func aWriteEnqueuedWhileItsScopeIsSendingWaitsForTheOneBefore() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 10), .sent(after: 10)])
        try outbox.enqueueNote("first")
        fixture.scheduler.advanceTo(5)
        try outbox.enqueueNote("second")
        fixture.scheduler.advanceTo(10)
        #expect(handler.sentTexts == ["first"])
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["first", "second"])
        #expect(outbox.pending.isEmpty)
    }
}
