import Foundation
import TellerRx

/// The decisions of one repository, free of threads and I/O: each input returns the actions to
/// perform, in order. It owns what every repository has (requirements, the cache's age and
/// content, waiters and their flights, automatic refreshes) and consults its ``MachineExtension``
/// for what one kind adds (paging). An input that makes no sense in the current state is ignored
/// and reported with a `.log(.eventIgnored…)` action, never a crash.
struct RepositoryMachine<Extension: MachineExtension>: EngineMachine {
    typealias Requirements = Extension.Requirements
    typealias Cache = Extension.Cache
    typealias Shown = Extension.Shown
    typealias View = Extension.View
    typealias StoredExtra = Extension.StoredExtra
    typealias ExtraInput = Extension.Input
    typealias ExtraAction = Extension.Action
    typealias Action = EngineAction<Self>

    struct Configuration {
        let automaticallyRefresh: Bool
        let maxAgeOfCache: Period
        /// How often to refresh while observed; `nil` for never.
        var refreshInterval: RxTimeInterval? = nil
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

    /// The cache subscription, as the machine uses it.
    private enum Observation {
        case off
        case on
        /// The flight the waiters wait for is writing the cache: the subscription stays (a file
        /// store counts the tag in use while it is subscribed, so another save never evicts it
        /// meanwhile), but what it emits is not shown; the flight's end reads the cache again.
        case pausedForSave
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
        var observation = Observation.off
        var oneShot: OneShot?

        var isObserving: Bool {
            if case .on = observation { true } else { false }
        }

        /// Whether a cache subscription exists, shown or paused.
        var isSubscribed: Bool {
            if case .off = observation { false } else { true }
        }

        /// A flight failed: no automatic refresh until something new happens (requirements set
        /// again, a new `observe()`, an explicit refresh, the metadata cleared). Without it, a
        /// save that always fails re-reads a too-old cache, which refreshes again, forever.
        var isAutomaticRefreshPaused = false
        /// ``Teller/invalidate(tag:)`` marked the cache as too old.
        var isInvalidated = false
        /// The flight the waiters wait for failed and waits to try again.
        var pendingRetry: PendingRetry?
    }

    let configuration: Configuration
    private(set) var ext: Extension
    private var active: Active?
    /// Waiters whose flight join the extension holds back (``MachineExtension/holdsFlightJoins``).
    private var heldJoins: [WaiterID] = []
    private var generation = 0
    private var nextWaiterID: WaiterID = 0
    private(set) var isShutDown = false
    /// Someone observes the repository's states (`observe()` is subscribed).
    private var hasObservers = false
    private var isRefreshTimerRunning = false

    init(configuration: Configuration, extension ext: Extension) {
        self.configuration = configuration
        self.ext = ext
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
        actions(for: input, now: now) + reconcileRefreshTimer()
    }

    private mutating func actions(for input: EngineInput<Self>, now: Date) -> [Action] {
        switch input {
        case .setRequirements(let requirements, let stored):
            setRequirements(requirements, stored: stored, now: now)
        case .observed:
            observed(now: now)
        case .refresh(let waiter, let force):
            refresh(waiter: waiter, force: force, now: now)
        case .refreshIfNoCache(let waiter):
            refreshIfNoCache(waiter: waiter, now: now)
        case .flightSaving(let generation):
            flightSaving(generation: generation)
        case .flightRetry(let generation, let pending):
            flightRetry(generation: generation, pending: pending)
        case .flightFinished(let generation, let waiter, let result, let stored, let saved):
            flightFinished(generation: generation, waiter: waiter, result: result, stored: stored, saved: saved)
        case .cacheEmitted(let generation, let cache, let isEmpty):
            cacheEmitted(generation: generation, cache: cache, isEmpty: isEmpty, now: now)
        case .cacheFailed(let generation, let error):
            cacheFailed(generation: generation, error: error)
        case .cacheSilent(let generation):
            cacheSilent(generation: generation)
        case .metadataChanged(let tag, let stored, let invalidation):
            metadataChanged(tag: tag, stored: stored, invalidation: invalidation, now: now)
        case .extra(let input):
            extra(input)
        case .observersChanged(let hasObservers):
            observersChanged(hasObservers)
        case .triggered(let trigger):
            triggered(trigger, now: now)
        case .shutDown:
            shutDown()
        }
    }

