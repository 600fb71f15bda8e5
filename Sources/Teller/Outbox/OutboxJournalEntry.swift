import Foundation

/// One line of the outbox's journal: a record enqueued, or what became of one. Replaying the
/// entries in file order gives the records still pending.
///
/// Stored as JSON (labels are the keys, so renaming a case or a label changes the format).
package enum OutboxJournalEntry: Sendable, Codable, Equatable {
    /// The record was enqueued (or, when its id is already pending, replaced in place).
    case enqueued(record: OutboxRecord)
    /// The server accepted the write; the record leaves the outbox. (Written before taken
    /// writes were kept across launches; an outbox now writes ``taken(id:)``.)
    case sent(id: UUID)
    /// The server accepted the write: the record leaves the pending writes, and is kept as a
    /// write the server took, shown over cached data that may predate it, until a
    /// ``fetchedBack(ids:)`` entry says a fetch of its tag brought it back.
    case taken(id: UUID)
    /// Fetches that started after these writes were taken saved their tags' data: the server's
    /// data has them, and they are forgotten.
    case fetchedBack(ids: [UUID])
    /// The server refused the write for good; the record leaves the pending writes. With
    /// `rejectedAt` it is kept as a rejection until an ``acknowledged(id:)`` entry; without
    /// (an entry written before rejections were kept across launches) it is gone at once.
    case rejected(id: UUID, reason: String, rejectedAt: Date? = nil)
    /// The app acknowledged the rejection of the write; it is forgotten.
    case acknowledged(id: UUID)
    /// The app dropped the write without sending it; the record leaves the outbox.
    case discarded(id: UUID)
    /// Sending was attempted; the record's ``OutboxRecord/attempts`` is now `attempts`.
    case attempted(id: UUID, attempts: Int)
    /// The server refused the write because the data changed elsewhere, and the app decides
    /// (``OutboxConflictPolicy/manual``): the record stays pending, its scope held, until an
    /// ``overwriting(id:)`` or ``discarded(id:)`` entry settles it.
    case conflicted(id: UUID, reason: String, detectedAt: Date)
    /// The app's version of a conflicting write stands: the record is next sent with
    /// ``OutboxRecord/overwritesConflict`` set, and its conflict (if any) is settled.
    case overwriting(id: UUID)
}
