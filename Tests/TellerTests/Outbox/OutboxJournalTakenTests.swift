import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// The journal keeps a write the server took (`taken`), with its record, until a `fetchedBack`
/// entry names it; a compaction and another reader keep it; an older journal's `sent` entries
/// leave nothing taken.
@Suite struct OutboxJournalTakenTests {
    @Test func aTakenWriteIsKeptUntilFetchedBackAcrossACompactionAndARead() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<4).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.taken(id: records[2].id))
        try journal.append(.taken(id: records[0].id))
        #expect(
            try journal.contents()
                == OutboxJournalContents(
                    pending: [records[1], records[3]],
                    rejections: [],
                    taken: [records[2], records[0]]
                )
        )

        try journal.compact()
        #expect(try fixture.journal().contents().taken == [records[2], records[0]])
        #expect(try fixture.journal().records() == [records[1], records[3]])

        try journal.append(.fetchedBack(ids: [records[2].id, records[1].id]))
        let reader = fixture.journal()
        #expect(try reader.contents().taken == [records[0]])
        #expect(try reader.records() == [records[1], records[3]])
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aCompactionAfterEveryTakenWriteWasFetchedBackKeepsOnlyThePendingOnes() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<2).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.taken(id: records[0].id))
        try journal.append(.fetchedBack(ids: [records[0].id]))
        try journal.compact()
        #expect(try fixture.size == OutboxJournalFormat.encode(.enqueued(record: records[1])).count)
        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [records[1]], rejections: []))
    }

    @Test func aSentEntryFromAnOlderJournalLeavesNothingTaken() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<2).map { outboxRecord($0) }
        _ = try fixture.journal(enqueueing: records)
        // The entry as journals wrote it before taken writes were kept.
        try fixture.append(body: #"{"sent":{"id":"\#(records[0].id.uuidString)"}}"#)

        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [records[1]], rejections: []))
        #expect(fixture.problems.value.isEmpty)
    }
}
