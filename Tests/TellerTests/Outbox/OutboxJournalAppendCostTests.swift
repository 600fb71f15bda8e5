import Foundation
import Teller
import TellerRx
import TellerTestSupport
import Testing

/// An append writes its one entry at the end of the file, however many records are pending:
/// the file is neither replaced nor rewritten.
@Suite struct OutboxJournalAppendCostTests {
    @Test func anEnqueueAfterTenThousandRecordsOnlyAddsItsOwnEntry() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        // Ten thousand entries written by hand in one go (ten thousand flushed appends would
        // take minutes on a slow disk).
        let records = (0..<10_000).map { outboxRecord($0) }
        let existing = try records.map { try OutboxJournalFormat.encode(.enqueued(record: $0)) }.reduce(Data(), +)
        try FileManager.default.createDirectory(
            at: fixture.url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try existing.write(to: fixture.url)
        let journal = fixture.journal()
        #expect(try journal.records().count == 10_000)
        let inode = fixture.inode

        for index in 10_000..<10_003 {
            let record = outboxRecord(index)
            let before = try fixture.size
            try journal.append(.enqueued(record: record))
            let entry = try OutboxJournalFormat.encode(.enqueued(record: record))
            #expect(try fixture.size == before + entry.count)
        }
        #expect(fixture.inode == inode)
        #expect(try fixture.bytes.prefix(existing.count) == existing)
        #expect(try fixture.journal().records().count == 10_003)
    }
}
