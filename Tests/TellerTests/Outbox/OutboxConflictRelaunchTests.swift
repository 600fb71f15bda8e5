import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A conflict the app is to resolve (``OutboxConflictPolicy/manual``) and the app's decision are
/// kept in the journal: a relaunched outbox (a new one on the same journal) lists the conflict
/// again and holds its scope until it is resolved, sends a write kept before the relaunch as an
/// overwrite, and another outbox on the journal sees both.
@Suite struct OutboxConflictRelaunchTests {
    let fixture = OutboxFixture()

    struct Stale: Error {}

    /// An outbox on the fixture's journal whose `saveNote` writes go to a handler answering
    /// `answers`, conflicts left to the app.
    private func outbox(answering answers: [OutboxScriptedAnswer]) -> (TellerOutbox, OutboxHandlerMock) {
        let outbox = fixture.outbox()
        let handler = fixture.handler(answers)
        outbox.register(kind: "saveNote", onConflict: .manual, send: handler.send)
        return (outbox, handler)
    }

    /// Enqueues `texts` in one scope in a first launch whose server answers the first with a
    /// conflict, and returns the conflict as that launch listed it, and the records.
    private func firstLaunchConflicting(_ texts: [String]) throws -> (OutboxConflict, [OutboxRecord]) {
        let (outbox, _) = outbox(answering: [.conflict(Stale(), after: 5)])
        let records = try texts.map { try outbox.enqueueNote($0) }
        fixture.scheduler.start()
        return (try #require(outbox.conflicts.first), records)
    }

    @Test func aManualConflictIsListedAfterARelaunchWithItsReasonAndDate() throws {
        defer { fixture.tearDown() }
        let (before, records) = try firstLaunchConflicting(["mine"])

        let relaunched = fixture.outbox()
        let after = try #require(relaunched.conflicts.first)
        #expect(relaunched.conflicts.count == 1)
        #expect(after.record == records[0])
        #expect(after.record == before.record)
        #expect(after.detectedAt == before.detectedAt)
        #expect(after.error as? OutboxRejectionReason == OutboxRejectionReason("\(Stale())"))
        #expect(relaunched.pending == records)
    }

    @Test func aConflictsScopeSendsNothingAfterARelaunchUntilItIsResolved() throws {
        defer { fixture.tearDown() }
        let (conflict, _) = try firstLaunchConflicting(["first", "second"])

        let (relaunched, handler) = outbox(answering: [.sent(after: 5), .sent(after: 5)])
        fixture.scheduler.start()
        #expect(!handler.sendCalled)
        // A trigger that resumes stalled scopes does not send a held one.
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        #expect(!handler.sendCalled)
        #expect(relaunched.pending.count == 2)

        #expect(try relaunched.resolve(conflictOf: conflict.record.id, keeping: .mine))
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["first", "second"])
        #expect(handler.sendInvocations.map(\.overwritesConflict) == [true, false])
        #expect(relaunched.pending.isEmpty)
        #expect(relaunched.conflicts.isEmpty)
    }

    @Test func aWriteKeptBeforeARelaunchIsSentOnceAsAnOverwriteAfterIt() throws {
        defer { fixture.tearDown() }
        var outbox: TellerOutbox? = fixture.outbox()
        let handler = fixture.handler([.conflict(Stale(), after: 5)])
        outbox?.register(kind: "saveNote", onConflict: .manual, send: handler.send)
        let edit = try #require(try outbox?.enqueueNote("mine"))
        fixture.scheduler.start()
        // Offline: the decision is made, and the app is killed before the write goes out.
        outbox?.networkDidBecomeUnavailable()
        #expect(try outbox?.resolve(conflictOf: edit.id, keeping: .mine) == true)
        fixture.scheduler.start()
        #expect(handler.sendCallsCount == 1)
        outbox = nil

        let (relaunched, resent) = self.outbox(answering: [.sent(after: 5)])
        #expect(relaunched.conflicts.isEmpty)
        fixture.scheduler.start()
        #expect(resent.sendInvocations.map(\.id) == [edit.id])
        #expect(resent.sendInvocations.map(\.overwritesConflict) == [true])
        #expect(relaunched.pending.isEmpty)
        #expect(fixture.outbox().pending.isEmpty)
    }

    @Test func aConflictResolvedForTheServerAfterARelaunchIsNeverSent() throws {
        defer { fixture.tearDown() }
        let (conflict, _) = try firstLaunchConflicting(["mine"])

        let handler = fixture.handler([.sent(after: 5)])
        var relaunched: TellerOutbox? = fixture.outbox()
        relaunched?.register(kind: "saveNote", onConflict: .manual, send: handler.send)
        fixture.scheduler.start()
        #expect(try relaunched?.resolve(conflictOf: conflict.record.id, keeping: .server) == true)
        fixture.scheduler.start()
        relaunched = nil

        let (third, thirdHandler) = outbox(answering: [.sent(after: 5)])
        fixture.scheduler.start()
        #expect(!handler.sendCalled)
        #expect(!thirdHandler.sendCalled)
        #expect(third.pending.isEmpty)
        #expect(third.conflicts.isEmpty)
    }

    @Test func anotherOutboxOnTheJournalListsTheConflictAndItsResolutionHoldsForTheFirst() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = outbox(answering: [.conflict(Stale(), after: 5), .sent(after: 5)])
        let edit = try outbox.enqueueNote("mine")
        fixture.scheduler.start()

        // The other process has no handler: it only decides.
        let other = fixture.outbox()
        #expect(other.conflicts.map(\.record.id) == [edit.id])
        #expect(try other.resolve(conflictOf: edit.id, keeping: .mine))
        // The first outbox reads the journal again at the next trigger, and sends the write.
        fixture.env.teller.appDidBecomeActive()
        fixture.scheduler.start()
        #expect(outbox.conflicts.isEmpty)
        #expect(handler.sendInvocations.map(\.overwritesConflict) == [false, true])
        #expect(outbox.pending.isEmpty)
    }
    @Test func aDamagedConflictEntryIsReportedAndItsWriteSentAgainWhileTheOthersStayHeld() throws {
        defer { fixture.tearDown() }
        let (outbox, _) = outbox(answering: [.conflict(Stale(), after: 5), .conflict(Stale(), after: 5)])
        let damaged = try outbox.enqueueNote("damaged", tag: "a")
        let kept = try outbox.enqueueNote("kept", tag: "b")
        fixture.scheduler.start()
        let conflict = try #require(outbox.conflicts.first { $0.record.id == damaged.id })
        let entry = try OutboxJournalFormat.encode(
            .conflicted(id: damaged.id, reason: "\(Stale())", detectedAt: conflict.detectedAt)
        )
        var bytes = try fixture.journal.bytes
        let range = try #require(bytes.range(of: entry))
        bytes[range.lowerBound + 20] ^= 0x01
        try bytes.write(to: fixture.journal.url)

        let relaunched = OutboxFixture(relaunching: fixture)
        let (next, handler) = relaunched.outbox(answering: [.sent(after: 5)])
        relaunched.scheduler.start()
        #expect(next.conflicts.map(\.record.id) == [kept.id])
        #expect(handler.sendInvocations.map(\.id) == [damaged.id])
        #expect(next.pending.map(\.id) == [kept.id])
        #expect(relaunched.logged("damaged bytes"))
    }
}
