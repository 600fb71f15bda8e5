import Foundation

/// The cache observation and the metadata: what the repository shows, and changes made elsewhere.
extension RepositoryMachine {
    mutating func cacheEmitted(observation: Int, cache: Parcel, isEmpty: Bool, now: Date) -> [Action] {
        // Paused for a save: the flight's end reads the cache again.
        if case .pausedForSave(observation)? = active?.observation {
            return [.quiet(.pausedForSave)]
        }
        guard case .on(observation)? = active?.observation else {
            return [
                .quiet(.otherObservation),
                .log(.eventIgnored(tag: active?.requirements.tag, event: "cache emitted while not observed")),
            ]
        }
        active?.content = .read(isEmpty ? nil : cache)
        if active?.isInvalidated == false { active?.takenWrites = [] }
        let effects = ext.cacheRead(.value)
        var actions: [Action] = []
        if active?.flight == nil, shouldRefreshAutomatically(.cacheEmitted, now: now) {
            actions += startWaiting(for: nil)
        }
        return actions + emit() + apply(effects)
    }

    /// The cache observation returned without a value. Nothing can be shown until it emits; say
    /// so in the log instead of hanging silently.
    mutating func cacheSilent(observation: Int) -> [Action] {
        guard let active, case .on(observation) = active.observation else { return [.quiet(.otherObservation)] }
        return [.log(.cacheNotEmittedOnSubscribe(tag: active.requirements.tag))] + apply(ext.cacheRead(.nothing))
    }

    /// `observeCache` failed: show it, and read again on the next occasion. It says nothing
    /// about fetching, so it is no refresh error.
    mutating func cacheFailed(observation: Int, error: any Error) -> [Action] {
        guard let tag = active?.requirements.tag, active?.isSubscription(observation) == true else {
            return [.quiet(.otherObservation)]
        }
        active?.observation = .off
        active?.content = .failed(error)
        let effects = ext.cacheRead(.failed)
        return [.log(.observeFailed(tag: tag, error: error))] + emit() + apply(effects)
    }

    /// The metadata of `tag` changed: a flight saved (this repository's, or another's), or the
    /// metadata was cleared. While this repository waits for a flight, only clearing shows at
    /// once (the flight's end reads the metadata anyway); the extension hears every change, in
    /// the order changes arrive, even one whose fetch time a flight's end already read.
    ///
    /// An `invalidation` changed only the mark (see ``invalidated(stored:)``).
    mutating func metadataChanged(
        tag: String,
        stored: StoredFetch?,
        invalidation: Bool,
        now: Date
    ) -> [Action] {
        guard let active else { return [.quiet(.noRequirements)] }
        guard active.requirements.tag == tag else { return [.quiet(.otherTag)] }
        if invalidation {
            return invalidated(stored: stored)
        }
        guard let stored else {
            guard active.lastFetched != nil else {
                // A flight's end already read the cleared metadata: only the extension learns it now.
                return quietIfEmpty(
                    apply(ext.metadataChanged(stored: nil, cleared: true, context: context)),
                    .unchanged
                )
            }
            // Cleared: a never-fetched cache from now on, and that is something new.
            let wasObserving = active.isSubscribed
            updateActive { active in
                active.lastFetched = nil
                active.content = .notRead
                active.isAutomaticRefreshPaused = false
                active.observation = .off
            }
            let effects = ext.metadataChanged(stored: nil, cleared: true, context: context)
            var actions: [Action] = wasObserving ? [.stopObservingCache] : []
            if active.flight == nil, shouldRefreshAutomatically(.metadataCleared, now: now) {
                actions += startWaiting(for: nil)
            }
            return actions + emit() + apply(effects)
        }
        let reread = noteMark(stored.isInvalidated)
        guard active.flight == nil else {
            return quietIfEmpty(
                reread + apply(ext.metadataChanged(stored: stored.extra, cleared: false, context: context)),
                .noted
            )
        }
        let isNew = active.lastFetched != stored.lastFetched
        self.active?.lastFetched = stored.lastFetched
        let effects = ext.metadataChanged(stored: stored.extra, cleared: false, context: context)
        // A fetch time already read is news only to an extension that asks for something.
        guard isNew || !effects.isEmpty || !reread.isEmpty else { return [.quiet(.unchanged)] }
        return reread + observeIfNeeded() + emit() + apply(effects)
    }