    func joinPolicy(now: Date) -> RefreshDesk.JoinPolicy {
        guard ext.allowsJoiningThroughDesk else { return .closed }
        return RefreshDesk.JoinPolicy(unforced: needsRefresh(force: false, now: now), ifNoCache: !hasCache)
    }

    mutating func setRequirements(
        _ requirements: Requirements?,
        stored: StoredFetch<StoredExtra>?,
        now: Date
    ) -> [Action] {
        guard !isShutDown else { return [] }
        var actions = endSession()
        generation += 1
        guard let requirements else {
            active = nil
            return actions
        }
        active = Active(
            requirements: requirements,
            generation: generation,
            lastFetched: stored?.lastFetched,
            isInvalidated: stored?.isInvalidated ?? false
        )
        ext.sessionStarted(requirements, stored: stored?.extra, hasCache: stored != nil)
        actions += observeIfNeeded()
        if shouldRefreshAutomatically(.requirementsSet, now: now) {
            actions += startWaiting(waiter: makeWaiterID())
        }
        actions += emit()
        return actions
    }

    /// The current requirements end: stop observing, leave flights, answer held waiters.
    private mutating func endSession() -> [Action] {
        guard let ending = active else { return [] }
        var actions: [Action] = [.stopObservingCache, .leaveFlights]
        for waiter in heldJoins {
            actions += [
                .log(.refreshSkipped(tag: ending.requirements.tag, reason: .cancelled)),
                .respond(waiter, .skipped(reason: .cancelled)),
            ]
        }
        heldJoins = []
        return actions + apply(ext.sessionEnded())
    }

    /// `observe()` was called: something new for a paused automatic refresh, a chance to read a
    /// cache whose reading failed, and an automatic refresh check.
    mutating func observed(now: Date) -> [Action] {
        resumeAutomaticRefresh()
        var actions = observeIfNeeded()
        guard let active, active.waiting == 0, shouldRefreshAutomatically(.observed, now: now) else {
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
        guard var active, active.generation == generation else { return [] }
        ext.flightSaving()
        guard active.isObserving else { return [] }
        active.observation = .pausedForSave
        self.active = active
        return []
    }

    /// The flight this repository waits for failed and waits to try again, or its retry starts:
    /// show it. Several waiters of the repository share the flight, and each hears it.
    mutating func flightRetry(generation: Int, pending: PendingRetry?) -> [Action] {
        guard var active, active.generation == generation, active.waiting > 0, active.pendingRetry != pending else {
            return []
        }
        active.pendingRetry = pending
        self.active = active
        return emit()
    }

    /// A flight ended for `waiter`. `stored` is the tag's metadata after the flight: the truth,
    /// whatever changed it meanwhile (this flight's save, `Teller.clear()`, another repository).
    mutating func flightFinished(
        generation: Int,
        waiter: WaiterID,
        result: RefreshResult,
        stored: StoredFetch<StoredExtra>?,
        saved: StoredExtra? = nil
    ) -> [Action] {
        let lastFetched = stored?.lastFetched
        var actions: [Action] = [.respond(waiter, result)]
        guard var active, active.generation == generation else { return actions }
        guard active.waiting > 0 else {
            return actions + [
                .log(.eventIgnored(tag: active.requirements.tag, event: "flight finished with no waiter"))
            ]
        }
        active.waiting -= 1
        active.isInvalidated = stored?.isInvalidated ?? false
        if active.waiting == 0 {
            active.pendingRetry = nil
        }
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
            if active.isSubscribed {
                active.observation = .off
                actions.append(.stopObservingCache)
            }
        }
        self.active = active
        let effects = ext.flightFinished(
            result,
            saved: saved,
            stored: stored?.extra,
            isLast: active.waiting == 0,
            context: context
        )
        actions += observeIfNeeded(whileWaiting: true)
        // Several waiters of this repository may share one flight: show its end once, when the
        // last of them is answered.
        guard active.waiting == 0 else { return actions + apply(effects) }
        actions += emit() + apply(effects)
        // Invalidated while the flight ran: its data may predate the invalidation. Fetch once
        // more; a fetch that fails does not repeat this, so it cannot loop.
        if case .successful = result, self.active?.isInvalidated == true, hasObservers, self.active?.waiting == 0 {
            actions += startWaiting(waiter: makeWaiterID()) + emit()
        }
        return actions
    }

