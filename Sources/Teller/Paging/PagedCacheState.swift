/// The state a ``TellerPagingRepository`` emits: Teller-iOS's name for
/// `CacheState<PagedCache<PagingCache>>`.
public typealias PagedCacheState<PagingCache> = CacheState<PagedCache<PagingCache>>

extension CacheState {
    /// Converts the pages of a paged state to another type, keeping everything else: the
    /// ``PagedCache`` around them (`areMorePages`, `isLoadingNextPage`, `nextPageError`) and
    /// the state's flags. Teller-iOS's paged `convert`.
    ///
    /// ```swift
    /// repository.observe().map { state in state.convert { repos in repos?.map(\.name) } }
    /// ```
    ///
    /// - Parameter convert: Called with the pages when the state holds some, on the calling
    ///   thread; returns the new pages, or `nil` for a state without any. Not called when the
    ///   state holds no pages (no cache, or a cache not read yet or empty): the result holds none.
    /// - Returns: The same state with the converted pages.
    public func convert<OldCache, NewCache>(
        _ convert: (OldCache?) throws -> NewCache?
    ) rethrows -> PagedCacheState<NewCache> where Cache == PagedCache<OldCache> {
        try self.convert { (paged: PagedCache<OldCache>?) -> PagedCache<NewCache>? in
            guard let paged, let pages = try convert(paged.cache) else { return nil }
            return PagedCache(
                areMorePages: paged.areMorePages,
                cache: pages,
                isLoadingNextPage: paged.isLoadingNextPage,
                nextPageError: paged.nextPageError
            )
        }
    }
}
