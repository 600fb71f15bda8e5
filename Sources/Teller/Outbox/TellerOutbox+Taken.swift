import Foundation
@_spi(TellerInternals) import TellerRx

// Writes the server took, kept until a fetch brings them back: the journal keeps them (`.taken`
// entries) so that a relaunch before that fetch still shows them and marks their tags again,
// and forgets them (`.fetchedBack`) once a fetch that started after their tag's mark saved.

extension TellerOutbox {
    /// How many taken writes an outbox keeps at most. Beyond it the oldest quarter is forgotten,
    /// as a fetch would forget them: writes to tags that no screen fetches again must not make
    /// the journal grow for ever. A forgotten write still shows on a screen that has it now;
    /// after a relaunch it shows once a fetch brings the server's data.
    static let takenWritesKept = 1_000

    /// A write the server took, with the number of the mark this process set on its tag for it:
    /// a fetch that started at that number or later has it.
    struct TakenWrite {
        let record: OutboxRecord
        let mark: Int
    }

    /// The writes to `tag` the server took that no fetch brought back yet, in the order they
    /// were taken: repositories show them under the pending ones.
    func taken(tag: String) -> [OutboxRecord] {
        state.withLock { state in state.taken.filter { $0.record.tag == tag }.map(\.record) }
    }

    /// The server took `record`: it is kept, and its tag marked, until a fetch brings it back.
    func take(_ record: OutboxRecord, _ state: inout State, _ followup: inout Followup) {
        state.taken.append(TakenWrite(record: record, mark: mark(record, &followup)))
        guard state.taken.count > state.takenWritesKept else { return }
        // Down to three quarters of the limit at once: one journal entry for many writes, not
        // one more per write sent once the limit is reached.
        let excess = state.taken.count - state.takenWritesKept * 3 / 4
        // Unflushed, as a fetch's: lost, the writes are only kept until the next take.
        append(.fetchedBack(ids: state.taken.prefix(excess).map(\.record.id)), flush: false, &followup)
        state.taken.removeFirst(excess)
    }

    /// Makes the journal's taken writes the ones kept; those this process has not marked yet (a
    /// relaunch's, another process's) get their tags marked now, and repositories showing their
    /// tags are told, after the marks, so that they show them.
    ///
    /// - Returns: The ids of the taken writes.
    @discardableResult
    func adoptTaken(_ taken: [OutboxRecord], _ state: inout State, _ followup: inout Followup) -> Set<UUID> {
        let marks = Dictionary(state.taken.map { ($0.record.id, $0.mark) }, uniquingKeysWith: { first, _ in first })
        var unmarked: [OutboxRecord] = []
        state.taken = taken.map { record in
            if let mark = marks[record.id] { return TakenWrite(record: record, mark: mark) }
            unmarked.append(record)
            return TakenWrite(record: record, mark: mark(record, &followup))
        }
        if !unmarked.isEmpty {
            state.undelivered.enqueue(.sentElsewhere(unmarked))
            followup.hasChanges = true
        }
        return Set(taken.map(\.id))
    }

    /// Marks `record`'s tag now and returns the mark's number; repositories hear of the mark
    /// after the lock.
    private func mark(_ record: OutboxRecord, _ followup: inout Followup) -> Int {
        if !followup.markedTags.contains(record.tag) { followup.markedTags.append(record.tag) }
        return teller.markInvalidated(tag: record.tag)
    }

    /// A fetch of `tag` that started at `stamp` saved: the taken writes whose mark it postdates
    /// are in the server's data, and are forgotten. Recorded on the background scheduler, not
    /// on the saving thread; a crash before that only shows them again, and fetches once more.
    /// A save that brings none back schedules nothing: no later mark can be at `stamp` or
    /// before, so none can turn up meanwhile.
    func fetched(tag: String, startedAt stamp: Int) {
        guard state.withLock({ $0.taken.contains { $0.record.tag == tag && $0.mark <= stamp } }) else { return }
        _ = teller.backgroundScheduler.schedule(()) { [weak self] _ in
            self?.forgetFetchedBack(tag: tag, startedAt: stamp)
            return Disposables.create()
        }
    }

    private func forgetFetchedBack(tag: String, startedAt stamp: Int) {
        update { state, followup in
            let ids = state.taken.filter { $0.record.tag == tag && $0.mark <= stamp }.map(\.record.id)
            guard !ids.isEmpty else { return }
            do {
                // Unflushed: losing it only shows the writes again until one more fetch.
                try journal.append(.fetchedBack(ids: ids), flush: false)
            } catch {
                followup.events.append(
                    .outboxProblem(
                        "The outbox could not record that a fetch of \(tag) brought its writes back (\(error)); a relaunch shows them until the next fetch."
                    )
                )
                return
            }
            let fetchedBack = Set(ids)
            state.taken.removeAll { fetchedBack.contains($0.record.id) }
        }
    }
}
