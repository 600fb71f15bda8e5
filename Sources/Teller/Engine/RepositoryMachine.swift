import Foundation
import TellerRx

/// The decisions of one repository, free of threads and I/O: each input returns the actions to
/// perform, in order. It owns every fact about the repository's refreshes: its requirements, the
/// cache's age and content, the flight it waits for and every call waiting for it, the pending
/// retry, its observers, automatic refreshes. It consults its ``MachineExtension`` for
/// what one kind adds (paging). Every input returns at least one action: an input that makes no
/// sense in the current state, or needs nothing done, returns `.quiet` with the reason (and a
/// `.log(.eventIgnored…)` where that tells a misbehaving data source apart), never a crash.
///
/// It is not generic over the app's types: requirements reach it as an existential, caches and a
/// kind's own values sealed in ``Parcel``s that only the engine and the kind's extension open. So
/// it is compiled once, fully optimized, for every repository, instead of running as unspecialized
/// generic code that looks up its types' layouts at run time on every input.
///
/// Every id an input carries was minted here (cache subscriptions, flight waits), except an
/// observer's: the mailbox mints that one, as the subscription's disposal must name it before
/// the machine hears of the observer. Replaying a recorded sequence of inputs rebuilds the same
/// state.
struct RepositoryMachine {
    typealias Input = EngineInput
    typealias Observer = StateObserver
    typealias Action = EngineAction

    struct Configuration {
        let automaticallyRefresh: Bool
        let maxAgeOfCache: Period
        /// How often to refresh while observed; `nil` for never.
        var refreshInterval: RxTimeInterval? = nil
    }

    enum Content {
        case notRead
        /// Read: the cache (sealed), or `nil` when the data source calls it empty.
        case read(Parcel?)
        /// `observeCache` failed; read again on the next observe(), refresh or metadata change.
        case failed(any Error)
    }

    /// What just happened: shown on the next state only.
    enum OneShot {
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

    /// The cache subscription, as the machine uses it, with the number minted for it when it
    /// started: its events carry that number, so an event of a subscription that was stopped or
    /// replaced (a value, or a failure, still on its way) is never taken for the current one's.
    enum Observation {
        case off
        case on(Int)
        /// The flight the repository waits for is writing the cache: the subscription stays (a
        /// file store counts the tag in use while it is subscribed, so another save never evicts
        /// it meanwhile), but what it emits is not shown; the flight's end reads the cache again.
        case pausedForSave(Int)
    }

    /// The repository waits for a flight: one wait for every call that asked meanwhile.
    struct FlightWait {
        /// Minted when the wait starts; the flight's events carry it, so an event of a flight
        /// the repository no longer waits for is told apart.
        let id: UInt64
        /// Whether a cache existed when the wait started: says whether its end is a first
        /// fetch's or a refresh's.
        let startedWithCache: Bool
        /// The flight writes the cache (``RepositoryMachine/flightSaving(_:)``): no observation
        /// starts until it ends.
        var isSaving = false
        /// The calls waiting for it, answered in the order they came.
        var calls: [RefreshCall]
        /// The machine asked for the flight itself (an automatic refresh, an invalidation, a
        /// trigger): it waits for the end even when no call does.
        var isOwnRequest: Bool
        var link: Link

        /// How the repository stands with the flight: one enum, so a retry shown for a flight
        /// not joined, or one being left, cannot be written.
        enum Link: Equatable {
            /// The extension holds the join back (``MachineExtension/holdsFlightJoins``): not
            /// joined yet. `leaving`: nothing waits any more, so it leaves once released.
            case held(leaving: Bool)
            /// Joined; `retry` while the flight failed and waits to try again.
            case joined(retry: PendingRetry?)
            /// Nothing waited any more, and the repository asked to leave. Until the engine says
            /// it left (`.flightLeft`) or the flight ends, the flight may be saving: the
            /// repository still counts as fetching, so no next page runs beside that save.
            case leaving
        }

        /// A new wait, held back when the extension says so.
        init(id: UInt64, startedWithCache: Bool, calls: [RefreshCall], isOwnRequest: Bool, held: Bool) {
            self.id = id
            self.startedWithCache = startedWithCache
            self.calls = calls
            self.isOwnRequest = isOwnRequest
            link = held ? .held(leaving: false) : .joined(retry: nil)
        }

