import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// While the network is known to be down, the outbox starts no send; the network coming back
/// resumes it.
@Suite struct OutboxNetworkPauseTests {
    @Test func networkDidBecomeUnavailableStopsNewSendsUntilTheNetworkIsBack() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 10), .sent(after: 10), .sent(after: 10)])
        try outbox.enqueueNote("under way")
        fixture.scheduler.advanceTo(5)
        outbox.networkDidBecomeUnavailable()
        try outbox.enqueueNote("made offline")
        try outbox.enqueueNote("made offline too", tag: "other")
        fixture.scheduler.advanceTo(200)
        // The send under way finished; nothing new started.
        #expect(handler.sentTexts == ["under way"])
        #expect(outbox.pending.count == 2)
        #expect(outbox.pending(tag: "other").map(\.tag) == ["other"])

        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["under way", "made offline", "made offline too"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func theNetworkComingBackCutsARetryDelayShort() throws {
        let policy = try RetryPolicy(maxRetries: 3, initialDelay: .seconds(1_000), maxDelay: .seconds(1_000), jitter: 0)
        let fixture = OutboxFixture(retryPolicy: policy)
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.retryableFailure(TestError(1)), .sent()])
        try outbox.enqueueNote("edit")
        fixture.scheduler.advanceTo(10)
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.advanceTo(11)
        #expect(handler.sendCallsCount == 2)
        #expect(outbox.pending.isEmpty)
    }
}
