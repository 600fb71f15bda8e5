import Foundation
import Teller

extension CacheStateTesting {
    /// A state of a `TellerPagingRepository` whose first page was fetched successfully at
    /// `lastTimeFetched`: the states an app sees once a paged list exists.
    ///
    /// Without `more` the cache has been read and is empty, no fetch is running and no more
    /// pages exist. States before the first page was fetched carry no paging at all: build them
    /// with ``CacheStateTesting/noCache(requirements:more:)-swift.method``, exactly as for a
    /// `TellerRepository`.
    ///
    /// ```swift
    /// let given: CacheState<PagedCache<[Repo]>> = CacheState.testing.pagedCache(requirements: requirements, lastTimeFetched: Date()) {
    ///     $0.cache(firstPageOfRepos)
    ///     $0.loadingNextPage()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - requirements: The requirements the state belongs to.
    ///   - lastTimeFetched: When the first page was last fetched: the state's `cacheAge`. Next
    ///     pages do not change it.
    ///   - more: Says what the cache holds, what happens with a refresh and with the next page;
    ///     see ``PagedCacheExistsDsl``.
    /// - Returns: The state.
    public func pagedCache<PagingCache>(
        requirements: any RepositoryRequirements,
        lastTimeFetched: Date,
        more: (inout PagedCacheExistsDsl<PagingCache>) -> Void = { _ in }
    ) -> CacheState<Cache> where Cache == PagedCache<PagingCache> {
        var dsl = PagedCacheExistsDsl<PagingCache>()
        more(&dsl)
        let paging = dsl.paging
        // The real repository adds paging to the cache the data source emitted, the same way:
        // an empty or unread cache is `nil`, and shows no paging.
        return CacheStateTesting<PagingCache>()
            .cache(requirements: requirements, lastTimeFetched: lastTimeFetched) { $0 = dsl.base }
            .convert { cache in
                cache.map { cache in
                    switch paging {
                    case .noMorePages:
                        PagedCache(areMorePages: false, cache: cache)
                    case .morePages:
                        PagedCache(areMorePages: true, cache: cache)
                    case .loadingNextPage:
                        PagedCache(areMorePages: true, cache: cache, isLoadingNextPage: true)
                    case .failedNextPage(let error):
                        PagedCache(areMorePages: true, cache: cache, nextPageError: error)
                    }
                }
            }
    }
}

/// Says what the cache holds, what happens with a refresh, and what happens with the next page
/// in ``CacheStateTesting/pagedCache(requirements:lastTimeFetched:more:)``. Content, refresh
/// and paging are set independently; within each, the last call wins.
///
/// | situation | calls |
/// | --- | --- |
/// | pages shown, no more pages | `cache(pages)` |
/// | pages shown, more pages | `cache(pages); morePages()` |
/// | next page loading | `cache(pages); loadingNextPage()` |
/// | next page failed | `cache(pages); failedNextPage(error:)` |
/// | refreshing the first page | `cache(pages); fetching()` (with any paging call) |
///
/// Paging shows only on a cache that holds something: with ``cacheEmpty()`` or
/// ``loadingCache()`` the state's `cache` is `nil`, whatever the paging calls say, as the real
/// repository's is.
public struct PagedCacheExistsDsl<PagingCache> {
    enum Paging {
        case noMorePages
        case morePages
        case loadingNextPage
        case failedNextPage(any Error)
    }

    var base = CacheExistsDsl<PagingCache>()
    var paging = Paging.noMorePages

    init() {}

    // MARK: Content

    /// The cache holds `cache`: every page fetched so far, as the data source's `observeCache`
    /// emits it.
    ///
    /// - Parameter cache: The pages the state carries.
    public mutating func cache(_ cache: PagingCache) {
        base.cache(cache)
    }

    /// The cache was read and is empty (the default).
    public mutating func cacheEmpty() {
        base.cacheEmpty()
    }

    /// The cache exists but has not been read from storage yet (`isLoadingCache`, `cache` is
    /// `nil`): the first state after requirements are set.
    public mutating func loadingCache() {
        base.loadingCache()
    }

    // MARK: Refresh of the first page

    /// A refresh of the first page is running (`isRefreshing`; `isFirstFetch` is `false`, as a
    /// first page exists).
    public mutating func fetching() {
        base.fetching()
    }

    /// A refresh of the first page just failed with `error` (`refreshError`;
    /// `errorDuringFirstFetch` is `nil`, as a first page exists); the pages and their age are kept.
    ///
    /// - Parameter error: The fetch's (or save's) error.
    public mutating func failedFetch(error: any Error) {
        base.failedFetch(error: error)
    }

    /// A refresh of the first page just succeeded at `timeFetched`
    /// (`justFinishedSuccessfulRefresh`): the age is `timeFetched` while the content is still the
    /// pages read before (the next state carries the new first page alone).
    ///
    /// - Parameter timeFetched: When the refresh was saved; replaces `lastTimeFetched`.
    public mutating func successfulFetch(timeFetched: Date) {
        base.successfulFetch(timeFetched: timeFetched)
    }

    // MARK: Next page

    /// The last page shown said no more pages exist (`areMorePages` is `false`; the default).
    public mutating func noMorePages() {
        paging = .noMorePages
    }

    /// More pages exist after the last one shown (`areMorePages`); none is loading.
    public mutating func morePages() {
        paging = .morePages
    }

    /// The next page is being fetched or saved (`isLoadingNextPage`, and `areMorePages`, as a
    /// next page only loads when more exist).
    public mutating func loadingNextPage() {
        paging = .loadingNextPage
    }

    /// The last next page failed with `error` (`nextPageError`, and `areMorePages`: the page can
    /// be retried). The pages shown are kept.
    ///
    /// - Parameter error: The next page's fetch or save error.
    public mutating func failedNextPage(error: any Error) {
        paging = .failedNextPage(error)
    }
}
