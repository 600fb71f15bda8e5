import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// The journal keeps a conflict, its record pending, until the app's decision (an
/// `overwriting` mark, kept until the record leaves, or a discard); a compaction keeps both; a
/// journal written before conflicts were kept reads as it did; damage to a conflict entry is
/// skipped and reported as it is for the others; and a torn entry that settles or marks a write
/// (a rejection, a conflict, an overwrite mark) leaves the write pending as it was.
@Suite struct OutboxJournalConflictTests {
    private let detectedAt = Date(timeIntervalSinceReferenceDate: 800_000_100)

    private func conflict(_ record: OutboxRecord, _ reason: String = "412 stale") -> OutboxJournalRefusal {
        OutboxJournalRefusal(record: record, reason: reason, refusedAt: detectedAt)
    }

    @Test func aConflictIsKeptUntilSettledAndItsOverwriteMarkUntilTheWriteLeaves() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<3).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.conflicted(id: records[1].id, reason: "412 stale", detectedAt: detectedAt))
        try journal.append(.conflicted(id: records[0].id, reason: "409", detectedAt: detectedAt))
        let conflicts = [conflict(records[1]), conflict(records[0], "409")]
        #expect(
            try journal.contents()
                == OutboxJournalContents(pending: records, rejections: [], conflicts: conflicts, overwrites: [])
        )
        #expect(try fixture.journal().contents().conflicts == conflicts)

        try journal.append(.overwriting(id: records[1].id))
        try journal.append(.discarded(id: records[0].id))
        #expect(
            try fixture.journal().contents()
                == OutboxJournalContents(
                    pending: [records[1], records[2]],
                    rejections: [],
                    conflicts: [],
                    overwrites: [records[1].id]
                )
        )

        try journal.append(.sent(id: records[1].id))
        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [records[2]], rejections: []))
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aCompactionKeepsTheUnresolvedConflictsInOrderAndTheOverwriteMarks() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<4).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        for record in [records[2], records[0], records[1]] {
            try journal.append(.conflicted(id: record.id, reason: "no \(record.id)", detectedAt: detectedAt))
        }
        try journal.append(.overwriting(id: records[0].id))
        try journal.append(.attempted(id: records[3].id, attempts: 2))
        let before = try journal.contents()
        try journal.compact()
        #expect(try fixture.journal().contents() == before)
        #expect(before.conflicts.map(\.record) == [records[2], records[1]])
        #expect(before.overwrites == [records[0].id])

        for record in records {
            try journal.append(.sent(id: record.id))
        }
        try journal.compact()
        #expect(try fixture.size == 0)
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aJournalWrittenBeforeConflictsWereKeptReadsAsItDid() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<3).map { outboxRecord($0) }
        _ = try fixture.journal(enqueueing: records)
        // Entries as journals wrote them before conflicts were kept: no conflict, no mark.
        let bodies = [
            #"{"attempted":{"attempts":1,"id":"\#(records[0].id.uuidString)"}}"#,
            #"{"rejected":{"id":"\#(records[1].id.uuidString)","reason":"gone","rejectedAt":800000100}}"#,
            #"{"sent":{"id":"\#(records[2].id.uuidString)"}}"#,
        ]
        try bodies.forEach(fixture.append(body:))

        var attempted = records[0]
        attempted.attempts = 1
        let rejection = OutboxJournalRefusal(record: records[1], reason: "gone", refusedAt: detectedAt)
        #expect(
            try fixture.journal().contents()
                == OutboxJournalContents(pending: [attempted], rejections: [rejection], conflicts: [], overwrites: [])
        )
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func aDamagedConflictIsSkippedAndReportedAndTheNextConflictStillRead() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<2).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        let start = try fixture.size
        try journal.append(.conflicted(id: records[0].id, reason: "412 stale", detectedAt: detectedAt))
        try journal.append(.conflicted(id: records[1].id, reason: "412 stale", detectedAt: detectedAt))
        var bytes = try fixture.bytes
        bytes[start + 14] ^= 0x01
        try bytes.write(to: fixture.url)

        let contents = try fixture.journal().contents()
        #expect(contents.pending == records)
        #expect(contents.conflicts == [conflict(records[1])])
        guard case .damagedEntry(_, let offset, _, _)? = fixture.problems.value.first else {
            Issue.record("expected a damaged entry, got \(fixture.problems.value)")
            return
        }
        #expect(offset == Int64(start))
        #expect(fixture.problems.value.count == 1)
    }

    @Test func aConflictEntryThatCannotBeDecodedIsSkippedAndReported() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let record = outboxRecord(0)
        _ = try fixture.journal(enqueueing: [record])
        // Whole and checked, but its date is missing.
        try fixture.append(body: #"{"conflicted":{"id":"\#(record.id.uuidString)","reason":"412 stale"}}"#)

        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [record], rejections: []))
        guard case .damagedEntry(_, _, _, let reason)? = fixture.problems.value.first else {
            Issue.record("expected a damaged entry, got \(fixture.problems.value)")
            return
        }
        #expect(reason.contains("could not be decoded"))
    }

    /// An entry that settles a write, or marks it.
    enum Settling: CaseIterable {
        case rejected, conflicted, overwriting

        func entry(about id: UUID, at date: Date) -> OutboxJournalEntry {
            switch self {
            case .rejected: .rejected(id: id, reason: "gone", rejectedAt: date)
            case .conflicted: .conflicted(id: id, reason: "412 stale", detectedAt: date)
            case .overwriting: .overwriting(id: id)
            }
        }
    }

    @Test(arguments: Settling.allCases)
    func aTornEntryAboutAWriteIsIgnoredAndTheWriteStaysPendingAsItWas(_ settling: Settling) throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let record = outboxRecord(0)
        let journal = try fixture.journal(enqueueing: [record])
        let start = try fixture.size
        try journal.append(settling.entry(about: record.id, at: detectedAt))
        try fixture.bytes.prefix(start + 20).write(to: fixture.url)

        #expect(try fixture.journal().contents() == OutboxJournalContents(pending: [record], rejections: []))
        guard case .tornTail(_, let offset, let bytes)? = fixture.problems.value.first else {
            Issue.record("expected a torn tail, got \(fixture.problems.value)")
            return
        }
        #expect(offset == Int64(start))
        #expect(bytes == 20)
    }
}
