import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// The journal keeps a dated rejection, with its record, until an `acknowledged` entry; a
/// compaction keeps it; an undated one (from before rejections were kept) is gone at once; and
/// damage to the new entries is skipped as it is for the others.
@Suite struct OutboxJournalRejectionTests {
    private let rejectedAt = Date(timeIntervalSinceReferenceDate: 800_000_100)

    @Test func aDatedRejectionIsKeptUntilAcknowledgedAndAReaderSeesIt() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<3).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.rejected(id: records[1].id, reason: "409 conflict", rejectedAt: rejectedAt))
        let rejection = OutboxJournalRefusal(record: records[1], reason: "409 conflict", refusedAt: rejectedAt)
        #expect(
            try journal.contents() == OutboxJournalContents(pending: [records[0], records[2]], rejections: [rejection])
        )
        #expect(try fixture.journal().contents().rejections == [rejection])

        try journal.append(.acknowledged(id: records[1].id))
        #expect(try fixture.journal().contents().rejections.isEmpty)
        #expect(try fixture.journal().records() == [records[0], records[2]])
    }

    @Test func anUndatedRejectionFromAnOlderJournalIsNotListed() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<2).map { outboxRecord($0) }
        _ = try fixture.journal(enqueueing: records)
        // The entry as journals wrote it before rejections were kept.
        try fixture.append(body: #"{"rejected":{"id":"\#(records[0].id.uuidString)","reason":"409 conflict"}}"#)

        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [records[1]], rejections: []))
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aCompactionKeepsTheUnacknowledgedRejectionsInOrder() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<4).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        for record in [records[2], records[0], records[1]] {
            try journal.append(.rejected(id: record.id, reason: "no \(record.id)", rejectedAt: rejectedAt))
        }
        try journal.append(.acknowledged(id: records[0].id))
        let before = try journal.contents()
        try journal.compact()
        #expect(try fixture.journal().contents() == before)
        #expect(before.rejections.map(\.record) == [records[2], records[1]])
        #expect(before.pending == [records[3]])

        try journal.append(.acknowledged(id: records[2].id))
        try journal.append(.acknowledged(id: records[1].id))
        try journal.compact()
        let oneEntry = try OutboxJournalFormat.encode(.enqueued(record: records[3])).count
        #expect(try fixture.size == oneEntry)
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aDamagedAcknowledgementIsSkippedAndReportedAndTheRejectionStaysListed() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<2).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.rejected(id: records[0].id, reason: "gone", rejectedAt: rejectedAt))
        let start = try fixture.size
        try journal.append(.acknowledged(id: records[0].id))
        try journal.append(.sent(id: records[1].id))
        var bytes = try fixture.bytes
        bytes[start + 14] ^= 0x01
        try bytes.write(to: fixture.url)

        let contents = try fixture.journal().contents()
        #expect(contents.rejections.map(\.record) == [records[0]])
        #expect(contents.pending.isEmpty)
        #expect(fixture.problems.value.count == 1)
        guard case .damagedEntry(_, let offset, _, _) = fixture.problems.value.first else {
            Issue.record("expected a damaged entry, got \(fixture.problems.value)")
            return
        }
        #expect(offset == Int64(start))
    }
}
