import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport

/// A journal file in a new temporary folder (not created until the first append), and its
/// record of the problems the journal reported.
struct JournalFixture {
    let url: URL
    let problems = Locked<[OutboxJournalProblem]>([])

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("teller-outbox-\(UUID())")
            .appendingPathComponent("outbox.journal")
    }

    /// A journal on the file that records what it reports.
    func journal(compactionThreshold: Int = 64 * 1024) -> OutboxJournal {
        let problems = problems
        return OutboxJournal(url: url, compactionThreshold: compactionThreshold) { problem in
            problems.withLock { $0.append(problem) }
        }
    }

    /// A journal on the file, after it enqueued `records` in order.
    func journal(enqueueing records: [OutboxRecord]) throws -> OutboxJournal {
        let journal = journal()
        for record in records {
            try journal.append(.enqueued(record: record))
        }
        return journal
    }

    /// Appends an entry with `body` written by hand (as an older journal wrote it, or one that
    /// does not decode) to the file.
    func append(body: String) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: OutboxJournalFormat.frame(body: Data(body.utf8)))
        try handle.close()
    }

    var bytes: Data {
        get throws { try Data(contentsOf: url) }
    }

    var size: Int {
        get throws { try bytes.count }
    }

    /// The file's inode: it changes only when the file is replaced.
    var inode: Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.intValue
    }

    func removeFolder() {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }
}

/// The `index`th test record, on tag `tag`.
func outboxRecord(_ index: Int, tag: String = "notes") -> OutboxRecord {
    OutboxRecord(
        kind: "saveNote",
        tag: tag,
        payload: Data("{\"text\":\"note \(index)\"}".utf8),
        createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 0.001)
    )
}
