import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// An append a crash interrupted leaves a partial entry at the end of the file: it is ignored
/// and reported, every entry before it is read, and the next append cuts it off.
@Suite struct OutboxJournalTornTailTests {
    @Test func aTornTailIsIgnoredReportedAndCutOffByTheNextAppend() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<3).map { outboxRecord($0) }
        _ = try fixture.journal(enqueueing: records)
        let whole = try fixture.size
        // The first 30 bytes of a fourth entry, as if the process died while writing it.
        let torn = try OutboxJournalFormat.encode(.enqueued(record: outboxRecord(3))).prefix(30)
        let handle = try FileHandle(forWritingTo: fixture.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: torn)
        try handle.close()

        let reader = fixture.journal()
        #expect(try reader.records() == records)
        #expect(fixture.problems.value == [.tornTail(url: fixture.url, offset: Int64(whole), bytes: 30)])

        let next = outboxRecord(4)
        try reader.append(.enqueued(record: next))
        let frame = try OutboxJournalFormat.encode(.enqueued(record: next))
        #expect(try fixture.size == whole + frame.count)
        #expect(try fixture.journal().records() == records + [next])
        #expect(fixture.problems.value.count == 1)
    }

    @Test func anEntryAnotherJournalWroteInPlaceOfATornTailOfTheSameSizeIsRead() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let first = outboxRecord(0)
        let reader = fixture.journal()
        try reader.append(.enqueued(record: first))
        // A torn tail exactly as long as the entry the other journal is about to write.
        let next = outboxRecord(1)
        var torn = try OutboxJournalFormat.encode(.enqueued(record: next))
        torn[torn.count - 1] ^= 0xFF
        let handle = try FileHandle(forWritingTo: fixture.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: torn)
        try handle.close()
        #expect(try reader.records() == [first])
        #expect(try reader.records() == [first])
        let sizeWithTornTail = try fixture.size

        try OutboxJournal(url: fixture.url).append(.enqueued(record: next))
        #expect(try fixture.size == sizeWithTornTail)
        #expect(try reader.records() == [first, next])
        // Reported once, though read three times.
        #expect(fixture.problems.value.count == 1)
    }
}
