import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Two outboxes on one journal, as an app and its extension have: only one sends at a time,
/// and writes either enqueues are sent once.
@Suite struct OutboxSharedJournalTests {
    @Test func onlyOneOutboxOnAJournalSendsAndItAlsoSendsTheOthersWrites() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let app = fixture.outbox()
        let appHandler = fixture.handler(Array(repeating: .sent(after: 10), count: 3))
        app.register(kind: "saveNote", send: appHandler.send)
        let extensionOutbox = fixture.outbox()
        let extensionHandler = fixture.handler([])
        extensionOutbox.register(kind: "saveNote", send: extensionHandler.send)

        try app.enqueueNote("from the app")
        fixture.scheduler.advanceTo(5)
        // The app holds the send lock while its send is under way.
        try extensionOutbox.enqueueNote("from the extension")
        try extensionOutbox.enqueueNote("from the extension, other scope", tag: "other")
        fixture.scheduler.start()

        #expect(!extensionHandler.sendCalled)
        #expect(appHandler.sentTexts == ["from the app", "from the extension", "from the extension, other scope"])
        #expect(try fixture.journal.journal().records().isEmpty)
        #expect(app.pending.isEmpty)
    }

    @Test func theOtherOutboxSendsOnceTheFirstIsGone() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        var app: TellerOutbox? = fixture.outbox()
        let appHandler = fixture.handler([.never])
        app?.register(kind: "saveNote", send: appHandler.send)
        let extensionOutbox = fixture.outbox()
        let extensionHandler = fixture.handler([.sent(), .sent()])
        extensionOutbox.register(kind: "saveNote", send: extensionHandler.send)
        try app?.enqueueNote("stuck in the app")
        fixture.scheduler.advanceTo(5)
        try extensionOutbox.enqueueNote("from the extension", tag: "other")
        fixture.scheduler.advanceTo(10)
        #expect(!extensionHandler.sendCalled)

        app = nil
        fixture.env.teller.networkDidBecomeAvailable()
        fixture.scheduler.start()
        #expect(Set(extensionHandler.sentTexts) == ["stuck in the app", "from the extension"])
        #expect(extensionOutbox.pending.isEmpty)
    }
}
