import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A write the server took, that no fetch brought back before the app was killed, after the
/// relaunch: the stored list predates it. The journal keeps the taken write until a fetch
/// brings it back, so the relaunched outbox shows it and marks its tag, which refetches.
@Suite struct OutboxTakenWriteRelaunchTests {
    typealias Screen = OutboxPendingWritesOnScreenTests.Screen
    static let notes = OutboxPendingWritesOnScreenTests.notes

    @Test func aWriteTheServerTookShowsAfterARelaunchUntilAFetchBringsItBack() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        // The next launch: the stored list, fetched before the take, does not have the edit.
        let relaunched = try Self.relaunchOnceTheServerTookAnEdit(fixture)
        let outbox = relaunched.outbox()
        let screen = Screen(relaunched, stored: ["Buy bread"])
        #expect(screen.pending.isEmpty)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
        #expect(screen.dataSource.calls.fetches == 1)
        withExtendedLifetime(outbox) {}
    }

    @Test func aWriteAFetchBroughtBackIsForgottenAndTheNextLaunchDoesNotRefetchIt() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        // The relaunch's fetch brings the write back: the journal forgets it.
        let relaunched = try Self.relaunchOnceTheServerTookAnEdit(fixture)
        let outbox = relaunched.outbox()
        let screen = Screen(relaunched, stored: ["Buy bread"], fetching: ["Buy bread", "Buy milk"])
        relaunched.scheduler.advanceTo(relaunched.scheduler.clock + 10)
        #expect(screen.dataSource.calls.fetches == 1)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
        #expect(try relaunched.journal.journal().contents().taken.isEmpty)
        #expect(outbox.pending.isEmpty)

        // The launch after: nothing taken is left to show or refetch.
        let third = OutboxFixture(relaunching: relaunched)
        let thirdOutbox = third.outbox()
        let thirdScreen = Screen(third, stored: ["Buy bread", "Buy milk"])
        #expect(thirdScreen.shown == ["Buy bread", "Buy milk"])
        #expect(thirdScreen.dataSource.calls.fetches == 0)
        withExtendedLifetime((outbox, thirdOutbox)) {}
    }

    @Test func aScreenMadeBeforeTheRelaunchedOutboxShowsTheWriteTheServerTookOnceTheOutboxReadsIt() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let relaunched = try Self.relaunchOnceTheServerTookAnEdit(fixture)
        let screen = Screen(relaunched, stored: ["Buy bread"])
        #expect(screen.shown == ["Buy bread"])
        #expect(screen.dataSource.calls.fetches == 0)

        let outbox = relaunched.outbox()
        relaunched.scheduler.advanceTo(relaunched.scheduler.clock + 10)
        #expect(screen.shown == ["Buy bread", "Buy milk"])
        #expect(screen.pending.isEmpty)
        #expect(screen.dataSource.calls.fetches == 1)
        withExtendedLifetime(outbox) {}
    }

    /// Sends "Buy milk" through an outbox on `fixture`'s journal, which the server takes, and
    /// returns the next launch, before any fetch brought the edit back.
    private static func relaunchOnceTheServerTookAnEdit(_ fixture: OutboxFixture) throws -> OutboxFixture {
        let (before, handler) = fixture.outbox(answering: [.sent(after: 5)])
        try before.enqueueNote("Buy milk", tag: notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 10)
        #expect(handler.sentTexts == ["Buy milk"])
        #expect(before.pending.isEmpty)
        return OutboxFixture(relaunching: fixture)
    }
}
