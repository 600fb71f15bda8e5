import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A relaunched app (a new outbox on the same journal) sends what the last launch left, and
/// never what it sent.
@Suite struct OutboxRelaunchTests {
    @Test func aNewOutboxOnTheSameJournalResumesPendingWritesAndNeverResendsSentOnes() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        let beforeKill = fixture.handler([.sent(), .never])
        outbox?.register(kind: "saveNote", send: beforeKill.send)
        for text in ["sent before the kill", "under way at the kill", "queued at the kill"] {
            try outbox?.enqueueNote(text)
        }
        fixture.scheduler.advanceTo(10)
        #expect(beforeKill.sentTexts == ["sent before the kill", "under way at the kill"])
        outbox = nil

        let relaunched = fixture.outbox()
        #expect(relaunched.pending.count == 2)
        let afterRelaunch = fixture.handler([.sent(), .sent()])
        relaunched.register(kind: "saveNote", send: afterRelaunch.send)
        fixture.scheduler.start()
        #expect(afterRelaunch.sentTexts == ["under way at the kill", "queued at the kill"])
        #expect(relaunched.pending.isEmpty)
    }

    @Test func aRelaunchedOutboxKeepsTheAttemptCount() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        let beforeKill = fixture.handler([.retryableFailure(TestError(1))])
        outbox?.register(kind: "saveNote", send: beforeKill.send)
        let record = try outbox?.enqueueNote("flaky")
        fixture.scheduler.advanceTo(10)
        outbox = nil

        let relaunched = fixture.outbox()
        let afterRelaunch = fixture.handler([.sent()])
        relaunched.register(kind: "saveNote", send: afterRelaunch.send)
        fixture.scheduler.start()
        #expect(afterRelaunch.sendInvocations.map(\.id) == [record?.id])
        #expect(afterRelaunch.sendInvocations.map(\.attempts) == [1])
    }

    @Test func aTornTailLeftByACrashIsLoggedAndTheWritesBeforeItAreSent() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        try outbox?.enqueueNote("kept")
        outbox = nil
        // A crash in the middle of the next append.
        let handle = try FileHandle(forWritingTo: fixture.journal.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF, 0xFE, 0x4F, 0x31, 0x40]))
        try handle.close()

        let (relaunched, handler) = fixture.outbox(answering: [.sent()])
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["kept"])
        #expect(relaunched.pending.isEmpty)
        #expect(fixture.logged("unfinished entry"))
    }
}