    /// ``Teller/invalidate(tag:)`` (or `invalidateAll()`) marked the tag: an explicit request from
    /// the app, like a refresh call. An observed repository refreshes now, whatever it showed
    /// before (a cache, a failed first fetch, nothing ever fetched, an earlier mark whose refresh
    /// failed) and whatever its data source's automatic-refresh setting; it lifts a pause after a
    /// failure. One waiting for a flight fetches once more at its end if the mark is still set.
    /// Nothing was saved, so the extension is not told (a paged list would otherwise go back to
    /// its first page while its pages stay stored).
    private mutating func invalidated(stored: StoredFetch?) -> [Action] {
        guard active != nil else { return [.quiet(.noRequirements)] }
        let isFetching = active?.flight != nil
        var isNew = false
        // With no metadata (`Teller.clear()` ran since), the mark is noted all the same: only a
        // save clears a mark, and a save writes metadata. Taken for gone, it would let a cache
        // read from before the take clear a write the server took (``writesChanged(_:sent:)``).
        let reread = noteMark(stored?.isInvalidated ?? true)
        if let stored, !isFetching {
            isNew = active?.lastFetched != stored.lastFetched
            active?.lastFetched = stored.lastFetched
        }
        // While writes to the tag wait, the server does not have them yet: the refresh waits
        // for the last of them to leave (``writesChanged(_:sent:)``).
        guard hasObservers, !isFetching, active?.pendingWrites.isEmpty == true else {
            return isNew ? reread + observeIfNeeded() + emit() : quietIfEmpty(reread, .noted)
        }
        resumeAutomaticRefresh()
        return reread + observeIfNeeded() + startWaiting(for: nil) + emit()
    }

    /// Notes the tag's invalidation mark. When it went away while writes the server took are
    /// shown, the fetch that cleared it saved data that has them, but a value the cache
    /// subscription read before that save may still be on its way: the subscription is
    /// replaced, so that value is ignored (``Observation``) and only one read from now on
    /// clears them.
    mutating func noteMark(_ isInvalidated: Bool) -> [Action] {
        guard let wasInvalidated = active?.isInvalidated else { return [] }
        active?.isInvalidated = isInvalidated
        return wasInvalidated && !isInvalidated ? readAgainForTakenWrites() : []
    }

    /// Replaces the cache subscription while writes the server took are shown and the mark is
    /// gone (see ``noteMark(_:)``). While the repository waits for a flight, the flight's end
    /// subscribes again.
    private mutating func readAgainForTakenWrites() -> [Action] {
        guard let active, !active.takenWrites.isEmpty, !active.isInvalidated, active.isObserving else { return [] }
        self.active?.observation = .off
        return [.stopObservingCache] + observeIfNeeded()
    }

    /// The app's writes to the tag in outboxes changed (those waiting, or their latest failure):
    /// observers see them at once. When the last one left and the tag was invalidated meanwhile,
    /// an observed repository refreshes now, as ``invalidated(stored:)`` held back. A write the
    /// server took (`sent`, or among `writes.taken`) stays shown (``Active/takenWrites``), even
    /// when the mark the outbox set as it did was gone already: a fetch that started after the take saved, and the value
    /// it wrote, which has the write, is still on its way to this repository. The cache
    /// subscription is replaced then, so a value it read before that save is not taken for it.
    mutating func writesChanged(_ writes: TagWrites, sent: [OutboxRecord] = []) -> [Action] {
        guard let active else { return [.quiet(.noRequirements)] }
        let pending = writes.pending
        let sameFailure =
            switch (active.writeError, writes.failure) {
            case (nil, nil): true
            case (let shown?, let failure?): sameError(shown, failure)
            default: false
            }
        // Taken: those shown pending that the server took, and, while the mark is set, those
        // the outbox holds as taken that this repository never showed (a relaunch's journal
        // read after the repository was made).
        let takenIDs = Set(sent.map(\.id)).union(writes.taken.map(\.id))
        let moved = active.pendingWrites.filter { takenIDs.contains($0.id) }
        let known = Set((active.takenWrites + active.pendingWrites).map(\.id))
        let adopted = active.isInvalidated ? writes.taken.filter { !known.contains($0.id) } : []
        guard active.pendingWrites != pending || !sameFailure || !adopted.isEmpty else {
            return [.quiet(.unchanged)]
        }
        let taken = moved + adopted
        self.active?.takenWrites += taken
        // The mark is gone already.
        let reread = taken.isEmpty || active.isInvalidated ? [] : readAgainForTakenWrites()
        self.active?.pendingWrites = pending
        self.active?.writeError = writes.failure
        guard pending.isEmpty, active.isInvalidated, hasObservers, active.flight == nil else { return reread + emit() }
        resumeAutomaticRefresh()
        return observeIfNeeded() + startWaiting(for: nil) + emit()
    }

    /// An input only this kind of repository has.
    mutating func extra(_ input: Parcel) -> [Action] {
        guard active != nil else { return [.quiet(.noRequirements)] }
        // Effects about an observation or a held join that is not there any more fall away: the
        // input still changed the extension's state.
        return quietIfEmpty(apply(ext.handle(input, context: context)), .noted)
    }
}
