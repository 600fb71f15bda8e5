import Foundation

/// The decisions of one ``TellerRepository``, free of threads and I/O: each input returns the
/// actions to perform, in order. An input that makes no sense in the current state is ignored
/// and reported with a `.log(.eventIgnored…)` action, never a crash.
struct RepositoryStateMachine<Requirements: RepositoryRequirements, Cache: Sendable>: EngineMachine {
    typealias Shown = Cache
    typealias View = Void
    typealias StoredExtra = Never
    typealias ExtraInput = Never
    typealias ExtraAction = Never
    typealias Action = EngineAction<Self>

    struct Configuration {
        let automaticallyRefresh: Bool
        let maxAgeOfCache: Period
    }

    private enum Content {
        case notRead
        case read(Cache?)
        /// `observeCache` failed; read again on the next observe(), refresh or metadata change.
        case failed(any Error)
    }

    /// What just happened: shown on the next state only.
    private enum OneShot {
        case firstFetchSucceeded
        case firstFetchFailed(any Error)
        case refreshSucceeded
        case refreshFailed(any Error)

        /// The error of the flight that just failed, first fetch or refresh: a cache may have
        /// appeared or vanished meanwhile (another repository's fetch, `Teller.clear()`), and
        /// the error is shown in whichever state the flight ends in.
        var error: (any Error)? {
            switch self {
            case .firstFetchFailed(let error), .refreshFailed(let error): error
            case .firstFetchSucceeded, .refreshSucceeded: nil
            }
        }
    }

    private struct Active {
        let requirements: Requirements
        let generation: Int
        var lastFetched: Date?
        var content = Content.notRead
        /// How many of this repository's waiters wait for a flight now.
        var waiting = 0
        /// Whether a cache existed when the flight the waiters wait for started: says whether
        /// its end is a first fetch's or a refresh's.
        var flightStartedWithCache = false
        var isObserving = false
        var oneShot: OneShot?
        /// A flight failed: no automatic refresh until something new happens (requirements set
        /// again, a new `observe()`, an explicit refresh, the metadata cleared). Without it, a
        /// save that always fails re-reads a too-old cache, which refreshes again, forever.
        var isAutomaticRefreshPaused = false
    }

    let configuration: Configuration
    private var active: Active?
    private var generation = 0
    private var nextWaiterID: WaiterID = 0
    private(set) var isShutDown = false

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    var requirements: Requirements? {
        active?.requirements
    }

    /// Whether the current requirements were ever fetched successfully.
    var hasCache: Bool {
        active?.lastFetched != nil
    }

    /// Whether a failed flight paused automatic refreshes of the current requirements.
    var isAutomaticRefreshPaused: Bool {
        active?.isAutomaticRefreshPaused ?? false
    }

    mutating func makeWaiterID() -> WaiterID {
        nextWaiterID += 1
        return nextWaiterID
    }

    // MARK: Inputs

    mutating func handle(_ input: EngineInput<Self>, now: Date) -> [Action] {
        switch input {
        case .setRequirements(let requirements, let stored):
            setRequirements(requirements, lastFetched: stored?.lastFetched, now: now)
        case .observed:
            observed(now: now)
        case .refresh(let waiter, let force):
            refresh(waiter: waiter, force: force, now: now)
        case .refreshIfNoCache(let waiter):
            refreshIfNoCache(waiter: waiter, now: now)
        case .flightSaving(let generation):
            flightSaving(generation: generation)
        case .flightFinished(let generation, let waiter, let result, let stored, _):
            flightFinished(generation: generation, waiter: waiter, result: result, lastFetched: stored?.lastFetched)
        case .cacheEmitted(let generation, let cache, let isEmpty):
            cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
        case .cacheFailed(let generation, let error):
            cacheFailed(generation: generation, error: error)
        case .metadataChanged(let tag, let stored):
            metadataChanged(tag: tag, lastFetched: stored?.lastFetched, now: now)
        case .shutDown:
            shutDown()
        }
    }

    func joinPolicy(now: Date) -> RefreshDesk.JoinPolicy {
        RefreshDesk.JoinPolicy(unforced: needsRefresh(force: false, now: now), ifNoCache: !hasCache)
    }

    mutating func setRequirements(_ requirements: Requirements?, lastFetched: Date?, now: Date) -> [Action] {
        guard !isShutDown else { return [] }
        var actions: [Action] = []
        if active != nil {
            actions += [.stopObservingCache, .leaveFlights]
        }
        generation += 1
        guard let requirements else {
            active = nil
            return actions
        }
        active = Active(requirements: requirements, generation: generation, lastFetched: lastFetched)
        actions += observeIfNeeded()
        if shouldRefreshAutomatically(now: now) {
            actions += startWaiting(waiter: makeWaiterID())
        }
        actions += emit()
        return actions
    }

