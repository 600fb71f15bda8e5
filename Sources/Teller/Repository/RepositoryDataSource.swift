import TellerRx

/// Tells Teller how to fetch, save and observe one kind of data. Implement it and hand it to a
/// ``TellerRepository``; Teller decides when to call each member.
///
/// Threads: ``fetchFreshCache(requirements:)`` and ``saveCache(_:requirements:)`` are called
/// on the background scheduler; ``observeCache(requirements:)`` and
/// ``isCacheEmpty(_:requirements:)`` on the UI scheduler (the main queue unless the ``Teller``
/// instance says otherwise). Work on the two schedulers overlaps (a fetch usually runs while
/// the cache is observed), so state that members on both sides touch must be thread-safe.
///
/// One fetch per tag: Teller runs at most one fetch at a time for the same tag of the same
/// data-source type, shared by every repository of that type in one ``Teller``, and only the
/// repository that started it saves. So instances of one type that use the same tag must keep
/// it in the same store (one tag, one store). Data sources of different types never share a
/// fetch, whatever their tags.
public protocol RepositoryDataSource: SendableMetatype {
    /// The type of the cached data that ``observeCache(requirements:)`` emits.
    associatedtype Cache: Sendable
    /// The requirements type this data source works with.
    associatedtype Requirements: RepositoryRequirements
    /// The type of the data a fetch returns (often the same as `Cache`).
    associatedtype FetchResult: Sendable
    /// The error type a fetch may fail with (`Error` for any).
    associatedtype FetchError: Error

    /// How old the cache may get before Teller refreshes it automatically.
    var maxAgeOfCache: Period { get }

    /// Whether Teller refreshes automatically: on setting requirements that were never fetched,
    /// on `observe()`, and whenever the cache emits while older than ``maxAgeOfCache``.
    /// Defaults to `true`.
    ///
    /// After a fetch or save fails, automatic refreshes of the same requirements pause until
    /// something new happens: requirements set again, a new `observe()`, an explicit refresh, or
    /// ``Teller/clear()``. A save that always fails therefore costs one fetch, not a loop.
    ///
    /// Declare it in the type that conforms to `RepositoryDataSource`: Swift binds a protocol
    /// requirement at the conforming class, so a subclass's own `automaticallyRefresh` is not
    /// seen by Teller.
    var automaticallyRefresh: Bool { get }

    /// How this data source's failed fetches are tried again; `nil` (the default) uses the
    /// ``Teller/retryPolicy`` of the repository's ``Teller``.
    ///
    /// Declare it in the conforming type, like ``automaticallyRefresh``.
    var retryPolicy: RetryPolicy? { get }

    /// How often to refresh while, and only while, the repository is observed; `nil` (the
    /// default) never refreshes on a timer.
    ///
    /// Each interval fetches whatever the cache's age, unless a fetch for the tag is running
    /// already (then it is joined, never doubled). The timer starts when the repository gets its
    /// first observer and stops when the last one leaves, on the Teller's background scheduler.
    /// An interval of zero or less, or `.never`, is ignored and reported to the logger as
    /// ``TellerLogEvent/invalidConfiguration(_:)``.
    ///
    /// Declare it in the conforming type, like ``automaticallyRefresh``.
    var refreshInterval: RxTimeInterval? { get }

    /// Fetches fresh data, usually over the network. Called on the background scheduler.
    ///
    /// Return `.failure(error)` (or fail the `Single`) when the fetch fails: Teller shows the
    /// error as the refresh error and keeps the existing cache.
    ///
    /// - Parameter requirements: What to fetch.
    /// - Returns: A `Single` with the response; Teller disposes it if nobody waits any more.
    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, FetchError>>

    /// Saves fetched data to the cache. Called on the background scheduler.
    ///
    /// - Parameters:
    ///   - cache: The data the fetch returned.
    ///   - requirements: The requirements it was fetched for.
    /// - Throws: Any error; Teller reports it as the refresh error and does not update the
    ///   cache's age.
    func saveCache(_ cache: FetchResult, requirements: Requirements) throws

    /// Observes the cached data. Called on the UI scheduler, and observed there.
    ///
    /// Emit the current value at once when subscribed, then again whenever the cache changes
    /// (as a database query observation does). Until the first value arrives the repository shows
    /// the cache as loading; a subscription that returns without a value is reported to the
    /// logger as ``TellerLogEvent/cacheNotEmittedOnSubscribe(tag:)``. Teller stops observing while
    /// it saves new data and observes again afterwards. An error ends the observation: observers
    /// get a state with ``CacheState/cacheReadError``, and the next `observe()`, refresh or
    /// metadata change subscribes again.
    ///
    /// - Parameter requirements: What to observe.
    /// - Returns: An observable of the cache.
    func observeCache(requirements: Requirements) -> Observable<Cache>

    /// Whether `cache` counts as empty (no data to show). Called on the UI scheduler.
    ///
    /// - Parameters:
    ///   - cache: A value ``observeCache(requirements:)`` emitted.
    ///   - requirements: The requirements it was observed for.
    /// - Returns: `true` if the UI should show its empty state.
    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool
}

extension RepositoryDataSource {
    /// Automatic refresh is on unless a data source says otherwise.
    public var automaticallyRefresh: Bool {
        true
    }

    /// The Teller's retry policy applies unless a data source says otherwise.
    public var retryPolicy: RetryPolicy? {
        nil
    }

    /// No refresh on a timer unless a data source says otherwise.
    public var refreshInterval: RxTimeInterval? {
        nil
    }
}
