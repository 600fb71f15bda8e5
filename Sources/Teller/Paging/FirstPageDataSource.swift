import TellerRx

/// A paging data source seen as a plain one that fetches and saves the first page, so a first
/// page runs as an ordinary flight (one per tag, shared with every repository showing the tag,
/// timed out, recorded in the metadata with its paging progress).
///
/// Saving deletes the old cache first: the first page replaces every page before it. The flight
/// runs the delete and the save as one write in the key's write lane.
struct FirstPageDataSource<Paged: PagingRepositoryDataSource>: RepositoryDataSource {
    typealias Cache = Paged.PagingCache
    typealias Requirements = Paged.Requirements
    typealias FetchResult = Paged.FetchResult
    typealias FetchError = Paged.FetchError

    let paged: Paged
    let firstPage: Paged.PagingRequirements

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
        paged.deleteCache(requirements)
        try paged.saveCache(cache.fetchResponse, requirements: requirements, pagingRequirements: firstPage)
    }

    func observeCache(requirements: Requirements) -> Observable<Cache> {
        paged.observeCache(requirements: requirements, pagingRequirements: firstPage)
    }

    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        paged.isCacheEmpty(cache, requirements: requirements, pagingRequirements: firstPage)
    }
}
