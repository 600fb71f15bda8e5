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

/// What an outbox journal holds: the writes pending and the rejections not yet acknowledged,
/// each oldest first.
package struct OutboxJournalContents: Sendable, Equatable {
    /// The records pending, oldest enqueued first.
    package var pending: [OutboxRecord]
    /// The unacknowledged rejections, in the order they were rejected.
    package var rejections: [OutboxJournalRejection]

    package init(pending: [OutboxRecord], rejections: [OutboxJournalRejection]) {
        self.pending = pending
        self.rejections = rejections
    }
}
