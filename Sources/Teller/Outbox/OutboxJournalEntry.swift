import Foundation

/// One line of the outbox's journal: a record enqueued, or what became of one. Replaying the
/// entries in file order gives the records still pending.
///
/// Stored as JSON (labels are the keys, so renaming a case or a label changes the format).
package enum OutboxJournalEntry: Sendable, Codable, Equatable {
    /// The record was enqueued (or, when its id is already pending, replaced in place).
    case enqueued(record: OutboxRecord)
    /// The server accepted the write; the record leaves the outbox.
    case sent(id: UUID)
    /// The server refused the write for good; the record leaves the outbox.
    case rejected(id: UUID, reason: String)
    /// The app dropped the write without sending it; the record leaves the outbox.
    case discarded(id: UUID)
    /// Sending was attempted; the record's ``OutboxRecord/attempts`` is now `attempts`.
    case attempted(id: UUID, attempts: Int)
}