    mutating func cacheEmitted(generation: Int, cache: Cache, isEmpty: Bool, now: Date) -> [Action] {
        // Paused for a save: the flight's end reads the cache again.
        if let active, active.generation == generation, case .pausedForSave = active.observation { return [] }
        guard var active, active.generation == generation, active.isObserving else {
            return [.log(.eventIgnored(tag: active?.requirements.tag, event: "cache emitted while not observed"))]
        }
        active.content = .read(isEmpty ? nil : cache)
        self.active = active
        let effects = ext.cacheRead(.value)
        var actions: [Action] = []
        if active.waiting == 0, shouldRefreshAutomatically(.cacheEmitted, now: now) {
            actions += startWaiting(waiter: makeWaiterID())
        }
        return actions + emit() + apply(effects)
    }

    /// The cache observation returned without a value. Nothing can be shown until it emits; say
    /// so in the log instead of hanging silently.
    mutating func cacheSilent(generation: Int) -> [Action] {
        guard let active, active.generation == generation, active.isObserving else { return [] }
        return [.log(.cacheNotEmittedOnSubscribe(tag: active.requirements.tag))] + apply(ext.cacheRead(.nothing))
    }

    /// `observeCache` failed: show it, and read again on the next occasion. It says nothing
    /// about fetching, so it is no refresh error.
    mutating func cacheFailed(generation: Int, error: any Error) -> [Action] {
        guard var active, active.generation == generation, active.isSubscribed else { return [] }
        active.observation = .off
        active.content = .failed(error)
        self.active = active
        let effects = ext.cacheRead(.failed)
        return [.log(.observeFailed(tag: active.requirements.tag, error: error))] + emit() + apply(effects)
    }

    /// The metadata of `tag` changed: a flight saved (this repository's, or another's), or the
    /// metadata was cleared. While this repository waits for a flight, only clearing shows at
    /// once (the flight's end reads the metadata anyway); the extension hears every change, in
    /// the order changes arrive, even one whose fetch time a flight's end already read.
    ///
    /// An `invalidation` changed only the mark (see ``invalidated(stored:)``).
    mutating func metadataChanged(
        tag: String,
        stored: StoredFetch<StoredExtra>?,
        invalidation: Bool,
        now: Date
    ) -> [Action] {
        guard var active, active.requirements.tag == tag else { return [] }
        if invalidation {
            return invalidated(stored: stored)
        }
        guard let stored else {
            guard active.lastFetched != nil else {
                // A flight's end already read the cleared metadata: only the extension learns it now.
                return apply(ext.metadataChanged(stored: nil, cleared: true, context: context))
            }
            // Cleared: a never-fetched cache from now on, and that is something new.
            active.lastFetched = nil
            active.content = .notRead
            active.isAutomaticRefreshPaused = false
            let wasObserving = active.isSubscribed
            active.observation = .off
            self.active = active
            let effects = ext.metadataChanged(stored: nil, cleared: true, context: context)
            var actions: [Action] = wasObserving ? [.stopObservingCache] : []
            if active.waiting == 0, shouldRefreshAutomatically(.metadataCleared, now: now) {
                actions += startWaiting(waiter: makeWaiterID())
            }
            return actions + emit() + apply(effects)
        }
        active.isInvalidated = stored.isInvalidated
        guard active.waiting == 0 else {
            self.active = active
            return apply(ext.metadataChanged(stored: stored.extra, cleared: false, context: context))
        }
        let isNew = active.lastFetched != stored.lastFetched
        active.lastFetched = stored.lastFetched
        self.active = active
        let effects = ext.metadataChanged(stored: stored.extra, cleared: false, context: context)
        // A fetch time already read is news only to an extension that asks for something.
        guard isNew || !effects.isEmpty else { return [] }
        return observeIfNeeded() + emit() + apply(effects)
    }

