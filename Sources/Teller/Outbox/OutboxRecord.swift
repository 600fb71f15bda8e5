import Foundation

/// One write the app made that the server has not yet acknowledged: what the outbox keeps on
/// disk until the write is sent, rejected or discarded.
///
/// A plain value: create and read it on any thread. The payload is opaque bytes (the app's
/// `Codable` write, encoded by the app), so the outbox never needs the app's types to store
/// or reload a record; the app's handler for ``kind`` decodes it.
public struct OutboxRecord: Sendable, Codable, Equatable {
    /// Identifies the record in the outbox's journal; unique per record.
    public var id: UUID
    /// Sent with every attempt, so a server that saw a previous attempt (one whose answer was
    /// lost) can apply the write once only.
    public var idempotencyKey: String
    /// The name of the handler the app registers at launch for this kind of write, so a
    /// relaunched app can send records an earlier launch enqueued.
    public var kind: String
    /// Records of one scope are sent one at a time, in order; different scopes independently.
    public var scope: String
    /// The tag of the cached data this write changes.
    public var tag: String
    /// The app's write, encoded by the app.
    public var payload: Data
    /// When the app made the write.
    public var createdAt: Date
    /// How many times sending it has been attempted so far.
    public var attempts: Int
    /// Whether this send is to replace what the server has: the write conflicted with a change
    /// made elsewhere and the app's version wins (``OutboxConflictPolicy/clientWins``, or
    /// ``TellerOutbox/resolve(conflictOf:keeping:)`` with ``OutboxConflictResolution/mine``).
    /// Send it without the check that made the server refuse it (an `If-Match` version, say).
    /// The journal keeps the mark apart from the record (a record read back or decoded has it
    /// `false`): a write resolved for the app's version before a relaunch is still sent as an
    /// overwrite after it.
    public var overwritesConflict = false

    private enum CodingKeys: String, CodingKey {
        case id, idempotencyKey, kind, scope, tag, payload, createdAt, attempts
    }

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - id: The record's identity; a new random one by default.
    ///   - idempotencyKey: The key sent with every attempt; by default `id`'s string.
    ///   - kind: The name of the handler that sends it.
    ///   - tag: The tag of the cached data the write changes.
    ///   - scope: The sequence it is sent in; by default `tag`, so writes to one tag go out in
    ///     the order they were made.
    ///   - payload: The app's write, encoded.
    ///   - createdAt: When the write was made.
    ///   - attempts: Attempts made so far; 0 for a new write.
    public init(
        id: UUID = UUID(),
        idempotencyKey: String? = nil,
        kind: String,
        tag: String,
        scope: String? = nil,
        payload: Data,
        createdAt: Date,
        attempts: Int = 0
    ) {
        self.id = id
        self.idempotencyKey = idempotencyKey ?? id.uuidString
        self.kind = kind
        self.scope = scope ?? tag
        self.tag = tag
        self.payload = payload
        self.createdAt = createdAt
        self.attempts = attempts
    }
}
