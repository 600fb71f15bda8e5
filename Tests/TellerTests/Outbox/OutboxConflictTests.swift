import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A write the server refuses because the data changed elsewhere is settled by its kind's
/// conflict policy: the server's version, the app's (sent again as an overwrite), or the app's
/// decision, which holds the write's scope until it is made.
@Suite struct OutboxConflictTests {
    let fixture = OutboxFixture()

    struct Stale: Error {}

    /// An outbox whose `saveNote` writes go to a handler answering `answers`, settled by `policy`.
    private func outbox(
        _ policy: OutboxConflictPolicy,
        answering answers: [OutboxScriptedAnswer]
    ) -> (TellerOutbox, OutboxHandlerMock) {
        let outbox = fixture.outbox()
        let handler = fixture.handler(answers)
        outbox.register(kind: "saveNote", onConflict: policy, send: handler.send)
        return (outbox, handler)
    }

    @Test func whenTheServerWinsTheWriteLeavesUnsentAndItsTagIsFetched() throws {
        defer { fixture.tearDown() }
        let dataSource = InMemoryDataSource()
        let notes = TestRequirements(username: "notes")
        dataSource.write(["old"], for: notes)
        fixture.env.markFetched(notes, at: 0)
        let env = fixture.env
        dataSource.respond { _ in env.fetch(["the server's"], after: 2) }
        let repository = TellerRepository(dataSource: dataSource, teller: fixture.env.teller)
        repository.requirements = notes
        let model = RepositoryModel(repository: repository)
        let (outbox, handler) = outbox(.serverWins, answering: [.conflict(Stale(), after: 5)])

        try outbox.enqueueNote("mine", tag: notes.tag)
        withExtendedLifetime(repository) { fixture.scheduler.start() }

        #expect(handler.sendInvocations.count == 1)
        #expect(outbox.pending.isEmpty)
        #expect(outbox.conflicts.isEmpty)
        #expect(dataSource.calls.fetches == 1)
        #expect(model.state?.cache == ["the server's"])
        #expect(fixture.logged("conflicts with the server's data"))
        // Nothing left to send: a relaunch does not send it again.
        #expect(OutboxFixture(relaunching: fixture).outbox().pending.isEmpty)
    }

    @Test func whenTheClientWinsTheWriteIsSentAgainAsAnOverwrite() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = outbox(.clientWins, answering: [.conflict(Stale(), after: 5), .sent(after: 5)])

        try outbox.enqueueNote("mine")
        fixture.scheduler.start()

        #expect(handler.sendInvocations.map(\.overwritesConflict) == [false, true])
        #expect(handler.sentTexts == ["mine", "mine"])
        #expect(outbox.pending.isEmpty)
        #expect(outbox.rejections.isEmpty)
    }

    @Test func anOverwriteThatConflictsAgainIsARejection() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = outbox(
            .clientWins,
            answering: [.conflict(Stale(), after: 5), .conflict(Stale(), after: 5)]
        )

        let edit = try outbox.enqueueNote("mine")
        fixture.scheduler.start()

        #expect(handler.sendInvocations.count == 2)
        #expect(outbox.pending.isEmpty)
        #expect(outbox.rejections.map(\.record.id) == [edit.id])
    }

    @Test func aManualConflictHoldsItsScopeUntilTheAppKeepsItsVersion() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = outbox(
            .manual,
            answering: [.conflict(Stale(), after: 5), .sent(after: 5), .sent(after: 5)]
        )

        let first = try outbox.enqueueNote("first")
        try outbox.enqueueNote("second")
        fixture.scheduler.start()
        #expect(outbox.conflicts.map(\.record.id) == [first.id])
        #expect(outbox.conflicts.first?.error is Stale)
        #expect(handler.sentTexts == ["first"])

        // A trigger that resumes stalled scopes does not send a held one.
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["first"])
        #expect(outbox.pending.count == 2)

        #expect(try outbox.resolve(conflictOf: first.id, keeping: .mine))
        fixture.scheduler.start()
        #expect(outbox.conflicts.isEmpty)
        #expect(handler.sentTexts == ["first", "first", "second"])
        #expect(handler.sendInvocations.map(\.overwritesConflict) == [false, true, false])
        #expect(outbox.pending.isEmpty)
        #expect(try outbox.resolve(conflictOf: first.id, keeping: .mine) == false)
    }

    @Test func aManualConflictResolvedForTheServerDropsTheWriteAndTheScopeGoesOn() throws {
        defer { fixture.tearDown() }
        let (outbox, handler) = outbox(.manual, answering: [.conflict(Stale(), after: 5), .sent(after: 5)])

        let first = try outbox.enqueueNote("first")
        try outbox.enqueueNote("second")
        fixture.scheduler.start()
        #expect(try outbox.resolve(conflictOf: first.id, keeping: .server))
        fixture.scheduler.start()

        #expect(handler.sentTexts == ["first", "second"])
        #expect(outbox.pending.isEmpty)
        #expect(outbox.conflicts.isEmpty)
        #expect(OutboxFixture(relaunching: fixture).outbox().pending.isEmpty)
    }
}