    /// ``Teller/invalidate(tag:)`` (or `invalidateAll()`) marked the tag: an explicit request from
    /// the app, like a refresh call. An observed repository refreshes now, whatever it showed
    /// before (a cache, a failed first fetch, nothing ever fetched, an earlier mark whose refresh
    /// failed) and whatever its data source's automatic-refresh setting; it lifts a pause after a
    /// failure. One waiting for a flight fetches once more at its end if the mark is still set.
    /// Nothing was saved, so the extension is not told (a paged list would otherwise go back to
    /// its first page while its pages stay stored).
    private mutating func invalidated(stored: StoredFetch<StoredExtra>?) -> [Action] {
        guard var active else { return [] }
        var isNew = false
        if let stored {
            active.isInvalidated = stored.isInvalidated
            if active.waiting == 0 {
                isNew = active.lastFetched != stored.lastFetched
                active.lastFetched = stored.lastFetched
            }
        }
        self.active = active
        guard hasObservers, active.waiting == 0 else {
            return isNew ? observeIfNeeded() + emit() : []
        }
        resumeAutomaticRefresh()
        return observeIfNeeded() + startWaiting(waiter: makeWaiterID()) + emit()
    }

    /// An input only this kind of repository has.
    mutating func extra(_ input: ExtraInput) -> [Action] {
        guard active != nil else { return [] }
        return apply(ext.handle(input, context: context))
    }

    /// The repository got its first observer or lost its last: observed repositories are the
    /// ones invalidation and refresh triggers refresh, and the refresh timer runs only for them.
    mutating func observersChanged(_ hasObservers: Bool) -> [Action] {
        self.hasObservers = hasObservers
        return []
    }

    /// Something outside asks observed repositories to refresh: the app became active or the
    /// network came back (refresh a too-old cache, as automatic refresh would; something new, so
    /// it lifts a pause after a failure), or the refresh interval passed (fetch, whatever the age).
    mutating func triggered(_ trigger: RefreshTrigger, now: Date) -> [Action] {
        guard let active, hasObservers, active.waiting == 0 else { return [] }
        switch trigger {
        case .appBecameActive, .networkAvailable:
            resumeAutomaticRefresh()
            guard shouldRefreshAutomatically(.appOrNetwork, now: now) else { return [] }
        case .interval:
            break
        }
        return startWaiting(waiter: makeWaiterID()) + emit()
    }

    /// Starts or stops the refresh timer so it runs exactly while the repository has
    /// requirements and observers and its data source asks for one.
    private mutating func reconcileRefreshTimer() -> [Action] {
        let interval = configuration.refreshInterval
        let wanted = interval != nil && hasObservers && active != nil && !isShutDown
        guard wanted != isRefreshTimerRunning else { return [] }
        isRefreshTimerRunning = wanted
        if wanted, let interval {
            return [.startRefreshTimer(interval)]
        }
        return [.stopRefreshTimer]
    }

    mutating func shutDown() -> [Action] {
        guard !isShutDown else { return [] }
        isShutDown = true
        let actions = endSession()
        active = nil
        generation += 1
        return actions + [.complete]
    }

    // MARK: Helpers

    /// Whether a refresh (forced or not) would fetch now.
    func needsRefresh(force: Bool, now: Date) -> Bool {
        guard let active else { return false }
        guard let lastFetched = active.lastFetched else { return true }
        return force || active.isInvalidated || configuration.maxAgeOfCache.isTooOld(lastFetched: lastFetched, now: now)
    }

    private func shouldRefreshAutomatically(_ trigger: AutomaticRefresh, now: Date) -> Bool {
        guard configuration.automaticallyRefresh, active != nil, !isAutomaticRefreshPaused else { return false }
        return ext.mayRefreshAutomatically(trigger, isTooOld: needsRefresh(force: false, now: now))
    }

    private var context: MachineContext {
        MachineContext(isObserving: active?.isObserving ?? false, isFetching: (active?.waiting ?? 0) > 0)
    }

