import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// A damaged entry in the middle of the file (a bad byte in its body, or in its length, which
/// no longer says where the next entry starts) is skipped and reported, and the entries on
/// both sides of it are still read.
@Suite struct OutboxJournalDamagedEntryTests {
    @Test(arguments: [DamagedPart.body, .length, .marker])
    func aDamagedMiddleEntryIsSkippedAndReportedAndItsNeighboursKept(_ part: DamagedPart) throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<3).map { outboxRecord($0) }
        let journal = fixture.journal()
        var ends: [Int] = []
        for record in records {
            try journal.append(.enqueued(record: record))
            ends.append(try fixture.size)
        }
        var bytes = try fixture.bytes
        let start = ends[0]
        switch part {
        case .body:
            bytes[start + 20] ^= 0x01
        case .length:
            // A length far past the end of the file.
            bytes.replaceSubrange((start + 4)..<(start + 8), with: [0xFF, 0xFF, 0x00, 0x00])
        case .marker:
            bytes[start] = 0x00
        }
        try bytes.write(to: fixture.url)

        #expect(try fixture.journal().records() == [records[0], records[2]])
        #expect(fixture.problems.value.count == 1)
        guard case .damagedEntry(_, let offset, let length, _) = fixture.problems.value.first else {
            Issue.record("expected a damaged entry, got \(fixture.problems.value)")
            return
        }
        #expect(offset == Int64(start))
        #expect(length == ends[1] - ends[0])
    }

    @Test func aWholeEntryThatCannotBeDecodedIsSkippedAndReported() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let first = outboxRecord(0)
        let last = outboxRecord(2)
        // The writer reports nothing: only the reader's reports are counted.
        let journal = OutboxJournal(url: fixture.url)
        try journal.append(.enqueued(record: first))
        // A checked entry whose JSON is no entry this version knows (a later version's, say).
        let foreign = try OutboxJournalFormat.encode(.sent(id: UUID()))
        let body = Data(
            String(decoding: foreign.dropFirst(12), as: UTF8.self).replacingOccurrences(of: "sent", with: "send").utf8
        )
        let handle = try FileHandle(forWritingTo: fixture.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: OutboxJournalFormat.frame(body: body))
        try handle.close()
        try journal.append(.enqueued(record: last))

        #expect(try fixture.journal().records() == [first, last])
        #expect(fixture.problems.value.count == 1)
        #expect(fixture.problems.value.first?.description.contains("could not be decoded") == true)
    }

    enum DamagedPart: CaseIterable, Sendable {
        case body
        case length
        case marker
    }
}