    /// `observe()` was called: something new for a paused automatic refresh, a chance to read a
    /// cache whose reading failed, and an automatic refresh check.
    mutating func observed(now: Date) -> [Action] {
        resumeAutomaticRefresh()
        var actions = observeIfNeeded()
        guard let active, active.waiting == 0, shouldRefreshAutomatically(now: now) else {
            return actions.isEmpty ? [] : actions + emit()
        }
        actions += startWaiting(waiter: makeWaiterID())
        return actions + emit()
    }

    /// Lets automatic refreshes run again after a failed flight paused them.
    mutating func resumeAutomaticRefresh() {
        active?.isAutomaticRefreshPaused = false
    }

    mutating func refresh(waiter: WaiterID, force: Bool, now: Date) -> [Action] {
        guard let active else {
            return [.respond(waiter, .skipped(reason: .cancelled))]
        }
        resumeAutomaticRefresh()
        guard needsRefresh(force: force, now: now) else {
            let reread = observeIfNeeded()
            return [
                .log(.refreshSkipped(tag: active.requirements.tag, reason: .dataNotTooOld)),
                .respond(waiter, .skipped(reason: .dataNotTooOld)),
            ] + (reread.isEmpty ? [] : reread + emit())
        }
        let wasIdle = active.waiting == 0
        let actions = startWaiting(waiter: waiter)
        return wasIdle ? actions + emit() : actions
    }

    mutating func refreshIfNoCache(waiter: WaiterID, now: Date) -> [Action] {
        if active?.lastFetched != nil {
            resumeAutomaticRefresh()
            let reread = observeIfNeeded()
            return [.respond(waiter, .successful)] + (reread.isEmpty ? [] : reread + emit())
        }
        return refresh(waiter: waiter, force: true, now: now)
    }

    /// The flight this repository waits for is saving: pause cache observation meanwhile.
    mutating func flightSaving(generation: Int) -> [Action] {
        guard var active, active.generation == generation, active.isObserving else { return [] }
        active.isObserving = false
        self.active = active
        return [.stopObservingCache]
    }

    /// A flight ended for `waiter`. `lastFetched` is the tag's metadata after the flight: the
    /// truth, whatever changed it meanwhile (this flight's save, `Teller.clear()`, another
    /// repository).
    mutating func flightFinished(
        generation: Int,
        waiter: WaiterID,
        result: RefreshResult,
        lastFetched: Date?
    ) -> [Action] {
        var actions: [Action] = [.respond(waiter, result)]
        guard var active, active.generation == generation else { return actions }
        guard active.waiting > 0 else {
            return actions + [
                .log(.eventIgnored(tag: active.requirements.tag, event: "flight finished with no waiter"))
            ]
        }
        active.waiting -= 1
        let hadCache = active.flightStartedWithCache
        switch result {
        case .successful:
            active.lastFetched = lastFetched ?? active.lastFetched
            active.oneShot = hadCache ? .refreshSucceeded : .firstFetchSucceeded
        case .failedError(let error):
            active.lastFetched = lastFetched
            active.oneShot = hadCache ? .refreshFailed(error) : .firstFetchFailed(error)
            active.isAutomaticRefreshPaused = true
        case .skipped:
            active.lastFetched = lastFetched
        }
        if active.lastFetched == nil {
            // No cache any more (`Teller.clear()` ran meanwhile): forget what was read and stop
            // observing, so a cache fetched later is read from a fresh subscription. A store that
            // only emits on change would never send the old subscription anything new.
            active.content = .notRead
            if active.isObserving {
                active.isObserving = false
                actions.append(.stopObservingCache)
            }
        }
        self.active = active
        actions += observeIfNeeded(whileWaiting: true)
        // Several waiters of this repository may share one flight: show its end once, when the
        // last of them is answered.
        if active.waiting == 0 {
            actions += emit()
        }
        return actions
    }

    mutating func cacheEmitted(generation: Int, cache: Cache, isEmpty: Bool, now: Date) -> [Action] {
        guard var active, active.generation == generation, active.isObserving else {
            return [.log(.eventIgnored(tag: active?.requirements.tag, event: "cache emitted while not observed"))]
        }
        active.content = .read(isEmpty ? nil : cache)
        self.active = active
        var actions: [Action] = []
        if active.waiting == 0, shouldRefreshAutomatically(now: now) {
            actions += startWaiting(waiter: makeWaiterID())
        }
        return actions + emit()
    }

