import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// `enqueue` returns once the write is in the journal; what it cannot store it reports as a
/// thrown error, with nothing enqueued.
@Suite struct OutboxDurabilityTests {
    @Test func enqueueReturnsOnceTheWriteIsInTheJournal() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let record = try outbox.enqueue(
            kind: "saveNote",
            payload: NoteEdit(text: "durable"),
            tag: "notes",
            scope: "note 7",
            idempotencyKey: "key-7"
        )
        #expect(try fixture.journal.journal().records() == [record])
        #expect(fixture.outbox().pending == [record])
        #expect(record.scope == "note 7")
        #expect(record.idempotencyKey == "key-7")
        #expect(try JSONDecoder().decode(NoteEdit.self, from: record.payload) == NoteEdit(text: "durable"))
    }

    @Test func theScopeDefaultsToTheTagAndTheIdempotencyKeyToANewUUID() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        let first = try outbox.enqueueNote("one")
        let second = try outbox.enqueueNote("two")
        #expect(first.scope == "notes")
        #expect(UUID(uuidString: first.idempotencyKey) != nil)
        #expect(first.idempotencyKey != second.idempotencyKey)
    }

    @Test func aPayloadThatCannotBeEncodedThrowsAndEnqueuesNothing() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let outbox = fixture.outbox()
        #expect {
            try outbox.enqueue(kind: "setPrice", payload: Double.nan, tag: "prices")
        } throws: { error in
            if case .payloadNotEncodable(kind: "setPrice", _) = error as? OutboxError { true } else { false }
        }
        #expect(outbox.pending.isEmpty)
    }

    @Test func aJournalThatCannotBeWrittenThrowsAndEnqueuesNothing() throws {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        // The journal's folder is a file, so neither the folder nor the journal can be created.
        let folder = fixture.journal.url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data().write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = fixture.outbox()
        #expect {
            try outbox.enqueueNote("lost?")
        } throws: { error in
            if case .notRecorded = error as? OutboxError { true } else { false }
        }
        #expect(outbox.pending.isEmpty)
    }
}
