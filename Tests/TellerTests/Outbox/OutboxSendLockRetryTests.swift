import Foundation
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@testable import Teller

/// A send lock held only for a moment (a child process being spawned holds a copy of every
/// descriptor until it runs its program) does not leave writes waiting for the next trigger:
/// the outbox looks at the lock again a few times, spread out.
@Suite struct OutboxSendLockRetryTests {
    let fixture = OutboxFixture()

    /// Takes the outbox's send lock, as another process (or a moment's holder) would.
    private func holdSendLock() throws -> Int32 {
        let folder = fixture.journal.url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try #require(try FileLock.tryAcquire(path: fixture.journal.url.path + ".send-lock"))
    }

    @Test func aWriteEnqueuedWhileTheSendLockIsHeldForAMomentIsSentWithoutATrigger() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent()])
        let holder = try holdSendLock()

        try outbox.enqueueNote("edit")
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)
        #expect(handler.sendInvocations.isEmpty)

        FileLock.release(holder)
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["edit"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func aLockHeldForGoodIsLookedAtAFewTimesThenLeftToTheTriggers() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent()])
        let holder = try holdSendLock()
        defer { FileLock.release(holder) }

        let enqueuedAt = fixture.scheduler.clock
        try outbox.enqueueNote("edit")
        // Ends: the looks are few. The last one came 5 s on.
        fixture.scheduler.start()
        #expect(fixture.scheduler.clock - enqueuedAt >= 5)
        #expect(handler.sendInvocations.isEmpty)
        #expect(outbox.pending.count == 1)
    }
}
