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
public protocol RepositoryDataSource: TellerDataSource {
    /// The type of the cached data that ``observeCache(requirements:)`` emits.
    associatedtype Cache: Sendable
    /// The type of the data a fetch returns (often the same as `Cache`).
    associatedtype FetchResult: Sendable
    // Restated from TellerDataSource so Swift infers them from the members below.
    /// The requirements type this data source works with.
    associatedtype Requirements
    /// The error type a fetch may fail with (`Error` for any).
    associatedtype FetchError

    /// Fetches fresh data, usually over the network. Called on the background scheduler.
    ///
    /// Return `.failure(error)` (or fail the `Single`) when the fetch fails: Teller shows the
    /// error as the refresh error and keeps the existing cache.
    ///
    /// - Parameter requirements: What to fetch.
    /// - Returns: A `Single` with the response; Teller disposes it if nobody waits any more.
    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, FetchError>>

    /// Saves fetched data to the cache. Called on the background scheduler: right away, on the
    /// thread that started the fetch, when the fetch answered while it was being subscribed (a
    /// `Single.just`, a response from memory); otherwise in a later turn of that scheduler,
    /// never on the thread the answer came on. So a fetch that answers at once must not hold a
    /// lock its save needs while it sends the answer.
    ///
    /// Not called when a fetch of the same tag by another data-source type saved first though
    /// it started later, with an invalidation between the two starts (``Teller/invalidate(tag:)``,
    /// or a write an outbox sent): the data stored is newer, and this refresh succeeds unsaved.
    ///
    /// - Parameters:
    ///   - cache: The data the fetch returned.
    ///   - requirements: The requirements it was fetched for.
    /// - Throws: Any error; Teller reports it as the refresh error and does not update the
    ///   cache's age.
    func saveCache(_ cache: FetchResult, requirements: Requirements) throws

    /// Observes the cached data. Called on the UI scheduler, and observed there.
    ///
    /// Teller reads the cache for observers only: it subscribes once a cache exists and the
    /// repository is observed (`observe()`), and disposes the subscription when the last
    /// observer leaves. A repository that is only refreshed (a background task, a server) never
    /// calls this, nor ``isCacheEmpty(_:requirements:)``.
    ///
    /// Emit the current value at once when subscribed, then again whenever the cache changes
    /// (as a database query observation does). Until the first value arrives the repository shows
    /// the cache as loading; a subscription that returns without a value is reported to the
    /// logger as ``TellerLogEvent/cacheNotEmittedOnSubscribe(tag:)``. Teller stops observing while
    /// it saves new data and observes again afterwards. An error ends the observation: observers
    /// get a state with ``CacheState/cacheReadError``, and the next `observe()`, refresh or
    /// metadata change subscribes again while the repository is observed.
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

    /// What observers are shown while the app's writes to this tag wait in a ``TellerOutbox``:
    /// `writes` (oldest first) applied to the stored cache, as the server will have it once it
    /// took them. Called on the UI scheduler for every state with such writes and a cache that
    /// was read; a pure function of its arguments. The stored cache is never changed: a refresh
    /// saves the server's data as the new base and the writes still pending stay applied on
    /// top. A write the server took stays in `writes` until a fetch that started after that
    /// saved, so a fetch already running cannot take it off the screen; meanwhile the cache may
    /// already hold it (a fetch that ended after the send), so applying a write the cache has
    /// must change nothing: set a value rather than add to one, or mark what the app changed.
    ///
    /// The default shows the stored cache unchanged.
    ///
    /// - Parameters:
    ///   - writes: The writes to show: those the server took that no fetch brought back yet,
    ///     then the pending ones (``CacheState/pendingWrites``). Decode each
    ///     ``OutboxRecord/payload`` by its ``OutboxRecord/kind``.
    ///   - cache: The stored cache, or `nil` when it is empty.
    ///   - requirements: The requirements it was observed for.
    /// - Returns: The cache to show, or `nil` for empty.
    func applyPendingWrites(_ writes: [OutboxRecord], to cache: Cache?, requirements: Requirements) -> Cache?
}

extension RepositoryDataSource {
    /// Shows the stored cache unchanged: a data source whose writes go through a
    /// ``TellerOutbox`` implements this to show them at once.
    public func applyPendingWrites(_ writes: [OutboxRecord], to cache: Cache?, requirements: Requirements) -> Cache? {
        cache
    }
}
