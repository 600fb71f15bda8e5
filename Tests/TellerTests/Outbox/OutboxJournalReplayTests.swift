import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// A journal replays its file into the records still pending, in the order they were enqueued.
@Suite struct OutboxJournalReplayTests {
    @Test func enqueuedRecordsComeBackWholeAndInOrderFromANewJournal() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<5).map { outboxRecord($0, tag: $0.isMultiple(of: 2) ? "notes" : "tasks") }
        let journal = try fixture.journal(enqueueing: records)
        #expect(try journal.records() == records)
        #expect(try fixture.journal().records() == records)
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func sentRejectedAndDiscardedRecordsAreNoLongerPending() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<5).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.sent(id: records[0].id))
        try journal.append(.rejected(id: records[2].id, reason: "409 conflict"))
        try journal.append(.discarded(id: records[4].id))
        #expect(try journal.records() == [records[1], records[3]])
        #expect(try fixture.journal().records() == [records[1], records[3]])
    }

    @Test func theLatestAttemptCountIsReplayed() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let record = outboxRecord(1)
        let journal = fixture.journal()
        try journal.append(.enqueued(record: record))
        try journal.append(.attempted(id: record.id, attempts: 1))
        try journal.append(.attempted(id: record.id, attempts: 2))
        #expect(try fixture.journal().records().map(\.attempts) == [2])
    }

    @Test func aJournalWithNoFileHasNoRecordsAndCreatesNothing() throws {
        let fixture = JournalFixture()
        #expect(try fixture.journal().records().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.url.path))
    }

    @Test func theFileIsReadableAndWritableByItsOwnerOnly() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        try fixture.journal().append(.enqueued(record: outboxRecord(1)))
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aRecordsScopeIsItsTagUnlessGiven() {
        #expect(outboxRecord(1, tag: "notes").scope == "notes")
        let scoped = OutboxRecord(kind: "k", tag: "notes", scope: "account", payload: Data(), createdAt: Date())
        #expect(scoped.scope == "account")
        #expect(scoped.idempotencyKey == scoped.id.uuidString)
    }
}
