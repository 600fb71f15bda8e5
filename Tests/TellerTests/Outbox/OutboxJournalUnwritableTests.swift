import Foundation
import Teller
import TellerRx
import TellerTestSupport
import Testing

/// A journal that cannot be written throws a clear error, records nothing, and stays usable.
@Suite struct OutboxJournalUnwritableTests {
    @Test func anUnwritableFolderThrowsAndRecordsNothing() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        // A regular file where the folder should be: no user, root included, can write there.
        let folder = fixture.url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("file".utf8).write(to: folder.appendingPathComponent("blocker"))
        let journal = OutboxJournal(url: folder.appendingPathComponent("blocker/outbox.journal"))
        #expect {
            try journal.append(.enqueued(record: outboxRecord(1)))
        } throws: { error in
            guard case .unwritable? = error as? OutboxJournalError else { return false }
            return "\(error)".contains("could not be written")
        }
        #expect(try journal.records().isEmpty)
    }

    @Test func aFolderInPlaceOfTheFileThrowsOnAppendAndOnRead() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        try FileManager.default.createDirectory(at: fixture.url, withIntermediateDirectories: true)
        let journal = fixture.journal()
        #expect(throws: OutboxJournalError.self) {
            try journal.append(.enqueued(record: outboxRecord(1)))
        }
        #expect(throws: OutboxJournalError.self) {
            try journal.records()
        }
    }

    @Test func anOversizedEntryIsRefusedBeforeTouchingTheFile() throws {
        let fixture = JournalFixture()
        defer { fixture.removeFolder() }
        let journal = fixture.journal()
        let huge = OutboxRecord(kind: "upload", tag: "files", payload: Data(count: 13 << 20), createdAt: Date())
        #expect {
            try journal.append(.enqueued(record: huge))
        } throws: { error in
            guard case .entryTooLarge? = error as? OutboxJournalError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.url.path))
    }
}
