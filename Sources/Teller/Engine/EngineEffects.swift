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
    func flightWork(for requirements: Requirements, context: FlightContext) -> Observable<FlightEvent>

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
    return Observable<Emitted<Cache>>.create { observer in
        // Whether the observation sent anything while being subscribed: a value, or its end (after
        // which nothing may follow).
        let answered = LockedState(false)
        let subscription = observe().subscribe(
            onNext: { cache in
                answered.withLock { $0 = true }
                observer.onNext(.value(cache))
            },
            onError: { error in
                answered.withLock { $0 = true }
                observer.onError(error)
            },
            onCompleted: {
                answered.withLock { $0 = true }
                observer.onCompleted()
            }
        )
        if !answered.withLock({ $0 }) {
            observer.onNext(.nothingOnSubscribe)
        }
        return subscription
    }
    .subscribe(on: scheduler)
    .observe(on: scheduler)
    // After the hop: `isEmpty` is the data source's, and runs where its docs say.
    .map { emitted in
        switch emitted {
        case .value(let cache): .value(cache, isEmpty: isEmpty(cache))
        case .nothingOnSubscribe: .nothingOnSubscribe
        }
    }
}

/// What the data source's observation emits, before `isEmpty` is asked on the UI scheduler.
private enum Emitted<Cache: Sendable>: Sendable {
    case value(Cache)
    case nothingOnSubscribe
}
