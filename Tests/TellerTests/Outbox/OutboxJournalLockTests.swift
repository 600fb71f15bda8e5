import Foundation
import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// The journal keeps its lock file open between calls, but holds the lock only during a call,
/// and always locks the file its path names.
@Suite struct OutboxJournalLockTests {
    private let fixture = JournalFixture()

    private var lockPath: String {
        fixture.url.path + ".lock"
    }

    @Test func aJournalBetweenCallsLeavesItsLockFreeForOtherProcesses() throws {
        defer { fixture.removeFolder() }
        let records = [outboxRecord(0), outboxRecord(1)]
        let journal = try fixture.journal(enqueueing: [records[0]])

        // Another process's lock: a descriptor of its own, which the journal's lock would block.
        var other = FileLock()
        defer { other.close() }
        #expect(try other.tryAcquire(path: lockPath))
        other.release()
        try journal.append(.enqueued(record: records[1]))
        #expect(try other.tryAcquire(path: lockPath))

        #expect(try journal.records().map(\.id) == records.map(\.id))
    }

    @Test func aJournalWhoseLockFileWasRemovedLocksTheOneItsPathNamesNow() throws {
        defer { fixture.removeFolder() }
        let journal = try fixture.journal(enqueueing: [outboxRecord(0)])
        try FileManager.default.removeItem(atPath: lockPath)

        try journal.append(.enqueued(record: outboxRecord(1)))

        // Other processes open the path: the journal must lock that file, not the removed one.
        #expect(FileManager.default.fileExists(atPath: lockPath))
        #expect(try journal.records().count == 2)
    }
}
