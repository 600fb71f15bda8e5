import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `changes` tells every step of a write, in order, on the background scheduler.
@Suite struct OutboxChangesTests {
    @Test func changesTellEveryStepOfAWriteInOrder() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let handler = fixture.handler([.retryableFailure(TestError(1)), .sent(), .rejected(TestError(2))])
        let changes = Locked<[String]>([])
        let subscription = outbox.changes.subscribe(onNext: { change in
            changes.withLock { $0.append(describe(change)) }
        })
        defer { subscription.dispose() }
        try outbox.enqueueNote("sent")
        let rejected = try outbox.enqueueNote("rejected")
        let discarded = try outbox.enqueueNote("discarded")
        try outbox.discard(id: discarded.id)
        outbox.register(kind: "saveNote", send: handler.send)
        fixture.scheduler.start()  // the first attempt fails; RetryPolicy.never stalls the scope
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        outbox.acknowledge(rejectionOf: rejected.id)
        fixture.scheduler.start()

        #expect(
            changes.value == [
                "enqueued sent", "enqueued rejected", "enqueued discarded", "discarded discarded",
                "attempted sent 1", "sent sent", "rejected rejected", "acknowledged rejected",
            ]
        )
        #expect(handler.unusedAnswers == 0)
    }

    private func describe(_ change: OutboxChange) -> String {
        let text = { (record: OutboxRecord) in
            (try? JSONDecoder().decode(NoteEdit.self, from: record.payload).text) ?? "?"
        }
        return switch change {
        case .enqueued(let record): "enqueued \(text(record))"
        case .attempted(let record): "attempted \(text(record)) \(record.attempts)"
        case .sent(let record): "sent \(text(record))"
        case .rejected(let rejection): "rejected \(text(rejection.record))"
        case .discarded(let record): "discarded \(text(record))"
        case .acknowledged(let rejection): "acknowledged \(text(rejection.record))"
        case .reloaded: "reloaded"
        case .conflicted(let conflict): "conflicted \(text(conflict.record))"
        case .conflictResolved(let conflict): "resolved \(text(conflict.record))"
        }
    }
}
