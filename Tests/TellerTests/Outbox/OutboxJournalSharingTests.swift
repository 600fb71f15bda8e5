import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Two journals on one file, as two processes of one app (an app and its extension) have: each
/// sees the other's appends, and neither loses the other's, even across a compaction.
@Suite struct OutboxJournalSharingTests {
    @Test func eachJournalSeesTheOthersAppends() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let app = fixture.journal()
        let extensionJournal = fixture.journal()
        let records = (0..<4).map { outboxRecord($0) }
        try app.append(.enqueued(record: records[0]))
        #expect(try extensionJournal.records() == [records[0]])
        try extensionJournal.append(.enqueued(record: records[1]))
        try app.append(.enqueued(record: records[2]))
        try extensionJournal.append(.sent(id: records[0].id))
        try app.append(.enqueued(record: records[3]))
        let expected = Array(records.dropFirst())
        #expect(try app.records() == expected)
        #expect(try extensionJournal.records() == expected)
        #expect(try fixture.journal().records() == expected)
    }

    @Test func appendsAfterTheOtherJournalCompactedAreKept() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let records = (0..<6).map { outboxRecord($0) }
        let app = try fixture.journal(enqueueing: Array(records.prefix(4)))
        let extensionJournal = fixture.journal()
        #expect(try extensionJournal.records() == Array(records.prefix(4)))
        try app.append(.sent(id: records[0].id))
        try app.append(.sent(id: records[1].id))
        let inode = fixture.inode
        try app.compact()
        #expect(fixture.inode != inode)

        // The extension last read the file before the compaction replaced it.
        try extensionJournal.append(.enqueued(record: records[4]))
        try extensionJournal.append(.sent(id: records[2].id))
        try app.append(.enqueued(record: records[5]))
        let expected = [records[3], records[4], records[5]]
        #expect(try app.records() == expected)
        #expect(try extensionJournal.records() == expected)
        #expect(try fixture.journal().records() == expected)
        #expect(fixture.problems.value.isEmpty)
    }

    @Test func journalsAppendingFromManyThreadsAtOnceLoseNothing() async throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let journals = [fixture.journal(compactionThreshold: 2048), fixture.journal(compactionThreshold: 2048)]
        let perJournal = 40
        let kept = try await withThrowingTaskGroup(of: [OutboxRecord].self) { group in
            for (which, journal) in journals.enumerated() {
                group.addTask {
                    var kept: [OutboxRecord] = []
                    for index in 0..<perJournal {
                        let record = outboxRecord(which * 1000 + index)
                        try journal.append(.enqueued(record: record))
                        // Every other one is sent, so the file compacts now and then.
                        if index.isMultiple(of: 2) {
                            try journal.append(.sent(id: record.id))
                        } else {
                            kept.append(record)
                        }
                    }
                    return kept
                }
            }
            return try await group.reduce(into: Set<UUID>()) { $0.formUnion($1.map(\.id)) }
        }
        #expect(Set(try fixture.journal().records().map(\.id)) == kept)
        #expect(fixture.problems.value.isEmpty)
    }
}
