import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A write the server refuses for good leaves the queue and is listed until the app
/// acknowledges it; the writes after it in its scope still go out.
@Suite struct OutboxRejectionTests {
    @Test func aRejectedWriteLeavesTheQueueIsListedUntilAcknowledgedAndLaterWritesGoOn() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.rejected(TestError(409), after: 3), .sent(after: 3)])
        let rejected = try outbox.enqueueNote("conflicting")
        try outbox.enqueueNote("fine")
        fixture.scheduler.start()

        #expect(handler.sentTexts == ["conflicting", "fine"])
        #expect(outbox.pending.isEmpty)
        #expect(outbox.rejections.map(\.record.id) == [rejected.id])
        #expect(outbox.rejections.first.map { "\($0.error)" } == "TestError(409)")
        #expect(fixture.logged("was rejected: TestError(409)"))

        #expect(outbox.acknowledge(rejectionOf: rejected.id))
        #expect(outbox.rejections.isEmpty)
        #expect(!outbox.acknowledge(rejectionOf: rejected.id))
    }

    @Test func aRejectedWriteIsNotSentAgainAfterARelaunch() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        let handler = fixture.handler([.rejected(TestError(400))])
        outbox?.register(kind: "saveNote", send: handler.send)
        try outbox?.enqueueNote("invalid")
        fixture.scheduler.start()
        outbox = nil

        let relaunched = fixture.outbox()
        relaunched.register(kind: "saveNote", send: handler.send)
        fixture.scheduler.start()
        #expect(handler.sendCallsCount == 1)
        #expect(relaunched.pending.isEmpty)
    }
}
