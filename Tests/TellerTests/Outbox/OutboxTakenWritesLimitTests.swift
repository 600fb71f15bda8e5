import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@testable import Teller

/// An outbox keeps a bounded number of taken writes: writes to a tag no screen fetches again
/// must not make the journal grow for ever. The oldest go first, as a fetch would forget them.
@Suite struct OutboxTakenWritesLimitTests {
    @Test func anOutboxKeepsOnlyTheNewestTakenWritesItsLimitAllowsInMemoryAndInTheJournal() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let (outbox, handler) = fixture.outbox(answering: [.sent(), .sent(), .sent(), .sent()])
        outbox.state.withLock { $0.takenWritesKept = 2 }

        let edits = try ["one", "two", "three", "four"].map { try outbox.enqueueNote($0, tag: "archive") }
        fixture.scheduler.start()

        #expect(handler.sentTexts == ["one", "two", "three", "four"])
        let newest = edits.suffix(2).map(\.id)
        #expect(outbox.taken(tag: "archive").map(\.id) == newest)
        #expect(try fixture.journal.journal().contents().taken.map(\.id) == newest)

        // The next launch marks and shows only those two.
        let relaunch = OutboxFixture(relaunching: fixture)
        let (again, _) = relaunch.outbox(answering: [])
        #expect(again.taken(tag: "archive").map(\.id) == newest)
    }
}
