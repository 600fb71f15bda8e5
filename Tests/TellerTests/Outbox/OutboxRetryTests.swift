import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A send that fails in a way worth retrying is tried again after the Teller's retry policy's
/// delays, on virtual time.
@Suite struct OutboxRetryTests {
    @Test func aRetryableFailureIsRetriedAfterThePolicysDelaysThenSent() throws {
        let policy = try RetryPolicy(maxRetries: 3, initialDelay: .seconds(5), multiplier: 2, jitter: 0)
        let fixture = OutboxFixture(retryPolicy: policy)
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [
            .retryableFailure(TestError(1)), .failing(TestError(2)), .sent(),
        ])
        let record = try outbox.enqueueNote("offline edit")

        fixture.scheduler.advanceTo(6)
        #expect(handler.sendCallsCount == 1)
        #expect(outbox.pending.map(\.attempts) == [1])
        fixture.scheduler.advanceTo(7)  // 5 s after the failure at 1, plus the hop to the background scheduler
        #expect(handler.sendCallsCount == 2)
        fixture.scheduler.advanceTo(17)
        #expect(handler.sendCallsCount == 2)
        fixture.scheduler.advanceTo(18)  // 10 s after the second failure
        #expect(handler.sendCallsCount == 3)
        #expect(handler.sendInvocations.map(\.attempts) == [0, 1, 2])
        #expect(handler.sendInvocations.allSatisfy { $0.idempotencyKey == record.idempotencyKey })
        #expect(outbox.pending.isEmpty)
        #expect(fixture.logged("failed (attempt 1): TestError(1); retrying in"))
    }

    @Test func aSendThatNeverAnswersTimesOutAndIsRetried() throws {
        let policy = try RetryPolicy(maxRetries: 1, initialDelay: .seconds(5), jitter: 0)
        let fixture = OutboxFixture(retryPolicy: policy, fetchTimeout: .seconds(30))
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.never, .sent()])
        try outbox.enqueueNote("slow")
        fixture.scheduler.advanceTo(30)
        #expect(handler.sendCallsCount == 1)
        fixture.scheduler.start()
        #expect(handler.sendCallsCount == 2)
        #expect(outbox.pending.isEmpty)
        #expect(fixture.logged("did not finish within 30.0 s"))
    }
}
