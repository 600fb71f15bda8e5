import Foundation

/// A write the server refused for good (its handler answered
/// ``OutboxSendOutcome/rejected(_:)``): listed in ``TellerOutbox/rejections`` until the app
/// shows it and calls ``TellerOutbox/acknowledge(rejectionOf:)``.
///
/// A value: read it on any thread. Rejections are kept in the outbox's journal until they are
/// acknowledged, so a relaunched app lists them again; the handler's error cannot be stored, so
/// after a relaunch ``error`` is an ``OutboxRejectionReason`` with its description.
public struct OutboxRejection: Sendable, CustomStringConvertible {
    /// The write, as it was last attempted.
    public let record: OutboxRecord
    /// What the handler rejected it with; after a relaunch, an ``OutboxRejectionReason`` that
    /// describes it.
    public let error: any Error
    /// When the rejection arrived, by the ``Teller``'s clock.
    public let rejectedAt: Date

    /// Creates a rejection. The outbox makes these; tests may too.
    ///
    /// - Parameters:
    ///   - record: The rejected write.
    ///   - error: Why it was rejected.
    ///   - rejectedAt: When.
    public init(record: OutboxRecord, error: any Error, rejectedAt: Date) {
        self.record = record
        self.error = error
        self.rejectedAt = rejectedAt
    }

    /// A summary such as `write 1F2E… (saveNote) rejected: conflict`.
    public var description: String {
        "write \(record.id) (\(record.kind)) rejected: \(error)"
    }
}
