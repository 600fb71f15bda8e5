import TellerRx

/// Tells Teller how to fetch, save and observe a list that is fetched page by page. Implement
/// it and hand it to a ``TellerPagingRepository``; Teller decides when to call each member.
///
/// Its `FetchResult` is a ``PagedFetchResponse`` and its `Cache` a ``PagedCache``; Teller fills
/// those in. Each member gets the ``PagingRepositoryRequirements`` of the page it is about. It
/// shares ``TellerDataSource``'s members with ``RepositoryDataSource`` and nothing else: a
/// paging data source handed to a plain ``TellerRepository`` does not compile.
///
/// ```swift
/// final class ReposDataSource: PagingRepositoryDataSource {
///     typealias PagingCache = [Repo]
///     typealias Requirements = ReposRequirements
///     typealias PagingRequirements = ReposPagingRequirements
///     typealias NextPageRequirements = Void      // a page number needs nothing from the last page
///     typealias PagingFetchResult = [Repo]
///     typealias FetchError = any Error
///
///     var maxAgeOfCache = Period(unit: 5, component: .hour)
///
///     func getNextPagePagingRequirements(
///         currentPagingRequirements: ReposPagingRequirements,
///         nextPageRequirements: Void?
///     ) -> ReposPagingRequirements {
///         currentPagingRequirements.nextPage()
///     }
///     func fetchFreshCache(requirements: ReposRequirements, pagingRequirements: ReposPagingRequirements)
///         -> Single<FetchResponse<FetchResult, any Error>> {
///         api.repos(of: requirements.username, page: pagingRequirements.pageNumber).map { page in
///             .success(PagedFetchResponse(areMorePages: page.hasNext, nextPageRequirements: nil, fetchResponse: page.repos))
///         }
///     }
///     func deleteCache(_ requirements: ReposRequirements) {
///         database.deleteRepos(of: requirements.username)
///     }
///     func persistOnlyFirstPage(requirements: ReposRequirements) {
///         database.keepFirst(50, of: requirements.username)
///     }
///     func saveCache(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPagingRequirements) throws {
///         try database.append(cache, for: requirements.username)   // append: pages build on each other
///     }
///     func observeCache(requirements: ReposRequirements, pagingRequirements: ReposPagingRequirements)
///         -> Observable<[Repo]> {
///         database.observeRepos(of: requirements.username)
///     }
///     func isCacheEmpty(_ cache: [Repo], requirements: ReposRequirements, pagingRequirements: ReposPagingRequirements)
///         -> Bool {
///         cache.isEmpty
///     }
/// }
/// ```
///
/// Threads: ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``,
/// ``fetchFreshCache(requirements:pagingRequirements:)``, ``saveCache(_:requirements:pagingRequirements:)``,
/// ``deleteCache(_:)`` and ``persistOnlyFirstPage(requirements:)`` are called on the
/// ``Teller/backgroundScheduler``; ``observeCache(requirements:pagingRequirements:)`` and
/// ``isCacheEmpty(_:requirements:pagingRequirements:)`` on the ``Teller/uiScheduler``. A
/// repository never runs two of the writing members (`deleteCache` + `saveCache` of a first page,
/// `saveCache` of a next page, `persistOnlyFirstPage`) at the same time. Repositories showing the
/// same tag share first-page fetches, but each pages on by itself: show a paged list in one
/// repository at a time.
public protocol PagingRepositoryDataSource: TellerDataSource {
    // Restated from TellerDataSource so Swift infers them from the members below.
    /// The requirements type this data source works with.
    associatedtype Requirements
    /// The error type a fetch may fail with (`Error` for any).
    associatedtype FetchError
    /// The type of the cached pages that ``observeCache(requirements:pagingRequirements:)`` emits.
    associatedtype PagingCache: Sendable
    /// Says which page to fetch (a page number, a cursor…).
    associatedtype PagingRequirements: PagingRepositoryRequirements
    /// What a fetched page tells the next fetch (such as the last item's id); `Void` if nothing.
    /// Make it `Codable` so it survives a relaunch (see ``PagedFetchResponse``).
    associatedtype NextPageRequirements: Sendable
    /// The type of one page of fetched data.
    associatedtype PagingFetchResult: Sendable

    /// The paging requirements of the page after `currentPagingRequirements`. Called on the
    /// background scheduler when ``TellerPagingRepository/goToNextPage()`` fetches a page.
    ///
    /// - Parameters:
    ///   - currentPagingRequirements: The requirements of the last page shown.
    ///   - nextPageRequirements: What the fetch of that page returned in
    ///     ``PagedFetchResponse/nextPageRequirements``; `nil` if it returned nothing (or, after
    ///     a relaunch, if the type is not `Codable`).
    /// - Returns: The requirements of the next page.
    func getNextPagePagingRequirements(
        currentPagingRequirements: PagingRequirements,
        nextPageRequirements: NextPageRequirements?
    ) -> PagingRequirements