        var isHeld: Bool {
            if case .held = link { true } else { false }
        }

        var pendingRetry: PendingRetry? {
            if case .joined(let retry) = link { retry } else { nil }
        }
    }

    /// Everything about one value of the requirements.
    struct Active {
        let requirements: any RepositoryRequirements
        var lastFetched: Date?
        var content = Content.notRead
        var observation = Observation.off
        var flight: FlightWait?
        var oneShot: OneShot?
        /// A flight failed: no automatic refresh until something new happens (requirements set
        /// again, a new `observe()`, an explicit refresh, the metadata cleared). Without it, a
        /// save that always fails re-reads a too-old cache, which refreshes again, forever.
        var isAutomaticRefreshPaused = false
        /// ``Teller/invalidate(tag:)`` marked the cache as too old.
        var isInvalidated = false
        /// The app's writes to the tag waiting in outboxes, oldest first: observers see them
        /// applied to the cache.
        var pendingWrites: [OutboxRecord] = []
        /// Writes the server took (the outbox marks their tag invalid first): the cache read may
        /// predate them, so observers still see them applied, before the pending ones, until the
        /// cache is read with the mark gone (a fetch that started after the take saved) by a
        /// subscription started once the mark was known gone (``RepositoryMachine/noteMark(_:)``).
        var takenWrites: [OutboxRecord] = []
        /// The latest failure among the app's writes to the tag (``TellerOutbox/lastFailure(tag:)``).
        var writeError: (any Error)?

        var isObserving: Bool {
            if case .on = observation { true } else { false }
        }

        /// Whether a cache subscription exists, shown or paused.
        var isSubscribed: Bool {
            if case .off = observation { false } else { true }
        }

        /// Whether `observation` is the number of the current subscription, shown or paused.
        func isSubscription(_ observation: Int) -> Bool {
            switch self.observation {
            case .on(let current), .pausedForSave(let current): current == observation
            case .off: false
            }
        }
    }

    let configuration: Configuration
    /// What the repository's kind adds (paging), or ``NoExtension``.
    var ext: any MachineExtension
    var active: Active?
    /// Mints cache-subscription numbers (see ``Observation``).
    var observations = 0
    /// Mints flight-wait ids.
    var nextFlightWaitID: UInt64 = 0
    private(set) var isShutDown = false
    /// The repository's observers (`observe()` subscriptions), in the order they came: the
    /// engine delivers the states the machine emits to them.
    var observers: [Observer] = []
    var isRefreshTimerRunning = false

    init(configuration: Configuration, extension ext: any MachineExtension = NoExtension()) {
        self.configuration = configuration
        self.ext = ext
    }

    /// The requirements the machine works for, once it processed them.
    var requirements: (any RepositoryRequirements)? {
        active?.requirements
    }

    /// A copy of the app's values the machine holds (requirements, cache, what a kind keeps, the
    /// observers), for the engine to release outside its lock after an input: the input may drop
    /// the machine's last reference. Nothing the machine appends to in place (the waiting calls):
    /// copying those would copy them on the next append.
    var appValues: AppValues {
        AppValues(requirements: active?.requirements, content: active?.content, ext: ext, observers: observers)
    }

    /// What ``appValues`` holds.
    struct AppValues {
        let requirements: (any RepositoryRequirements)?
        let content: Content?
        let ext: any MachineExtension
        let observers: [Observer]
    }

    /// Someone observes the repository's states: observed repositories are the ones
    /// invalidation and refresh triggers refresh, and the refresh timer runs only for them.
    var hasObservers: Bool {
        !observers.isEmpty
    }

    /// Runs `body` on the current requirements' state in place, or returns `nil` when none are
    /// set. The state is taken out meanwhile, so no second copy of it is alive and nothing in it
    /// (the waiting calls) is copied on write; `body` must not use the machine.
    mutating func updateActive<Result>(_ body: (inout Active) -> Result) -> Result? {
        guard var current = active.take() else { return nil }
        defer { active = current }
        return body(&current)
    }

    /// Whether the current requirements were ever fetched successfully.
    var hasCache: Bool {
        active?.lastFetched != nil
    }

