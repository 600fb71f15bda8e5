import Foundation

/// A rejection as an outbox journal keeps it until the app acknowledges it: the write as it
/// was last attempted, why the server refused it, and when.
package struct OutboxJournalRejection: Sendable, Equatable {
    /// The rejected write.
    package var record: OutboxRecord
    /// The rejection's error, as its description.
    package var reason: String
    /// When the rejection arrived.
    package var rejectedAt: Date

    package init(record: OutboxRecord, reason: String, rejectedAt: Date) {
        self.record = record
        self.reason = reason
        self.rejectedAt = rejectedAt
    }
}

/// A conflict as an outbox journal keeps it until the app resolves it
/// (``OutboxConflictPolicy/manual``): the write, still pending, why the server refused it, and
/// when.
package struct OutboxJournalConflict: Sendable, Equatable {
    /// The conflicting write, as it waits.
    package var record: OutboxRecord
    /// The conflict's error, as its description.
    package var reason: String
    /// When the server refused it.
    package var detectedAt: Date

    package init(record: OutboxRecord, reason: String, detectedAt: Date) {
        self.record = record
        self.reason = reason
        self.detectedAt = detectedAt
    }
}

/// What an outbox journal holds: the writes pending, the rejections not yet acknowledged, the
/// conflicts not yet resolved and the writes the server took that no fetch brought back yet,
/// each oldest first, and the pending writes to send as overwrites.
package struct OutboxJournalContents: Sendable, Equatable {
    /// The records pending, oldest enqueued first (those in conflict too).
    package var pending: [OutboxRecord]
    /// The unacknowledged rejections, in the order they were rejected.
    package var rejections: [OutboxJournalRejection]
    /// The unresolved conflicts, in the order they were detected; their records are pending.
    package var conflicts: [OutboxJournalConflict]
    /// The pending records whose conflicts were settled for the app's version.
    package var overwrites: Set<UUID>
    /// The writes the server took that no fetch of their tags brought back yet, in the order
    /// they were taken.
    package var taken: [OutboxRecord]

    package init(
        pending: [OutboxRecord],
        rejections: [OutboxJournalRejection],
        conflicts: [OutboxJournalConflict] = [],
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
