@_spi(TellerInternals) import TellerRx

/// The I/O half of one kind of repository: how its data source is read, observed and fetched,
/// and how its machine's extra actions are carried out. The ``RepositoryEngine`` calls it from
/// whatever thread drains the mailbox; everything it starts reports back through the engine.
protocol EngineEffects: AnyObject, Sendable {
    associatedtype Requirements: RepositoryRequirements
    /// What the data source's cache observation emits.
    associatedtype Cache: Sendable
    /// The cache observers are shown.
    associatedtype Shown: Sendable
    /// What, besides the requirements, says which cache to observe.
    associatedtype View
    /// The inputs and actions only this kind has (``MachineExtension``).
    associatedtype ExtraInput
    associatedtype ExtraAction

    var teller: Teller { get }

    func makeMachine() -> RepositoryMachine

    /// The metadata of `tag` as the machine sees it, or `nil` when the tag was never fetched.
    func stored(forTag tag: String) -> StoredFetch?

    /// The cache for `requirements`, subscribed and delivered on the UI scheduler (see
    /// ``readCache(on:failingWith:observe:isEmpty:)``).
    func observeCache(_ requirements: Requirements, _ view: View) -> Observable<CacheReading<Cache>>

    /// Which flights are one: repositories whose data sources share this key share a fetch.
    func flightKey(for requirements: Requirements) -> FlightKey

    /// One fetch-and-save for `requirements`, run as the flight `context` describes; see
    /// ``FlightWork``.
    func flightWork(
        for requirements: Requirements,
        context: FlightContext,
        deliver: @escaping @Sendable (FlightEvent) -> Void
    ) -> any Disposable

    /// Carries out an action only this kind of repository has, sending what comes of it back to
    /// `engine` as `.extra` inputs.
    func perform(_ action: ExtraAction, engine: RepositoryEngine<Self>)

    /// What observers are shown of `state`: its cache with its pending writes applied by the
    /// data source. Called on the UI scheduler.
    func applyPendingWrites(to state: CacheState<Shown>) -> CacheState<Shown>

    /// The repository is gone: stop extra work still running.
    func shutDown()
}

extension Teller {
    /// What `dataSource` says about refreshing, for a new machine; a setting that cannot work is
    /// logged here, where the repository is made, not by the machine.
    func machineConfiguration(of dataSource: some TellerDataSource) -> RepositoryMachine.Configuration {
        var problem: TellerLogEvent?
        let configuration = RepositoryMachine.Configuration(of: dataSource, problem: &problem)
        if let problem { log(problem) }
        return configuration
    }
}

/// What a subscription to the data source's cache brings, in order.
enum CacheReading<Cache: Sendable>: Sendable {
    /// A value, with whether the data source calls it empty.
    case value(Cache, isEmpty: Bool)
    /// The subscription returned without a value (sent right after it returned).
    case nothingOnSubscribe
}

/// Observes a data source's cache the way every repository does: `observe` and `isEmpty` run on
/// `scheduler` (the UI scheduler), whatever thread the observation emits on, and a subscription
/// that returns without a value is reported, so a store that only emits on change shows in the
/// log instead of hanging silently.
///
/// What the observation sends while it is being subscribed (a store's current value) is on
/// `scheduler` already, and is delivered in that same turn; what it sends later, or from another
/// thread, goes through `observe(on: scheduler)`, in order.
///
/// With a `storeMismatch` (see `cacheStoreMismatch`) the data source is not asked: the reading
/// fails with it on `scheduler`, as a failed observation would.
func readCache<Cache: Sendable>(
    on scheduler: any SchedulerType,
    failingWith storeMismatch: FileCacheStoreError?,
    observe: @escaping @Sendable () -> Observable<Cache>,
    isEmpty: @escaping @Sendable (Cache) -> Bool
) -> Observable<CacheReading<Cache>> {
    if let storeMismatch {
        return Observable.error(storeMismatch).observe(on: scheduler)
    }
    return Observable<CacheReading<Cache>>.create { observer in
        // On `scheduler`: see `subscribe(on:)` below.
        let read = CacheRead(scheduler: scheduler, isEmpty: isEmpty, observer: observer)
        let subscription = read.subscribe(observe)
        return Disposables.create(subscription, read)
    }
    .subscribe(on: scheduler)
}

/// One subscription to a data source's cache (see ``readCache(on:failingWith:observe:isEmpty:)``):
/// where each event it sends is delivered, and whether it sent anything while being subscribed.
private final class CacheRead<Cache: Sendable>: Disposable, Sendable {
    private typealias Hop = (subject: PublishSubject<TellerRx.Event<Cache>>, subscription: any Disposable)

    private struct State {
        /// Whether the observation sent anything while being subscribed: a value, or its end
        /// (after which nothing may follow).
        var answered = false
        /// The way to the scheduler, made for the first event sent later or from another thread;
        /// from then on every event takes it, so none overtakes another.
        var hop: Hop?
        var isDisposed = false
    }

    private enum Route {
        case now
        case hop(PublishSubject<TellerRx.Event<Cache>>)
        case dropped
    }

    private let scheduler: any SchedulerType
    private let isEmpty: @Sendable (Cache) -> Bool
    private let observer: AnyObserver<CacheReading<Cache>>
    private let state = LockedState(State())

    init(
        scheduler: any SchedulerType,
        isEmpty: @escaping @Sendable (Cache) -> Bool,
        observer: AnyObserver<CacheReading<Cache>>
    ) {
        self.scheduler = scheduler
        self.isEmpty = isEmpty
        self.observer = observer
    }

    /// Subscribes the observation (on the scheduler), then reports it if it sent nothing.
    func subscribe(_ observe: () -> Observable<Cache>) -> any Disposable {
        var subscription: (any Disposable)?
        ThreadMark.cacheReadStart.run {
            subscription = observe().subscribe { [self] in on($0) }
        }
        if !state.withLock({ $0.answered }) {
            observer.onNext(.nothingOnSubscribe)
        }
        return subscription ?? Disposables.create()
    }

    private func on(_ event: TellerRx.Event<Cache>) {
        let onTheSchedulerNow = ThreadMark.cacheReadStart.isCurrent
        let route = state.withLock { state -> Route in
            state.answered = true
            if state.isDisposed { return .dropped }
            if let hop = state.hop { return .hop(hop.subject) }
            if onTheSchedulerNow { return .now }
            // No app code runs in making it: a subject and its `observe(on:)` subscription.
            let subject = PublishSubject<TellerRx.Event<Cache>>()
            let subscription = subject.observe(on: scheduler).subscribe { [self] in deliver($0) }
            state.hop = (subject, subscription)
            return .hop(subject)
        }
        switch route {
        case .now: deliver(event)
        case .hop(let subject): subject.onNext(event)
        case .dropped: break
        }
    }

    /// On the scheduler: `isEmpty` is the data source's, and runs where its docs say.
    private func deliver(_ event: TellerRx.Event<Cache>) {
        switch event {
        case .next(let cache): observer.onNext(.value(cache, isEmpty: isEmpty(cache)))
        case .error(let error): observer.onError(error)
        case .completed: observer.onCompleted()
        }
    }

    func dispose() {
        let hop = state.withLock { state -> Hop? in
            state.isDisposed = true
            return state.hop
        }
        hop?.subscription.dispose()
    }
}
