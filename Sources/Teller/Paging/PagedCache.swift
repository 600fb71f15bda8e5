/// The cache a ``TellerPagingRepository`` shows: every page fetched so far, whether more pages
/// exist, and the state of the next page, so a list can show a "loading more" footer and a
/// next-page error apart from the whole-list refresh and its error (which stay on
/// ``CacheState``).
///
/// ```swift
/// repository.observe().subscribe(onNext: { (state: CacheState<PagedCache<[Repo]>>) in
///     guard let paged = state.cache else { return }  // no cache, empty, or not read yet
///     tableView.show(paged.cache)
///     if let error = paged.nextPageError {
///         footer.showRetry(error)                     // tap: repository.goToNextPage()
///     } else if paged.isLoadingNextPage {
///         footer.showSpinner()
///     } else {
///         footer.isHidden = !paged.areMorePages      // visible footer: call goToNextPage()
///     }
/// })
/// ```
public struct PagedCache<Cache> {
    /// Whether more pages exist after the last one in ``cache``.
    public let areMorePages: Bool
    /// Every page fetched so far, as the data source's `observeCache` emits it.
    public let cache: Cache
    /// Whether the next page is being fetched or saved (``TellerPagingRepository/goToNextPage()``
    /// was accepted and has not finished). A next page asked for while a refresh runs waits for
    /// the refresh and shows `true` meanwhile.
    public let isLoadingNextPage: Bool
    /// Why the last next page failed (its fetch or its save), or `nil`. The pages in ``cache``
    /// are kept. Unlike the one-shot errors of ``CacheState``, this stays until
    /// ``TellerPagingRepository/goToNextPage()`` tries again, a refresh fetches a new first
    /// page, or the requirements change, so a footer can offer "retry".
    public let nextPageError: (any Error)?

    /// Creates a paged cache (Teller builds these; apps build them in tests).
    ///
    /// - Parameters:
    ///   - areMorePages: Whether more pages exist.
    ///   - cache: The cached pages.
    ///   - isLoadingNextPage: Whether the next page is loading.
    ///   - nextPageError: Why the last next page failed, if it did.
    public init(areMorePages: Bool, cache: Cache, isLoadingNextPage: Bool = false, nextPageError: (any Error)? = nil) {
        self.areMorePages = areMorePages
        self.cache = cache
        self.isLoadingNextPage = isLoadingNextPage
        self.nextPageError = nextPageError
    }
}

extension PagedCache: Sendable where Cache: Sendable {}

extension PagedCache: Equatable where Cache: Equatable {
    /// Paged caches are equal when every property is; errors compare by type and description.
    public static func == (lhs: PagedCache, rhs: PagedCache) -> Bool {
        guard lhs.areMorePages == rhs.areMorePages, lhs.cache == rhs.cache,
            lhs.isLoadingNextPage == rhs.isLoadingNextPage
        else { return false }
        switch (lhs.nextPageError, rhs.nextPageError) {
        case (nil, nil): return true
        case (let left?, let right?): return sameError(left, right)
        default: return false
        }
    }
}

extension PagedCache: CustomStringConvertible {
    /// A one-line summary, e.g. `[...] areMorePages loadingNextPage`.
    public var description: String {
        var parts = ["\(cache)"]
        if areMorePages { parts.append("areMorePages") }
        if isLoadingNextPage { parts.append("loadingNextPage") }
        if let nextPageError { parts.append("nextPageError(\(nextPageError))") }
        return parts.joined(separator: " ")
    }
}
