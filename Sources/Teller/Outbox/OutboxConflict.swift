import Foundation

/// What a ``TellerOutbox`` does with a write the server refused because the data changed
/// elsewhere since the app made it (the handler answered ``OutboxSendOutcome/conflict(_:)``):
/// which version stands. Set per kind, in ``TellerOutbox/register(kind:onConflict:send:)``.
///
/// The screen shows the app's version on top of the server's data meanwhile (a rebase, see
/// ``CacheState/pendingWrites``), until the policy decides.
public enum OutboxConflictPolicy: Sendable {
    /// The server's version stands: the write leaves the outbox unsent, its tag is fetched, and
    /// ``OutboxChange/discarded(_:)`` tells it.
    case serverWins
    /// The app's version stands: the write is sent again at once with
    /// ``OutboxRecord/overwritesConflict`` set, for the handler to send it without the check that
    /// made the server refuse it. A second conflict is a rejection.
    case clientWins
    /// The app decides: the write stays first in its scope, nothing more of the scope is sent,
    /// and it is listed in ``TellerOutbox/conflicts`` until
    /// ``TellerOutbox/resolve(conflictOf:keeping:)``. Nothing is dropped without the app's say.
    /// The journal keeps the conflict and then the app's decision: a relaunched app (or another
    /// process on the journal) lists the conflict again and holds its scope until it is
    /// resolved, and sends a write resolved for the app's version as an overwrite.
    case manual
}

/// A write the server refused because of a change made elsewhere, waiting for the app to say
/// which version stands (``OutboxConflictPolicy/manual``). A value: read it on any thread.
public struct OutboxConflict: Sendable {
    /// The write, as it waits in the outbox.
    public let record: OutboxRecord
    /// What the handler answered with ``OutboxSendOutcome/conflict(_:)``; after a relaunch (or
    /// when another process recorded the conflict), an ``OutboxRejectionReason`` that describes
    /// it, since the handler's error cannot be stored.
    public let error: any Error
    /// When the server refused it, by the ``Teller``'s clock (kept across relaunches).
    public let detectedAt: Date
}

/// Which version of a conflicting write stands (``TellerOutbox/resolve(conflictOf:keeping:)``).
public enum OutboxConflictResolution: Sendable {
    /// The server's: the write leaves the outbox unsent, and its tag is fetched.
    case server
    /// The app's: the write is sent again with ``OutboxRecord/overwritesConflict`` set.
    case mine
}
