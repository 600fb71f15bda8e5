import Foundation
import TellerRx

/// A ``RepositoryDataSource`` that keeps its `Codable` cache in a ``FileCacheStore``: write the
/// fetch and ``TellerDataSource/maxAgeOfCache``; saving, observing and the empty check come
/// with it.
///
/// ```swift
/// final class ReposDataSource: CodableRepositoryDataSource {
///     let maxAgeOfCache = Period(unit: 5, component: .hour)
///     let cacheStore: FileCacheStore<[Repo]>
///
///     init(cacheStore: FileCacheStore<[Repo]>) {
///         self.cacheStore = cacheStore
///     }
///
///     func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[Repo], any Error>> {
///         api.repos(of: requirements.username).map { .success($0) }
///     }
/// }
/// ```
///
/// - ``RepositoryDataSource/saveCache(_:requirements:)`` saves the fetched value under the requirements' tag, on
///   Teller's background scheduler; a failed write is the refresh's error.
/// - ``RepositoryDataSource/observeCache(requirements:)`` observes the tag (``FileCacheStore/observe(tag:)``). When
///   the tag has no readable value although Teller has its fetch time (its file was removed,
///   purged by the system, evicted by another process, or is corrupt), the data source makes
///   Teller forget the fetch time, so the repository shows `.noCache` and fetches it again.
/// - ``RepositoryDataSource/isCacheEmpty(_:requirements:)`` is `isEmpty` for collections and `false` otherwise;
///   implement it for another rule.
///
/// Give the repository the store's ``FileCacheStore/teller``: a repository on another `Teller`
/// logs ``TellerLogEvent/invalidConfiguration(_:)`` when it is created and shows
/// ``FileCacheStoreError/differentTeller(path:)`` as its `cacheReadError` instead of a cache. The
/// data source need not be
/// `Sendable`: the store is, and Teller calls the data source only on its schedulers.
public protocol CodableRepositoryDataSource: RepositoryDataSource where FetchResult == Cache, Cache: Codable {
    /// Where the cache is kept. Data sources whose requirements share a tag must share the store.
    var cacheStore: FileCacheStore<Cache> { get }
}

extension CodableRepositoryDataSource {
    /// Saves `cache` in ``cacheStore`` under `requirements.tag`. Called on the background
    /// scheduler.
    ///
    /// - Parameters:
    ///   - cache: The fetched value.
    ///   - requirements: Whose value it is.
    /// - Throws: ``FileCacheStoreError``: Teller shows it as the refresh's error and keeps the
    ///   previous cache and its age.
    public func saveCache(_ cache: Cache, requirements: Requirements) throws {
        try cacheStore.save(cache, tag: requirements.tag)
    }

    /// Observes `requirements.tag` in ``cacheStore``: the value at once, then after every change.
    /// Called on the UI scheduler.
    ///
    /// If the tag has no readable value, Teller's fetch time for it is forgotten (the repository
    /// shows `.noCache` and fetches again) and the observable fails with
    /// ``FileCacheStoreError/noCache(tag:path:)``.
    ///
    /// - Parameter requirements: Whose value to observe.
    /// - Returns: An observable of the value.
    public func observeCache(requirements: Requirements) -> Observable<Cache> {
        cacheStore.observeForRepository(tag: requirements.tag)
    }

    /// `false`: a value is never empty unless the data source says how (collections are empty
    /// when they have no elements). Called on the UI scheduler.
    ///
    /// - Parameters:
    ///   - cache: A value ``RepositoryDataSource/observeCache(requirements:)`` emitted.
    ///   - requirements: Its requirements.
    /// - Returns: `false`.
    public func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        false
    }
}

extension CodableRepositoryDataSource where Cache: Collection {
    /// Whether the collection has no elements. Called on the UI scheduler.
    ///
    /// - Parameters:
    ///   - cache: A value ``RepositoryDataSource/observeCache(requirements:)`` emitted.
    ///   - requirements: Its requirements.
    /// - Returns: `cache.isEmpty`.
    public func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        cache.isEmpty
    }
}

extension FileCacheStore {
    /// ``observe(tag:)`` for a repository, which observes only a tag Teller fetched: no value
    /// means the file went missing, so Teller forgets the fetch time and fetches again.
    func observeForRepository(tag: String) -> Observable<Value> {
        let teller = self.teller
        let path = filePath(forTag: tag)
        return observe(tag: tag).map { value in
            if let value { return value }
            let error = FileCacheStoreError.noCache(tag: tag, path: path)
            if teller.metadataStore.metadata(forTag: tag) != nil {
                teller.log(.cacheStoreProblem(error.description))
                teller.clear(tag: tag)
            }
            throw error
        }
    }
}
