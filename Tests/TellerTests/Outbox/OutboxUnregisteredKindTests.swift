import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A write whose kind has no handler yet waits, logged once, until one is registered.
@Suite struct OutboxUnregisteredKindTests {
    @Test func aWriteOfAnUnregisteredKindWaitsUntilItsHandlerIsRegistered() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let other = fixture.handler([.sent(), .sent()])
        outbox.register(kind: "deleteNote", send: other.send)
        try outbox.enqueueNote("waits")
        try outbox.enqueueNote("waits too")
        fixture.scheduler.advanceTo(100)
        #expect(outbox.pending.count == 2)
        #expect(!other.sendCalled)
        #expect(fixture.env.log.value.filter { $0.contains("no handler is registered") }.count == 1)

        let handler = fixture.handler([.sent(), .sent()])
        outbox.register(kind: "saveNote", send: handler.send)
        fixture.scheduler.start()
        #expect(handler.sentTexts == ["waits", "waits too"])
        #expect(outbox.pending.isEmpty)
    }
}
