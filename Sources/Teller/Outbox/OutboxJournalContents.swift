import Foundation

/// A write the server refused, as an outbox journal keeps it: a rejection until the app
/// acknowledges it, or a conflict (``OutboxConflictPolicy/manual``), its write still pending,
/// until the app resolves it.
package struct OutboxJournalRefusal: Sendable, Equatable {
    /// The refused write: as it was last attempted, or, in conflict, as it waits.
    package var record: OutboxRecord
    /// The refusal's error, as its description.
    package var reason: String
    /// When the server refused it (the rejection arrived, the conflict was detected).
    package var refusedAt: Date

    package init(record: OutboxRecord, reason: String, refusedAt: Date) {
        self.record = record
        self.reason = reason
        self.refusedAt = refusedAt
    }
}

/// What an outbox journal holds: the writes pending, the rejections not yet acknowledged, the
/// conflicts not yet resolved and the writes the server took that no fetch brought back yet,
/// each oldest first, and the pending writes to send as overwrites.
package struct OutboxJournalContents: Sendable, Equatable {
    /// The records pending, oldest enqueued first (those in conflict too).
    package var pending: [OutboxRecord]
    /// The unacknowledged rejections, in the order they were rejected.
    package var rejections: [OutboxJournalRefusal]
    /// The unresolved conflicts, in the order they were detected; their records are pending.
    package var conflicts: [OutboxJournalRefusal]
    /// The pending records whose conflicts were settled for the app's version.
    package var overwrites: Set<UUID>
    /// The writes the server took that no fetch of their tags brought back yet, in the order
    /// they were taken.
    package var taken: [OutboxRecord]

    package init(
        pending: [OutboxRecord],
        rejections: [OutboxJournalRefusal],
        conflicts: [OutboxJournalRefusal] = [],
        overwrites: Set<UUID> = [],
        taken: [OutboxRecord] = []
    ) {
        self.pending = pending
        self.rejections = rejections
        self.conflicts = conflicts
        self.overwrites = overwrites
        self.taken = taken
    }
}
