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
    private func holdSendLock() throws -> FileLock {
        let folder = fixture.journal.url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lock = FileLock()
        try #require(try lock.tryAcquire(path: fixture.journal.url.path + ".send-lock"))
        return lock
    }

    @Test func aWriteEnqueuedWhileTheSendLockIsHeldForAMomentIsSentWithoutATrigger() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent()])
        var holder = try holdSendLock()

        try outbox.enqueueNote("edit")
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)
        #expect(handler.sendInvocations.isEmpty)

        holder.close()
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["edit"])
        #expect(outbox.pending.isEmpty)
    }

    @Test func aLockHeldForGoodIsLookedAtAFewTimesThenLeftToTheTriggers() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent()])
        var holder = try holdSendLock()
        defer { holder.close() }

        let enqueuedAt = fixture.scheduler.clock
        try outbox.enqueueNote("edit")
        // Ends: the looks are few. The last one came 5 s on.
        fixture.scheduler.start()
        #expect(fixture.scheduler.clock - enqueuedAt >= 5)
        #expect(handler.sendInvocations.isEmpty)
        #expect(outbox.pending.count == 1)
    }
}