    /// Deletes everything beyond the first page of the cache for `requirements`. Called on the
    /// background scheduler when requirements are set and a cache exists, before the cache is
    /// first read, so the pages shown line up with the paging requirements (which start at the
    /// first page again). If a page holds 50 items, keep the first 50.
    ///
    /// - Parameter requirements: Whose cache to trim.
    func persistOnlyFirstPage(requirements: Requirements)

    /// Deletes the whole cache for `requirements`. Called on the background scheduler right
    /// before a freshly fetched first page is saved, so the first page replaces the old pages.
    ///
    /// - Parameter requirements: Whose cache to delete.
    func deleteCache(_ requirements: Requirements)

    /// Fetches one page, usually over the network. Called on the background scheduler.
    ///
    /// Return `.failure(error)` (or fail the `Single`) when the fetch fails: for the first page
    /// Teller shows it as the refresh error, for a next page as ``PagedCache/nextPageError``;
    /// either way the pages already cached are kept.
    ///
    /// - Parameters:
    ///   - requirements: What list to fetch.
    ///   - pagingRequirements: Which page of it.
    /// - Returns: A `Single` with the page; Teller disposes it if nobody waits any more.
    func fetchFreshCache(
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) -> Single<FetchResponse<FetchResult, FetchError>>

    /// Saves one fetched page. *Append* it to the cache: pages build on each other (a first
    /// page is saved right after ``deleteCache(_:)``). Called on the background scheduler.
    ///
    /// A first page is neither deleted nor saved when a fetch of the same tag by another
    /// data-source type saved first though it started later, with an invalidation between the
    /// two starts (``Teller/invalidate(tag:)``, or a write an outbox sent): the data stored is
    /// newer, and the refresh succeeds unsaved.
    ///
    /// - Parameters:
    ///   - cache: The page's data (``PagedFetchResponse/fetchResponse``).
    ///   - requirements: The list it belongs to.
    ///   - pagingRequirements: Which page it is.
    /// - Throws: Any error; for the first page Teller reports it as the refresh error, for a
    ///   next page as ``PagedCache/nextPageError`` (and the page can be retried).
    func saveCache(
        _ cache: PagingFetchResult,
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) throws

    /// Observes the cached pages. Called on the UI scheduler, and observed there, while the
    /// repository is observed (a repository that is only refreshed never calls it); Teller
    /// observes again with the new paging requirements after every page it saves.
    ///
    /// Emit the current pages at once when subscribed, then on every change (see
    /// ``RepositoryDataSource/observeCache(requirements:)``). A next page shows as loading until
    /// its new observation emits; one that emits nothing when subscribed ends the loading at
    /// once and is reported to the logger.
    ///
    /// - Parameters:
    ///   - requirements: The list to observe.
    ///   - pagingRequirements: The last page shown (emit every page up to it).
    /// - Returns: An observable of the cached pages.
    func observeCache(requirements: Requirements, pagingRequirements: PagingRequirements) -> Observable<PagingCache>

    /// Whether `cache` counts as empty. Called on the UI scheduler.
    ///
    /// - Parameters:
    ///   - cache: A value ``observeCache(requirements:pagingRequirements:)`` emitted.
    ///   - requirements: The list it was observed for.
    ///   - pagingRequirements: The paging requirements it was observed with.
    /// - Returns: `true` if the UI should show its empty state.
    func isCacheEmpty(_ cache: PagingCache, requirements: Requirements, pagingRequirements: PagingRequirements) -> Bool

    /// The pages observers are shown while the app's writes to this list wait in a
    /// ``TellerOutbox``: `writes` (oldest first) applied to the pages stored. Called on the UI
    /// scheduler; a pure function that changes nothing for a write the pages already hold. See
    /// ``RepositoryDataSource/applyPendingWrites(_:to:requirements:)``.
    /// The default shows the stored pages unchanged.
    ///
    /// - Parameters:
    ///   - writes: The writes to show, as for a plain data source: those the server took that
    ///     no fetch brought back yet, then the pending ones (``CacheState/pendingWrites``).
    ///   - cache: The pages stored, or `nil` when they are empty.
    ///   - requirements: The list they were observed for.
    /// - Returns: The pages to show, or `nil` for empty.
    func applyPendingWrites(
        _ writes: [OutboxRecord],
        to cache: PagingCache?,
        requirements: Requirements
    )
        -> PagingCache?
}

extension PagingRepositoryDataSource {
    /// Shows the stored pages unchanged.
    public func applyPendingWrites(
        _ writes: [OutboxRecord],
        to cache: PagingCache?,
        requirements: Requirements
    )
        -> PagingCache?
    {
        cache
    }

    /// What one fetch returns: a page and what it says about the next one.
    public typealias FetchResult = PagedFetchResponse<PagingFetchResult, NextPageRequirements>
    /// What a ``TellerPagingRepository`` shows: the pages so far and whether more exist.
    public typealias Cache = PagedCache<PagingCache>
}
