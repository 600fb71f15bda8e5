import TellerRx

/// Tells Teller how to fetch, save and observe one kind of data. Implement it and hand it to a
/// ``TellerRepository``; Teller decides when to call each member.
///
/// Threads: ``fetchFreshCache(requirements:)`` and ``saveCache(_:requirements:)`` are called
/// on the background scheduler; ``observeCache(requirements:)`` and
/// ``isCacheEmpty(_:requirements:)`` on the UI scheduler (the main queue unless the ``Teller``
/// instance says otherwise). Work on the two schedulers overlaps (a fetch usually runs while
/// the cache is observed), so state that members on both sides touch must be thread-safe.
/// Teller runs at most one fetch per tag at a time.
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
    /// Declare it in the type that conforms to `RepositoryDataSource`: Swift binds a protocol
    /// requirement at the conforming class, so a subclass's own `automaticallyRefresh` is not
    /// seen by Teller.
    var automaticallyRefresh: Bool { get }

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
    /// Emit whenever the cache changes. Teller stops observing while it saves new data and
    /// observes again afterwards.
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
}