    /// Carries out what the extension asked for.
    private mutating func apply(_ effects: [Extension.Effect]) -> [Action] {
        var actions: [Action] = []
        for effect in effects {
            switch effect {
            case .extra(let action):
                actions.append(.extra(action))
            case .observeCache(let view):
                guard let active, active.isObserving else { continue }
                actions.append(.observeCache(active.requirements, view, generation: active.generation))
            case .emit:
                actions += emit()
            case .releaseHeldJoins:
                guard let active, !ext.holdsFlightJoins else { continue }
                let held = heldJoins
                heldJoins = []
                actions += held.map { .joinFlight(active.requirements, generation: active.generation, waiter: $0) }
            case .log(let event):
                actions.append(.log(event))
            }
        }
        return actions
    }

    /// Starts observing the cache when one exists and nothing observes it now. While waiters wait
    /// for a flight, only at a flight's end (`whileWaiting`): the flight may be writing the cache.
    private mutating func observeIfNeeded(whileWaiting: Bool = false) -> [Action] {
        guard var active, active.lastFetched != nil, !active.isObserving, whileWaiting || active.waiting == 0 else {
            return []
        }
        active.observation = .on
        if case .failed = active.content { active.content = .notRead }
        self.active = active
        let (view, effects) = ext.viewForObserving()
        let observe: [Action] =
            view.map { [.observeCache(active.requirements, $0, generation: active.generation)] } ?? []
        return observe + apply(effects)
    }

    private mutating func startWaiting(waiter: WaiterID) -> [Action] {
        guard var active else { return [.respond(waiter, .skipped(reason: .cancelled))] }
        var effects: [Extension.Effect] = []
        if active.waiting == 0 {
            active.flightStartedWithCache = active.lastFetched != nil
            effects = ext.flightStarting()
        }
        active.waiting += 1
        self.active = active
        let join: [Action]
        if ext.holdsFlightJoins {
            heldJoins.append(waiter)
            join = []
        } else {
            join = [.joinFlight(active.requirements, generation: active.generation, waiter: waiter)]
        }
        return apply(effects) + join
    }

    /// The current state, then clears the one-shot flags: they belong to this state only.
    private mutating func emit() -> [Action] {
        guard var active else { return [] }
        let fetching = active.waiting > 0
        let state: CacheState<Shown>
        if let lastFetched = active.lastFetched {
            var cache: Shown?
            var isLoading = false
            var readError: (any Error)?
            switch active.content {
            case .notRead: isLoading = true
            case .read(let read): cache = read.map(ext.present)
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
                cacheReadError: readError,
                pendingRetry: active.pendingRetry
            )
        } else {
            state = CacheState(
                state: .noCache,
                requirements: active.requirements,
                isFirstFetch: fetching,
                errorDuringFirstFetch: active.oneShot?.error,
                pendingRetry: active.pendingRetry
            )
        }
        active.oneShot = nil
        self.active = active
        return [.emit(state)]
    }
}

extension RepositoryMachine.Configuration {
    /// What `dataSource` says about refreshing. A refresh interval that cannot run (zero or
    /// less, or `.never`) is left out and reported, never a crash or a busy loop.
    init(of dataSource: some RepositoryDataSource, teller: Teller) {
        automaticallyRefresh = dataSource.automaticallyRefresh
        maxAgeOfCache = dataSource.maxAgeOfCache
        guard let interval = dataSource.refreshInterval else { return }
        let seconds = secondsOf(interval)
        guard seconds > 0, seconds.isFinite else {
            teller.log(
                .invalidConfiguration(
                    "refreshInterval of \(type(of: dataSource)) is \(interval): it must be longer than zero; "
                        + "no refresh on a timer runs"
                )
            )
            return
        }
        refreshInterval = interval
    }
}

/// The plain repository's machine: nothing added.
typealias RepositoryStateMachine<Requirements: RepositoryRequirements, Cache: Sendable> = RepositoryMachine<
    NoExtension<Requirements, Cache>
>

extension RepositoryMachine {
    init<Requirements, Cache>(configuration: Configuration) where Extension == NoExtension<Requirements, Cache> {
        self.init(configuration: configuration, extension: NoExtension())
    }
}
