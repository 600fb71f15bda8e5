import TellerRx

/// A paging data source seen as a plain one that fetches and saves the first page, so a first
/// page runs as an ordinary flight (one per tag, shared with every repository showing the tag,
/// timed out, recorded in the metadata with its paging progress).
///
/// Saving deletes the old cache first: the first page replaces every page before it. After a
/// save, `didSave` gets the page's response, so the repository that started the flight keeps
/// its paging progress in memory even when the metadata cannot store it (non-`Codable`
/// next-page requirements).
struct FirstPageDataSource<Paged: PagingRepositoryDataSource>: RepositoryDataSource {
    typealias Cache = Paged.PagingCache
    typealias Requirements = Paged.Requirements
    typealias FetchResult = Paged.FetchResult
    typealias FetchError = Paged.FetchError

    let paged: Paged
    let firstPage: Paged.PagingRequirements
    /// The repository's write lane: the delete and the save run in it as one write.
    let writes: Lock
    let didSave: @Sendable (Requirements, FetchResult) -> Void

    var maxAgeOfCache: Period {
        paged.maxAgeOfCache
    }

    var automaticallyRefresh: Bool {
        paged.automaticallyRefresh
    }

    var retryPolicy: RetryPolicy? {
        paged.retryPolicy
    }

    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, FetchError>> {
        paged.fetchFreshCache(requirements: requirements, pagingRequirements: firstPage)
    }

    func saveCache(_ cache: FetchResult, requirements: Requirements) throws {
        try writes.withLock {
            paged.deleteCache(requirements)
            try paged.saveCache(cache.fetchResponse, requirements: requirements, pagingRequirements: firstPage)
        }
        didSave(requirements, cache)
    }

    func observeCache(requirements: Requirements) -> Observable<Cache> {
        paged.observeCache(requirements: requirements, pagingRequirements: firstPage)
    }

    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        paged.isCacheEmpty(cache, requirements: requirements, pagingRequirements: firstPage)
    }
}
