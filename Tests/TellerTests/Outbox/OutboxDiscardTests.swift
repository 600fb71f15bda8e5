import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Writes leave the outbox unsent only when the app discards them: `Teller.clear()` keeps them.
@Suite struct OutboxDiscardTests {
    @Test func aDiscardedWriteIsNeverSentAndItsScopeGoesOn() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 10), .sent(after: 10)])
        try outbox.enqueueNote("sent")
        let dropped = try outbox.enqueueNote("dropped")
        try outbox.enqueueNote("sent too")
        #expect(try outbox.discard(id: dropped.id))
        #expect(try !outbox.discard(id: dropped.id))
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["sent", "sent too"])
        #expect(outbox.pending.isEmpty)
        #expect(try fixture.journal.journal().records().isEmpty)
    }

    @Test func discardingTheWriteAStalledScopeWaitsOnLetsTheNextOneGo() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.retryableFailure(TestError(1)), .sent()])
        let stuck = try outbox.enqueueNote("stuck")
        try outbox.enqueueNote("next")
        fixture.scheduler.advanceTo(50)
        #expect(handler.sentTexts == ["stuck"])
        try outbox.discard(id: stuck.id)
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["stuck", "next"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func discardAllDropsEveryPendingWriteDurably() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        for text in ["a", "b", "c"] {
            try outbox.enqueueNote(text, tag: text)
        }
        #expect(try outbox.discardAll() == 3)
        #expect(outbox.pending.isEmpty)
        #expect(fixture.outbox().pending.isEmpty)
    }

    @Test func clearingTheTellerKeepsPendingWrites() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let record = try outbox.enqueueNote("keep me")
        fixture.env.teller.clear()
        fixture.env.teller.clear(tag: "notes")
        #expect(outbox.pending == [record])
        #expect(fixture.outbox().pending == [record])
    }
}
