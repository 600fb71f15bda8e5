import TellerRx

/// What ``TellerRepository`` and ``TellerPagingRepository`` have in common: a cache to observe
/// and refresh.
///
/// Teller's Swift concurrency surface is written once, on this protocol: the ``states``
/// sequence, the `async` refreshes ``refreshResult(force:)`` and ``refreshIfNoCacheResult()``,
/// and ``RepositoryModel``, which works with either kind of repository (and with the mocks of
/// TellerTesting, which subclass them).
///
/// Both repositories conform already. Conforming a type of your own gives it the same
/// surface; its members must keep the repositories' contracts, documented on
/// ``TellerRepository``.
public protocol TellerRepositoryProtocol<Cache>: Sendable {
    /// The cached data type the states carry.
    associatedtype Cache: Sendable

    /// The cache's state: the current state at once (once requirements are set), then every
    /// change, delivered on the repository's ``Teller/uiScheduler``; completes when the
    /// repository is released. See ``TellerRepository/observe()``.
    ///
    /// - Returns: An observable of ``CacheState``.
    func observe() -> Observable<CacheState<Cache>>

    /// ``observe()`` that also shows a sign-out: `nil` whenever the requirements are set to
    /// `nil`, and first for an observer that subscribes while they are `nil` after that. See
    /// ``TellerRepository/observeSession()``.
    ///
    /// - Returns: An observable of ``CacheState``, or `nil` while signed out.
    func observeSession() -> Observable<CacheState<Cache>?>

    /// A refresh that starts when the returned `Single` is subscribed. See
    /// ``TellerRepository/refresh(force:)``.
    ///
    /// - Parameter force: Fetch even when the cache is fresh.
    /// - Returns: A `Single` with the outcome; it never fails.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when no requirements are set.
    func refresh(force: Bool) throws -> Single<RefreshResult>

    /// Succeeds at once if a cache exists, otherwise refreshes. See
    /// ``TellerRepository/refreshIfNoCache()``.
    ///
    /// - Returns: A `Single` with the outcome; it never fails.
    /// - Throws: ``TellerError/objectPropertiesNotSet(_:)`` when no requirements are set.
    func refreshIfNoCache() throws -> Single<RefreshResult>
}

extension TellerRepositoryProtocol {
    /// ``observe()``'s states: a type of your own that cannot tell a sign-out shows none.
    public func observeSession() -> Observable<CacheState<Cache>?> {
        observe().map { $0 }
    }
}

extension TellerRepository: TellerRepositoryProtocol {}

extension TellerPagingRepository: TellerRepositoryProtocol {}
