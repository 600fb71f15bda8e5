import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A repository shows the writes to its tag waiting in an outbox, applied to its stored cache by
/// the data source, and says how many wait: at once, through refreshes, after a relaunch, and
/// until the server took or refused them. Virtual time, a fake server.
@Suite struct OutboxPendingWritesOnScreenTests {
    static let notes = TestRequirements(username: "notes")

    struct Offline: Error {}
    struct Refused: Error {}

    /// A screen on the notes, fetched at tick 0 with `stored`, whose data source shows pending
    /// note edits appended to the list.
    struct Screen {
        let fixture: OutboxFixture
        let dataSource = InMemoryDataSource()
        let repository: TellerRepository<InMemoryDataSource>
        let model: RepositoryModel<TellerRepository<InMemoryDataSource>>

        /// A screen on `stored`, whose fetches return `fetching` after 2 ticks (by default,
        /// never).
        init(_ fixture: OutboxFixture, stored: [String], fetching: [String]? = nil) {
            self.fixture = fixture
            dataSource.write(stored, for: OutboxPendingWritesOnScreenTests.notes)
            if let fetching { dataSource.respond { _ in fixture.env.fetch(fetching, after: 2) } }
            dataSource.showPendingWrites { writes, cache in
                (cache ?? []) + writes.compactMap { try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text }
            }
            fixture.env.markFetched(OutboxPendingWritesOnScreenTests.notes, at: 0)
            repository = TellerRepository(dataSource: dataSource, teller: fixture.env.teller)
            repository.requirements = OutboxPendingWritesOnScreenTests.notes
            model = RepositoryModel(repository: repository)
            fixture.scheduler.advanceTo(fixture.scheduler.clock + 10)
        }

        var shown: [String]? {
            model.state?.cache
        }

        var pending: [String] {
            (model.state?.pendingWrites ?? []).compactMap {
                try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text
            }
        }
    }

    @Test func anEditMadeOfflineShowsAtOnceAndStaysOnTopOfARefreshUntilTheServerHasIt() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, handler) = fixture.outbox(answering: [
            .retryableFailure(Offline(), after: 1), .sent(invalidating: [Self.notes.tag], after: 1),
        ])
        #expect(screen.shown == ["Buy bread"])
        #expect(screen.pending.isEmpty)

        try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 5)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
        #expect(screen.pending == ["Buy milk"])

        // Offline: the send failed, the edit waits. A refresh brings the server's list, which
        // does not have the edit yet: it stays on top.
        fixture.scheduler.advanceTo(10)
        #expect(handler.sendInvocations.count == 1)
        #expect(screen.model.state?.writeError is Offline)
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy eggs"], after: 2) }
        _ = try screen.repository.refresh(force: true).subscribe()
        fixture.scheduler.advanceTo(30)
        #expect(screen.dataSource.cache(for: Self.notes) == ["Buy bread", "Buy eggs"])
        #expect(screen.shown == ["Buy bread", "Buy eggs", "Buy milk"])
        #expect(screen.pending == ["Buy milk"])

        // Back online: the edit is sent, leaves the outbox and the tag is refetched.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy eggs", "Buy milk"], after: 2) }
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["Buy milk", "Buy milk"])
        #expect(outbox.pending.isEmpty)
        #expect(screen.pending.isEmpty)
        #expect(screen.model.state?.writeError == nil)
        #expect(screen.shown == ["Buy bread", "Buy eggs", "Buy milk"])
        #expect(screen.dataSource.calls.fetches == 2)
    }

    @Test func aRelaunchShowsTheEditsStillWaitingFromTheFirstState() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let before = fixture.outbox()
        try before.enqueueNote("Call Ann", tag: Self.notes.tag)

        // The next launch: a new outbox on the same journal, and a new screen.
        let relaunched = OutboxFixture(relaunching: fixture)
        let outbox = relaunched.outbox()
        let screen = Screen(relaunched, stored: ["Buy bread"])
        #expect(outbox.pending.count == 1)
        #expect(screen.shown == ["Buy bread", "Call Ann"])
        #expect(screen.pending == ["Call Ann"])
    }

    @Test func aRefusedEditLeavesTheScreenAndTheServersListIsFetched() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, _) = fixture.outbox(answering: [.rejected(Refused(), after: 5)])
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread"], after: 2) }

        let edit = try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 5)
        #expect(screen.shown == ["Buy bread", "Buy milk"])

        fixture.scheduler.start()
        #expect(outbox.rejections.map(\.record.id) == [edit.id])
        #expect(screen.pending.isEmpty)
        #expect(screen.shown == ["Buy bread"])
        #expect(screen.dataSource.calls.fetches == 1)
        #expect(screen.model.state?.writeError is Refused)

        // Acknowledged: the screen stops saying it.
        #expect(outbox.acknowledge(rejectionOf: edit.id))
        fixture.scheduler.start()
        #expect(screen.model.state?.writeError == nil)
    }

    @Test func anInvalidationWhileWritesWaitRefetchesOnlyOnceTheyLeft() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, _) = fixture.outbox(answering: [.sent(invalidating: [Self.notes.tag], after: 50)])
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy milk"], after: 2) }
        try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)

        // The server's list may not have the edit yet: no fetch while it waits.
        fixture.env.teller.invalidate(tag: Self.notes.tag)
        fixture.scheduler.advanceTo(40)
        #expect(screen.dataSource.calls.fetches == 0)
        #expect(screen.pending == ["Buy milk"])

        fixture.scheduler.start()
        #expect(screen.dataSource.calls.fetches == 1)
        #expect(screen.pending.isEmpty)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
    }

    @Test func aFetchThatStartedBeforeTheServerTookAnEditNeverTakesItOffTheScreen() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, _) = fixture.outbox(answering: [.sent(after: 5)])
        // A slow refresh, started before the edit: its answer predates it.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread"], after: 20) }
        _ = try screen.repository.refresh(force: true).subscribe()
        try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 5)
        // Once the server has the edit, the list it serves has it too.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy milk"], after: 20) }

        fixture.step(to: 200) {
            #expect(screen.shown == ["Buy bread", "Buy milk"], "at \(fixture.scheduler.clock)")
        }
        #expect(outbox.pending.isEmpty)
        #expect(screen.pending.isEmpty)
        #expect(screen.dataSource.cache(for: Self.notes) == ["Buy bread", "Buy milk"])
        #expect(screen.dataSource.calls.fetches == 2)
    }
}
