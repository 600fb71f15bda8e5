import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// When the retry policy gives up, the scope waits for a trigger: the network coming back or
/// the app becoming active.
@Suite struct OutboxStalledScopeTests {
    @Test func exhaustedRetriesPauseTheScopeUntilTheNetworkIsAvailable() throws {
        let policy = try RetryPolicy(maxRetries: 1, initialDelay: .seconds(5), jitter: 0)
        let fixture = OutboxFixture(retryPolicy: policy)
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [
            .retryableFailure(TestError(1)), .retryableFailure(TestError(2)), .sent(),
        ])
        try outbox.enqueueNote("edit")
        let env = fixture.env
        fixture.scheduler.scheduleAt(300) { env.teller.networkDidBecomeAvailable() }
        fixture.scheduler.advanceTo(299)
        #expect(handler.sendCallsCount == 2)
        #expect(outbox.pending.map(\.attempts) == [2])
        #expect(fixture.logged("waiting for the network or the app to become active"))
        fixture.scheduler.start()
        #expect(handler.sendCallsCount == 3)
        #expect(outbox.pending.isEmpty)
    }

    @Test func theAppBecomingActiveAlsoResumesAStalledScope() throws {
        let fixture = OutboxFixture()  // RetryPolicy.never: the first failure stalls the scope
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.retryableFailure(TestError(1)), .sent(), .sent()])
        try outbox.enqueueNote("edit")
        try outbox.enqueueNote("later edit")
        let env = fixture.env
        fixture.scheduler.scheduleAt(100) { env.teller.appDidBecomeActive() }
        fixture.scheduler.advanceTo(99)
        #expect(handler.sentTexts == ["edit"])
        #expect(outbox.pending.count == 2)
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["edit", "edit", "later edit"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func aStalledScopeDoesNotHoldBackOtherScopes() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let handler = OutboxHandlerMock()
        handler.sendClosure = { record in
            .just(record.scope == "broken" ? .retryableFailure(TestError(1)) : .sent())
        }
        outbox.register(kind: "saveNote", send: handler.send)
        try outbox.enqueueNote("stuck", tag: "broken")
        try outbox.enqueueNote("fine", tag: "working")
        try outbox.enqueueNote("also fine", tag: "working")
        fixture.scheduler.start()
        #expect(outbox.pending.map(\.tag) == ["broken"])
        #expect(handler.sentTexts == ["stuck", "fine", "also fine"])
    }
}
