import Foundation

// How a TellerOutbox settles conflicts (``OutboxSendOutcome/conflict(_:)``), and keeps the app's
// decisions in the journal: a `.conflicted` entry for a conflict the app is to resolve, an
// `.overwriting` one for a write whose version stands, a `.discarded` one for a write dropped.

extension TellerOutbox {
    /// The server refused `record` because the data changed elsewhere (`reason` describes the
    /// `error`): its kind's policy settles it. `pending` is the write as it waits (`nil` when
    /// discarded meanwhile).
    func conflicted(
        _ record: OutboxRecord,
        pending: OutboxRecord?,
        error: any Error,
        reason: String,
        at now: Date,
        _ state: inout State,
        _ followup: inout Followup
    ) {
        guard let pending else {
            state.queue.answered(record)
            return
        }
        let policy = state.handlers[record.kind]?.onConflict ?? .manual
        followup.events.append(.writeConflicted(kind: record.kind, id: record.id, error: error, policy: policy))
        switch policy {
        case .serverWins:
            append(.discarded(id: record.id), &followup)
            _ = state.queue.remove(record.id)
            emit(.discarded(pending), &state, &followup)
            followup.invalidations.append(record.tag)
            state.queue.answered(record)
        case .clientWins:
            // Not flushed: lost, the write is sent as it was first, and conflicts again.
            append(.overwriting(id: record.id), flush: false, &followup)
            state.queue.markOverwrite(record.id)
            state.queue.answered(record)
        case .manual:
            // A failed append is logged: the conflict stays listed (and its scope held) while this
            // outbox lives, and a relaunch sends the write again.
            append(.conflicted(id: record.id, reason: reason, detectedAt: now), &followup)
            state.queue.hold(record)
            let conflict = OutboxConflict(record: pending, error: error, detectedAt: now)
            state.conflicts.append(conflict)
            emit(.conflicted(conflict), &state, &followup)
        }
    }

    /// Settles the conflict of the write `id` as the app said, recording the decision first.
    func resolve(_ id: UUID, keeping resolution: OutboxConflictResolution) throws(OutboxError) -> Bool {
        let (resolved, failure) = update { state, followup -> (Bool, OutboxError?) in
            guard let index = state.conflicts.firstIndex(where: { $0.record.id == id }),
                let pending = state.queue.record(id)
            else { return (false, nil) }
            do {
                try journal.append(resolution == .server ? .discarded(id: id) : .overwriting(id: id))
            } catch {
                return (false, .notRecorded(reason: "\(error)"))
            }
            switch resolution {
            case .server:
                _ = state.queue.remove(id)
                emit(.discarded(pending), &state, &followup)
                followup.invalidations.append(pending.tag)
            case .mine:
                state.queue.markOverwrite(id)
                state.queue.release(pending)
            }
            let conflict = state.conflicts.remove(at: index)
            emit(.conflictResolved(conflict), &state, &followup)
            pump(&state, &followup)
            return (true, nil)
        }
        if let failure { throw failure }
        return resolved
    }

    /// Makes the journal's unresolved conflicts (`contents`, read again after the queue took its
    /// pending writes) the conflicts listed, their writes held, and marks its overwrites: those
    /// this process already lists keep their handler's error, the others (a relaunch's, another
    /// process's) get an ``OutboxRejectionReason``. A conflict listed here that the journal lacks
    /// stays while its write is pending and not marked as an overwrite (its entry could not be
    /// written); the others (another process resolved them) go, released after the lock.
    ///
    /// - Returns: Whether the conflicts listed changed.
    func adoptConflicts(_ contents: OutboxJournalContents, _ state: inout State, _ followup: inout Followup) -> Bool {
        let listed = state.conflicts
        var known: [UUID: OutboxConflict] = [:]
        for conflict in listed { known[conflict.record.id] = conflict }
        var adopted = contents.conflicts.map { conflict in
            known.removeValue(forKey: conflict.record.id)
                ?? OutboxConflict(
                    record: conflict.record,
                    error: OutboxRejectionReason(conflict.reason),
                    detectedAt: conflict.refusedAt
                )
        }
        for conflict in listed where known[conflict.record.id] != nil {
            let id = conflict.record.id
            guard state.queue.record(id) != nil, !contents.overwrites.contains(id) else { continue }
            adopted.append(conflict)
            known[id] = nil
        }
        state.conflicts = adopted
        followup.releasedConflicts += known.values
        state.queue.adopt(held: Set(adopted.map(\.record.id)), overwrites: contents.overwrites)
        return adopted.map(\.record.id) != listed.map(\.record.id)
    }
}
