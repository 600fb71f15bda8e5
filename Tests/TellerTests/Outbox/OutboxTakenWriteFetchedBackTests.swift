import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The journal forgets a write the server took only once a fetch that started after its tag was
/// marked saved: a fetch already running when the server took it does not count.
@Suite struct OutboxTakenWriteFetchedBackTests {
    typealias Screen = OutboxPendingWritesOnScreenTests.Screen
    static let notes = OutboxPendingWritesOnScreenTests.notes

    @Test func aFetchThatStartedBeforeTheTakeLeavesTheWriteTakenAndTheNextFetchForgetsIt() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let screen = Screen(fixture, stored: ["Buy bread"])
        let (outbox, handler) = fixture.outbox(answering: [.sent(after: 5)])
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread"], after: 10) }
        let savesBefore = screen.dataSource.calls.saves

        // The fetch starts, then the server takes the write, then the fetch saves.
        _ = try screen.repository.refresh(force: true).subscribe()
        let edit = try outbox.enqueueNote("Buy milk", tag: Self.notes.tag)
        advance(fixture, until: { !handler.sentTexts.isEmpty })
        #expect(screen.dataSource.calls.saves == savesBefore)
        // The server's data has the write from now on.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy milk"], after: 5) }
        advance(fixture, until: { screen.dataSource.calls.saves == savesBefore + 1 })
        // The outbox hears of the save on the background scheduler: a tick later.
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)
        #expect(screen.dataSource.calls.saves == savesBefore + 1)
        #expect(try fixture.journal.journal().contents().taken.map(\.id) == [edit.id])
        #expect(screen.shown == ["Buy bread", "Buy milk"])

        // The mark is still set: the tag was fetched again, and that save brings the write back.
        fixture.scheduler.start()
        #expect(screen.dataSource.calls.fetches == 2)
        #expect(screen.dataSource.calls.saves == savesBefore + 2)
        #expect(try fixture.journal.journal().contents().taken.isEmpty)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
    }

    /// Advances the virtual clock one tick at a time until `condition` holds, at most 100 ticks.
    private func advance(_ fixture: OutboxFixture, until condition: () -> Bool) {
        for _ in 0..<100 where !condition() {
            fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)
        }
        #expect(condition())
    }
}