    /// `observeCache` failed: show it, and read again on the next occasion. It says nothing
    /// about fetching, so it is no refresh error.
    mutating func cacheFailed(generation: Int, error: any Error) -> [Action] {
        guard var active, active.generation == generation, active.isObserving else { return [] }
        active.isObserving = false
        active.content = .failed(error)
        self.active = active
        return [.log(.observeFailed(tag: active.requirements.tag, error: error))] + emit()
    }

    /// The metadata of `tag` changed: another repository fetched the same data, or the metadata
    /// was cleared. While this repository waits for a flight, only clearing shows at once (the
    /// flight's end reads the metadata anyway).
    mutating func metadataChanged(tag: String, lastFetched: Date?, now: Date) -> [Action] {
        guard var active, active.requirements.tag == tag, active.lastFetched != lastFetched else {
            return []
        }
        guard let lastFetched else {
            // Cleared: a never-fetched cache from now on, and that is something new.
            active.lastFetched = nil
            active.content = .notRead
            active.isAutomaticRefreshPaused = false
            let wasObserving = active.isObserving
            active.isObserving = false
            self.active = active
            var actions: [Action] = wasObserving ? [.stopObservingCache] : []
            if active.waiting == 0, shouldRefreshAutomatically(now: now) {
                actions += startWaiting(waiter: makeWaiterID())
            }
            return actions + emit()
        }
        guard active.waiting == 0 else { return [] }
        active.lastFetched = lastFetched
        self.active = active
        return observeIfNeeded() + emit()
    }

    mutating func shutDown() -> [Action] {
        guard !isShutDown else { return [] }
        isShutDown = true
        let hadActive = active != nil
        active = nil
        generation += 1
        return (hadActive ? [.stopObservingCache, .leaveFlights] : []) + [.complete]
    }

    // MARK: Helpers

    /// Whether a refresh (forced or not) would fetch now.
    func needsRefresh(force: Bool, now: Date) -> Bool {
        guard let active else { return false }
        guard let lastFetched = active.lastFetched else { return true }
        return force || configuration.maxAgeOfCache.isTooOld(lastFetched: lastFetched, now: now)
    }

    private func shouldRefreshAutomatically(now: Date) -> Bool {
        configuration.automaticallyRefresh && !isAutomaticRefreshPaused && needsRefresh(force: false, now: now)
    }

    /// Starts observing the cache when one exists and nothing observes it now. While waiters wait
    /// for a flight, only at a flight's end (`whileWaiting`): the flight may be writing the cache.
    private mutating func observeIfNeeded(whileWaiting: Bool = false) -> [Action] {
        guard var active, active.lastFetched != nil, !active.isObserving, whileWaiting || active.waiting == 0 else {
            return []
        }
        active.isObserving = true
        if case .failed = active.content { active.content = .notRead }
        self.active = active
        return [.observeCache(active.requirements, (), generation: active.generation)]
    }

    private mutating func startWaiting(waiter: WaiterID) -> [Action] {
        guard var active else { return [.respond(waiter, .skipped(reason: .cancelled))] }
        if active.waiting == 0 {
            active.flightStartedWithCache = active.lastFetched != nil
        }
        active.waiting += 1
        self.active = active
        return [.joinFlight(active.requirements, generation: active.generation, waiter: waiter)]
    }

    /// The current state, then clears the one-shot flags: they belong to this state only.
    private mutating func emit() -> [Action] {
        guard var active else { return [] }
        let fetching = active.waiting > 0
        let state: CacheState<Cache>
        if let lastFetched = active.lastFetched {
            var cache: Cache?
            var isLoading = false
            var readError: (any Error)?
            switch active.content {
            case .notRead: isLoading = true
            case .read(let read): cache = read
            case .failed(let error): readError = error
            }
            state = CacheState(
                state: .cache(cache: cache, cacheAge: lastFetched),
                requirements: active.requirements,
                isLoadingCache: isLoading,
                isRefreshing: fetching,
                justFinishedFirstFetch: active.oneShot.map { if case .firstFetchSucceeded = $0 { true } else { false } }
                    ?? false,
                justFinishedSuccessfulRefresh: active.oneShot.map {
                    if case .refreshSucceeded = $0 { true } else { false }
                }
                    ?? false,
                refreshError: active.oneShot?.error,
                cacheReadError: readError
            )
        } else {
            state = CacheState(
                state: .noCache,
                requirements: active.requirements,
                isFirstFetch: fetching,
                errorDuringFirstFetch: active.oneShot?.error
            )
        }
        active.oneShot = nil
        self.active = active
        return [.emit(state)]
    }
}
