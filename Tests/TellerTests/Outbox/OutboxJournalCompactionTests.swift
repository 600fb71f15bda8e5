import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// When dead entries dominate the file, an append rewrites it with only the pending records.
@Suite struct OutboxJournalCompactionTests {
    @Test func compactionKeepsThePendingRecordsInOrderAndShrinksTheFile() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let journal = fixture.journal(compactionThreshold: 4096)
        var pending: [OutboxRecord] = []
        var largest = 0
        // Every third record stays; the others are sent at once.
        for index in 0..<300 {
            let record = outboxRecord(index)
            try journal.append(.enqueued(record: record))
            if index.isMultiple(of: 3) {
                pending.append(record)
                try journal.append(.attempted(id: record.id, attempts: 1))
                pending[pending.count - 1].attempts = 1
            } else {
                try journal.append(.sent(id: record.id))
            }
            largest = max(largest, try fixture.size)
        }
        let oneEntry = try OutboxJournalFormat.encode(.enqueued(record: pending[0])).count
        #expect(try journal.records() == pending)
        #expect(try fixture.journal().records() == pending)
        // Uncompacted, 300 enqueues, 200 sends and 100 attempts; compacted, never more than
        // twice the pending records' entries plus the threshold (and a few bytes, as entries
        // of longer payloads are a little longer than the first one).
        let bound = 2 * pending.count * oneEntry + 4096 + 2 * oneEntry
        #expect(largest <= bound)
        #expect(try fixture.size <= bound)
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func anExplicitCompactionLeavesOnlyThePendingRecords() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<4).map { outboxRecord($0) }
        let journal = try fixture.journal(enqueueing: records)
        try journal.append(.discarded(id: records[1].id))
        let inode = fixture.inode
        try journal.compact()
        let expected = [records[0], records[2], records[3]]
        let entries = try expected.map { try OutboxJournalFormat.encode(.enqueued(record: $0)) }
        #expect(try fixture.bytes == entries.reduce(Data(), +))
        #expect(fixture.inode != inode)
        #expect(try journal.records() == expected)
        #expect(try fixture.journal().records() == expected)
    }

    @Test func aCompactionRemovesTheTemporaryFileOfACompactionACrashInterrupted() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let journal = fixture.journal()
        let record = outboxRecord(1)
        try journal.append(.enqueued(record: record))
        let folder = fixture.url.deletingLastPathComponent()
        let stale = folder.appendingPathComponent(".outbox.journal.4242.\(UUID().uuidString).tmp")
        // Another journal's, whose name starts alike: not this one's to remove.
        let other = folder.appendingPathComponent(".outbox.journal.old.4242.\(UUID().uuidString).tmp")
        try Data("partial".utf8).write(to: stale)
        try Data("partial".utf8).write(to: other)
        try journal.compact()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
        #expect(try fixture.journal().records() == [record])
    }
}