    /// Whether a failed flight paused automatic refreshes of the current requirements.
    var isAutomaticRefreshPaused: Bool {
        active?.isAutomaticRefreshPaused ?? false
    }

    // MARK: Inputs

    /// Decides what `input` means at `now`: the actions to perform, in order, at least one.
    mutating func handle(_ input: Input, now: Date) -> [Action] {
        var actions = actions(for: input, now: now)
        let timer = reconcileRefreshTimer()
        // Most inputs leave the timer alone: no second array is built for them.
        if !timer.isEmpty { actions += timer }
        return actions
    }

    private mutating func actions(for input: Input, now: Date) -> [Action] {
        switch input {
        case .setRequirements(let requirements, let stored, let writes):
            setRequirements(requirements, stored: stored, writes: writes, now: now)
        case .observed:
            observed(now: now)
        case .refresh(let calls):
            refresh(calls, now: now)
        case .refreshCallLeft(let call):
            refreshCallLeft(call)
        case .flightLeft(let flight, let stored):
            flightLeft(flight, stored: stored)
        case .flightSaving(let flight):
            flightSaving(flight)
        case .flightRetry(let flight, let pending):
            flightRetry(flight, pending: pending)
        case .flightFinished(let flight, let result, let stored, let saved):
            flightFinished(flight, result: result, stored: stored, saved: saved)
        case .cacheEmitted(let observation, let cache, let isEmpty):
            cacheEmitted(observation: observation, cache: cache, isEmpty: isEmpty, now: now)
        case .cacheFailed(let observation, let error):
            cacheFailed(observation: observation, error: error)
        case .cacheSilent(let observation):
            cacheSilent(observation: observation)
        case .metadataChanged(let tag, let stored, let invalidation):
            metadataChanged(tag: tag, stored: stored, invalidation: invalidation, now: now)
        case .extra(let input):
            extra(input)
        case .observerAdded(let observer):
            observerAdded(observer)
        case .observerRemoved(let id):
            observerRemoved(id)
        case .triggered(let trigger):
            triggered(trigger, now: now)
        case .writesChanged(let writes, let sent):
            writesChanged(writes, sent: sent)
        case .shutDown:
            shutDown()
        }
    }

    // MARK: Sessions

    mutating func setRequirements(
        _ requirements: (any RepositoryRequirements)?,
        stored: StoredFetch?,
        writes: TagWrites = TagWrites(),
        now: Date
    ) -> [Action] {
        guard !isShutDown else { return [.quiet(.shutDown)] }
        var actions = endSession()
        guard let requirements else {
            active = nil
            return actions + [.emitSignedOut]
        }
        active = Active(
            requirements: requirements,
            lastFetched: stored?.lastFetched,
            isInvalidated: stored?.isInvalidated ?? false,
            pendingWrites: writes.pending,
            takenWrites: writes.taken,
            writeError: writes.failure
        )
        actions += apply(ext.sessionStarted(requirements, stored: stored?.extra, hasCache: stored != nil))
        actions += observeIfNeeded()
        if shouldRefreshAutomatically(.requirementsSet, now: now) {
            actions += startWaiting(for: nil)
        }
        actions += emit()
        return actions
    }

    /// The current requirements end: stop observing, leave the flight, answer its calls.
    private mutating func endSession() -> [Action] {
        guard let ending = active else { return [] }
        var actions: [Action] = [.stopObservingCache]
        if let flight = ending.flight {
            if !flight.isHeld { actions.append(.leaveFlight(flight.id)) }
            let skipped = TellerLogEvent.refreshSkipped(tag: ending.requirements.tag, reason: .cancelled)
            actions += flight.calls.map { _ in .log(skipped) }
            if !flight.calls.isEmpty { actions.append(.respond(flight.calls, .skipped(reason: .cancelled))) }
        }
        active?.flight = nil
        return actions + apply(ext.sessionEnded())
    }

    mutating func shutDown() -> [Action] {
        guard !isShutDown else { return [.quiet(.shutDown)] }
        isShutDown = true
        let actions = endSession()
        active = nil
        let completed = observers
        observers = []
        return actions + [.complete(completed)]
    }

    // MARK: Helpers

