/// What the server said about one write: the answer of the handler an app registers with
/// ``TellerOutbox/register(kind:onConflict:send:)``.
///
/// The handler decides which errors are worth trying again: an error of the network (offline,
/// a timeout) or of a busy server (a 5xx) is a ``retryableFailure(_:)``; a refusal that the same
/// request will always get (a 4xx: invalid, forbidden) is a ``rejected(_:)``; a refusal because
/// the data changed elsewhere since the app made the write (a 409 or 412: a stale version) is a
/// ``conflict(_:)``, which the kind's ``OutboxConflictPolicy`` settles.
public enum OutboxSendOutcome: Sendable {
    /// The server accepted the write: it leaves the outbox. Then its own ``OutboxRecord/tag`` and
    /// each tag in `invalidating` are invalidated (``Teller/invalidate(tag:)``), and each branch
    /// in `tagsUnder` (``Teller/invalidate(tagsUnder:)``: `"users/42"` covers
    /// `"users/42/posts"`), so the repositories showing them fetch the server's version; until
    /// such a fetch saved, those of the write's tag keep showing the write on their cache.
    case sent(invalidating: [String] = [], tagsUnder: [TagPrefix] = [])
    /// The send failed in a way that may not happen again (offline, timeout, server busy): the
    /// write stays first in its scope and is tried again as the ``Teller/retryPolicy`` says. A
    /// `Single` that fails, and a send that takes longer than the ``Teller/fetchTimeout``, count
    /// as this.
    case retryableFailure(any Error)
    /// The server refused the write for good: it leaves the outbox and is listed in
    /// ``TellerOutbox/rejections`` (with this error) until the app acknowledges it; its tag is
    /// invalidated, so the screen shows the server's truth again. The scope's later writes are
    /// still sent.
    case rejected(any Error)
    /// The server refused the write because the data changed elsewhere since the app made it:
    /// the kind's ``OutboxConflictPolicy`` says which version stands. A write sent with
    /// ``OutboxRecord/overwritesConflict`` that conflicts again is a rejection.
    case conflict(any Error)
}
