import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A rejection is kept in the journal until the app acknowledges it: a relaunched outbox (a
/// new one on the same journal) lists it again, and forgets it once acknowledged.
@Suite struct OutboxRejectionRelaunchTests {
    @Test func aRejectionIsListedAfterARelaunchUntilAcknowledged() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        let handler = fixture.handler([.retryableFailure(TestError(503)), .rejected(TestError(409))])
        outbox?.register(kind: "saveNote", send: handler.send)
        let rejected = try #require(try outbox?.enqueueNote("conflicting"))
        fixture.scheduler.advanceTo(10)
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.advanceTo(20)
        let before = try #require(outbox?.rejections.first)
        outbox = nil

        var relaunched: TellerOutbox? = fixture.outbox()
        relaunched?.register(kind: "saveNote", send: handler.send)
        fixture.scheduler.start()
        let after = try #require(relaunched?.rejections.first)
        #expect(relaunched?.rejections.count == 1)
        #expect(after.record == before.record)
        #expect(after.record.id == rejected.id)
        #expect(after.record.attempts == 1)
        #expect(after.rejectedAt == before.rejectedAt)
        #expect(after.error as? OutboxRejectionReason == OutboxRejectionReason("TestError(409)"))
        #expect("\(after)" == "\(before)")
        #expect(relaunched?.pending.isEmpty == true)
        #expect(handler.sendCallsCount == 2)

        #expect(relaunched?.acknowledge(rejectionOf: rejected.id) == true)
        relaunched = nil
        #expect(fixture.outbox().rejections.isEmpty)
    }

    @Test func anotherOutboxOnTheJournalListsTheRejectionAndSeesItsAcknowledgement() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, _) = fixture.outbox(answering: [.rejected(TestError(400))])
        let rejected = try outbox.enqueueNote("invalid")
        fixture.scheduler.start()

        let other = fixture.outbox()
        #expect(other.rejections.map(\.record.id) == [rejected.id])
        #expect(other.acknowledge(rejectionOf: rejected.id))
        // The first outbox reads the journal again at the next trigger.
        fixture.env.teller.appDidBecomeActive()
        #expect(outbox.rejections.isEmpty)
    }
}
