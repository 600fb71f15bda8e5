import Foundation

/// The records a journal's entries leave pending, in the order they were enqueued; the writes
/// the server took that no fetch brought back yet, the rejections not yet acknowledged and the
/// conflicts not yet resolved, in the order they came; the pending records to send as
/// overwrites; and how many bytes they would take rewritten: what the journal replays its file
/// into.
///
/// Applying an entry costs the same however many records are pending.
struct OutboxPendingRecords {
    private struct Slot {
        /// Orders records by first enqueueing.
        var sequence: Int
        var record: OutboxRecord
        /// The size of the entry that enqueued it: about what it takes in a compacted file.
        var size: Int
    }

    private struct RejectedSlot {
        /// Orders rejections by arrival.
        var sequence: Int
        var rejection: OutboxJournalRefusal
        /// The sizes of the entries that enqueued and rejected it: a compaction writes both.
        var size: Int
    }

    private struct ConflictSlot {
        /// Orders conflicts by detection.
        var sequence: Int
        var reason: String
        var detectedAt: Date
        /// The size of the entry that recorded it.
        var size: Int
    }

    private var slots: [UUID: Slot] = [:]
    /// The writes the server took that no fetch brought back yet; `size` counts the entries
    /// that enqueued and took each, which a compaction writes.
    private var takenSlots: [UUID: Slot] = [:]
    private var rejected: [UUID: RejectedSlot] = [:]
    /// The unresolved conflicts of pending records.
    private var conflicted: [UUID: ConflictSlot] = [:]
    /// The pending records to send as overwrites, with the size of the entry that marked each.
    private var overwriting: [UUID: Int] = [:]
    private var nextSequence = 0
    /// The bytes the pending records' entries take: the size of the file a compaction writes.
    private(set) var liveBytes = 0

    var count: Int {
        slots.count
    }

    /// The pending records, oldest first.
    var ordered: [OutboxRecord] {
        slots.values.sorted { $0.sequence < $1.sequence }.map(\.record)
    }

    /// The writes the server took that no fetch brought back yet, in the order they were taken.
    var taken: [OutboxRecord] {
        takenSlots.values.sorted { $0.sequence < $1.sequence }.map(\.record)
    }

    /// The unacknowledged rejections, oldest first.
    var rejections: [OutboxJournalRefusal] {
        rejected.values.sorted { $0.sequence < $1.sequence }.map(\.rejection)
    }

    /// The unresolved conflicts, oldest first, each with its record as it waits.
    var conflicts: [OutboxJournalRefusal] {
        conflicted.sorted { $0.value.sequence < $1.value.sequence }.compactMap { id, conflict in
            slots[id].map {
                OutboxJournalRefusal(record: $0.record, reason: conflict.reason, refusedAt: conflict.detectedAt)
            }
        }
    }

    /// The pending records to send as overwrites.
    var overwrites: Set<UUID> {
        Set(overwriting.keys)
    }

    /// Applies `entry`, which takes `size` bytes on disk. An entry about a record that is not
    /// pending (its enqueueing entry was damaged, or it was already removed) changes nothing.
    mutating func apply(_ entry: OutboxJournalEntry, size: Int) {
        switch entry {
        case .enqueued(let record):
            if let old = slots[record.id] {
                liveBytes += size - old.size
                slots[record.id] = Slot(sequence: old.sequence, record: record, size: size)
            } else {
                liveBytes += size
                slots[record.id] = Slot(sequence: nextSequence, record: record, size: size)
                nextSequence += 1
            }
        case .sent(let id), .rejected(let id, _, nil), .discarded(let id):
            if let old = remove(id) { liveBytes -= old.size }
        case .taken(let id):
            guard let old = remove(id) else { return }
            liveBytes += size
            takenSlots[id] = Slot(sequence: nextSequence, record: old.record, size: old.size + size)
            nextSequence += 1
        case .fetchedBack(let ids):
            for id in ids {
                if let old = takenSlots.removeValue(forKey: id) { liveBytes -= old.size }
            }
        case .rejected(let id, let reason, let rejectedAt?):
            guard let old = remove(id) else { return }
            liveBytes += size
            let rejection = OutboxJournalRefusal(record: old.record, reason: reason, refusedAt: rejectedAt)
            rejected[id] = RejectedSlot(sequence: nextSequence, rejection: rejection, size: old.size + size)
            nextSequence += 1
        case .acknowledged(let id):
            if let old = rejected.removeValue(forKey: id) { liveBytes -= old.size }
        case .attempted(let id, let attempts):
            slots[id]?.record.attempts = attempts
        case .conflicted(let id, let reason, let detectedAt):
            guard slots[id] != nil else { return }
            if let old = conflicted[id] { liveBytes -= old.size }
            conflicted[id] = ConflictSlot(sequence: nextSequence, reason: reason, detectedAt: detectedAt, size: size)
            nextSequence += 1
            liveBytes += size
        case .overwriting(let id):
            guard slots[id] != nil else { return }
            if let old = conflicted.removeValue(forKey: id) { liveBytes -= old.size }
            guard overwriting[id] == nil else { return }
            overwriting[id] = size
            liveBytes += size
        }
    }

    /// Removes the pending record `id` with its conflict and overwrite mark, whose bytes no
    /// longer count, and returns its slot.
    private mutating func remove(_ id: UUID) -> Slot? {
        guard let slot = slots.removeValue(forKey: id) else { return nil }
        if let conflict = conflicted.removeValue(forKey: id) { liveBytes -= conflict.size }
        if let mark = overwriting.removeValue(forKey: id) { liveBytes -= mark }
        return slot
    }
}
