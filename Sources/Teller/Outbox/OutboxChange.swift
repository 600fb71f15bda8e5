/// Something that changed in a ``TellerOutbox``'s pending writes or rejections, as
/// ``TellerOutbox/changes`` tells it: a repository showing a tag can redraw its pending
/// writes, a screen its "not sent yet" marks.
public enum OutboxChange: Sendable {
    /// The write was enqueued (it is durable).
    case enqueued(OutboxRecord)
    /// An attempt to send the write failed; the record carries the new attempt count. The write
    /// is still pending.
    case attempted(OutboxRecord)
    /// The server accepted the write; it left the outbox.
    case sent(OutboxRecord)
    /// The server refused the write; it left the outbox and is listed in
    /// ``TellerOutbox/rejections``.
    case rejected(OutboxRejection)
    /// The app discarded the write (``TellerOutbox/discard(id:)`` or
    /// ``TellerOutbox/discardAll()``); it left the outbox unsent.
    case discarded(OutboxRecord)
    /// The app acknowledged the rejection; it is no longer listed.
    case acknowledged(OutboxRejection)
    /// The pending writes, the rejections or the conflicts were read again from the journal and
    /// differ from what this outbox knew: another process (an app extension) enqueued, sent,
    /// rejected, acknowledged or resolved some, or a relaunch found conflicts the last launch
    /// left. Read ``TellerOutbox/pending``, ``TellerOutbox/rejections`` and
    /// ``TellerOutbox/conflicts`` again.
    case reloaded
    /// The server refused the write because the data changed elsewhere, and it waits for the
    /// app's decision (``OutboxConflictPolicy/manual``), listed in ``TellerOutbox/conflicts``.
    case conflicted(OutboxConflict)
    /// The app resolved the conflict (``TellerOutbox/resolve(conflictOf:keeping:)``): it is no
    /// longer listed.
    case conflictResolved(OutboxConflict)
}

extension OutboxChange {
    /// Whose writes it changed (those waiting, or their failures): one tag's, or every tag's
    /// (`nil`: the journal was read again).
    var changedTag: String? {
        switch self {
        case .enqueued(let record), .attempted(let record), .sent(let record), .discarded(let record): record.tag
        case .rejected(let rejection), .acknowledged(let rejection): rejection.record.tag
        case .conflicted(let conflict), .conflictResolved(let conflict): conflict.record.tag
        case .reloaded: nil
        }
    }
}
