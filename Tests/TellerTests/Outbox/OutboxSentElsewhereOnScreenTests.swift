import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A write another process (an app extension) sent, found when this process reads the journal
/// again, takes the path of a write this process sent: its tag is fetched, and the screen keeps
/// showing it until that fetch brings the server's data.
@Suite struct OutboxSentElsewhereOnScreenTests {
    typealias Screen = OutboxPendingWritesOnScreenTests.Screen
    static let notes = OutboxPendingWritesOnScreenTests.notes

    @Test func aWriteAnotherProcessSentStaysOnScreenUntilAFetchBringsTheServersData() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        // The app: a screen, and an outbox with no handler, so it sends nothing itself.
        let screen = Screen(fixture, stored: ["Buy bread"])
        let app = fixture.outbox()
        try app.enqueueNote("Buy milk", tag: Self.notes.tag)
        fixture.scheduler.advanceTo(fixture.scheduler.clock + 1)
        #expect(screen.shown == ["Buy bread", "Buy milk"])

        // The extension, another process on the journal, sends the write.
        let extensionProcess = OutboxFixture(relaunching: fixture)
        let (extensionOutbox, handler) = extensionProcess.outbox(answering: [.sent(after: 5)])
        extensionProcess.scheduler.start()
        #expect(handler.sentTexts == ["Buy milk"])
        #expect(extensionOutbox.pending.isEmpty)

        // The app reads the journal again at its next trigger; the server's list, which has the
        // write, comes slowly.
        screen.dataSource.respond { _ in fixture.env.fetch(["Buy bread", "Buy milk"], after: 20) }
        fixture.env.teller.appDidBecomeActive()
        fixture.step(to: fixture.scheduler.clock + 100) {
            #expect(screen.shown == ["Buy bread", "Buy milk"], "at \(fixture.scheduler.clock)")
        }
        #expect(app.pending.isEmpty)
        #expect(screen.pending.isEmpty)
        #expect(screen.dataSource.calls.fetches >= 1)
        #expect(screen.dataSource.cache(for: Self.notes) == ["Buy bread", "Buy milk"])
    }
}