    /// Whether a refresh (forced or not) would fetch now.
    func needsRefresh(force: Bool, now: Date) -> Bool {
        guard let active else { return false }
        guard let lastFetched = active.lastFetched else { return true }
        return force || active.isInvalidated || configuration.maxAgeOfCache.isTooOld(lastFetched: lastFetched, now: now)
    }

    func shouldRefreshAutomatically(_ trigger: AutomaticRefresh, now: Date) -> Bool {
        guard configuration.automaticallyRefresh, active != nil, !isAutomaticRefreshPaused else { return false }
        return ext.mayRefreshAutomatically(trigger, isTooOld: needsRefresh(force: false, now: now))
    }

    /// Lets automatic refreshes run again after a failed flight paused them.
    mutating func resumeAutomaticRefresh() {
        active?.isAutomaticRefreshPaused = false
    }

    var context: MachineContext {
        MachineContext(isObserving: active?.isObserving ?? false, isFetching: active?.flight != nil)
    }

    /// `actions`, or `quiet` when there are none.
    func quietIfEmpty(_ actions: [Action], _ reason: Quiet) -> [Action] {
        actions.isEmpty ? [.quiet(reason)] : actions
    }

    /// Carries out what the extension asked for.
    mutating func apply(_ effects: [ExtensionEffect]) -> [Action] {
        var actions: [Action] = []
        for effect in effects {
            switch effect {
            case .extra(let action):
                actions.append(.extra(action))
            case .observeCache(let view):
                guard let active, active.isObserving else { continue }
                actions.append(.observeCache(active.requirements, view: view, observation: startObservation()))
            case .emit:
                actions += emit()
            case .releaseHeldJoins:
                guard let active, var flight = active.flight, case .held(let leaving) = flight.link,
                    !ext.holdsFlightJoins
                else { continue }
                flight.link = leaving ? .leaving : .joined(retry: nil)
                self.active?.flight = flight
                // Nothing waits any more: out at once (the engine, joined to nothing, says so).
                actions.append(leaving ? .leaveFlight(flight.id) : .joinFlight(active.requirements, flight: flight.id))
            case .log(let event):
                actions.append(.log(event))
            case .quiet(let reason):
                actions.append(.quiet(.extensionInput(reason)))
            }
        }
        return actions
    }

    /// Starts observing the cache when one exists, the repository is observed (or an observer is
    /// on its way: `forObserver`) and nothing observes the cache now. Not while the flight the
    /// repository waits for saves (it writes the cache): its end observes again.
    ///
    /// The cache is read for observers only: a repository nobody observes (a refresh from a
    /// background task, a server's) never calls the data source's `observeCache` or
    /// `isCacheEmpty`, and gives the UI scheduler nothing to do.
    mutating func observeIfNeeded(forObserver: Bool = false) -> [Action] {
        guard let active, forObserver || hasObservers, active.lastFetched != nil, !active.isObserving,
            active.flight?.isSaving != true
        else {
            return []
        }
        if case .failed? = self.active?.content { self.active?.content = .notRead }
        // Observing from now on, even when the extension says what to observe only later (a
        // paged list observes once its cache was trimmed).
        let observation = startObservation()
        guard let view = ext.viewForObserving() else { return [] }
        return [.observeCache(active.requirements, view: view, observation: observation)]
    }

    /// A new cache subscription replaces the current one, if any: its number.
    private mutating func startObservation() -> Int {
        observations += 1
        active?.observation = .on(observations)
        return observations
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
}

extension RepositoryMachine.Configuration {
    /// What `dataSource` says about refreshing. A refresh interval that cannot run (zero or
    /// less, or `.never`) is left out and described in `problem`, never a crash or a busy loop.
    init(of dataSource: some TellerDataSource, problem: inout TellerLogEvent?) {
        automaticallyRefresh = dataSource.automaticallyRefresh
        maxAgeOfCache = dataSource.maxAgeOfCache
        guard let interval = dataSource.refreshInterval else { return }
        let seconds = secondsOf(interval)
        guard seconds > 0, seconds.isFinite else {
            problem = .invalidConfiguration(
                "refreshInterval of \(type(of: dataSource)) is \(interval): it must be longer than zero; "
                    + "no refresh on a timer runs"
            )
            return
        }
        refreshInterval = interval
    }
}
