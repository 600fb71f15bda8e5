import Foundation
import Teller

extension CacheState {
    /// Builds any state a `TellerRepository` or a `TellerPagingRepository` can emit, for tests
    /// of code that consumes states (view models, views):
    ///
    /// ```swift
    /// let given: CacheState<[Repo]> = CacheState.testing.cache(requirements: requirements, lastTimeFetched: Date()) {
    ///     $0.cache([Repo(id: 1, name: "repo-name")])
    ///     $0.fetching()
    /// }
    /// ```
    ///
    /// Each builder returns exactly the state the real repository emits in that situation
    /// (TellerTesting's own tests drive a real repository into each one and compare with `==`).
    public static var testing: CacheStateTesting<Cache> {
        CacheStateTesting()
    }
}

/// The `CacheState.testing` builders: each returns exactly the state a real repository emits
/// in that situation.
///
/// | situation | builder |
/// | --- | --- |
/// | never fetched, no fetch running | `noCache(requirements:)` |
/// | first fetch running | `noCache(requirements:) { $0.fetchingFirstTime() }` |
/// | first fetch failed | `noCache(requirements:) { $0.failedFirstFetch(error:) }` |
/// | first fetch just succeeded | `noCache(requirements:) { $0.successfulFirstFetch(timeFetched:) }` |
/// | cache with data | `cache(requirements:lastTimeFetched:) { $0.cache(data) }` |
/// | empty cache | `cache(requirements:lastTimeFetched:)` |
/// | cache not read from storage yet | `cache(requirements:lastTimeFetched:) { $0.loadingCache() }` |
/// | first fetch waiting to retry | `noCache(requirements:) { $0.waitingToRetryFirstFetch(retry) }` |
/// | refreshing | `cache(…) { $0.cache(data); $0.fetching() }` |
/// | refresh waiting to retry | `cache(…) { $0.cache(data); $0.waitingToRetry(retry) }` |
/// | refresh failed | `cache(…) { $0.cache(data); $0.failedFetch(error:) }` |
/// | refresh just succeeded | `cache(…) { $0.cache(data); $0.successfulFetch(timeFetched:) }` |
///
/// As in Teller-iOS, `isRefreshing` is `true` for a running first fetch as well as a running
/// refresh, and `refreshError` carries a failed first fetch's error as well as a failed refresh's:
/// the builders set them exactly as the repository does.
///
/// For a `TellerPagingRepository` whose first page exists, use
/// ``pagedCache(requirements:lastTimeFetched:more:)``; before that its states are the
/// `noCache` ones above.
public struct CacheStateTesting<Cache>: Sendable {
    init() {}

    /// A state for requirements that were never fetched successfully (`.noCache`).
    ///
    /// Without `more` no fetch is running: what a repository shows when automatic refresh is
    /// off or when it was given requirements with no fetch to start.
    ///
    /// - Parameters:
    ///   - requirements: The requirements the state belongs to.
    ///   - more: Says what happens with the first fetch; see ``NoCacheExistsDsl``.
    /// - Returns: The state.
    public func noCache(
        requirements: any RepositoryRequirements,
        more: (inout NoCacheExistsDsl) -> Void = { _ in }
    ) -> CacheState<Cache> {
        var dsl = NoCacheExistsDsl()
        more(&dsl)
        switch dsl.firstFetch {
        case .idle:
            return CacheState(state: .noCache, requirements: requirements)
        case .running(let retry):
            return CacheState(state: .noCache, requirements: requirements, isFirstFetch: true, pendingRetry: retry)
        case .failed(let error):
            return CacheState(state: .noCache, requirements: requirements, errorDuringFirstFetch: error)
        case .succeeded(let timeFetched):
            // The first state after the first fetch: the cache exists but is not read yet.
            return CacheState(
                state: .cache(cache: nil, cacheAge: timeFetched),
                requirements: requirements,
                isLoadingCache: true,
                justFinishedFirstFetch: true
            )
        }
    }

    /// A state for requirements whose data was fetched successfully at `lastTimeFetched`.
    ///
    /// Without `more` the cache has been read and is empty, and no fetch is running.
    ///
    /// - Parameters:
    ///   - requirements: The requirements the state belongs to.
    ///   - lastTimeFetched: When the data was last fetched: the state's `cacheAge`.
    ///   - more: Says what the cache holds and what happens with a refresh; see
    ///     ``CacheExistsDsl``.
    /// - Returns: The state.
    public func cache(
        requirements: any RepositoryRequirements,
        lastTimeFetched: Date,
        more: (inout CacheExistsDsl<Cache>) -> Void = { _ in }
    ) -> CacheState<Cache> {
        var dsl = CacheExistsDsl<Cache>()
        more(&dsl)
        var cache: Cache?
        var isLoading = false
        var readError: (any Error)?
        switch dsl.content {
        case .empty: break
        case .notRead: isLoading = true
        case .value(let value): cache = value
        case .unreadable(let error): readError = error
        }
        var cacheAge = lastTimeFetched
        var isRefreshing = false
        var justFinished = false
        var refreshError: (any Error)?
        var pendingRetry: PendingRetry?
        switch dsl.refresh {
        case .idle: break
        case .running(let retry):
            isRefreshing = true
            pendingRetry = retry
        case .failed(let error): refreshError = error
        case .succeeded(let timeFetched):
            // The cache content is still the one read before the refresh; only its age moved.
            cacheAge = timeFetched
            justFinished = true
        }
        return CacheState(
            state: .cache(cache: cache, cacheAge: cacheAge),
            requirements: requirements,
            isLoadingCache: isLoading,
            isRefreshing: isRefreshing,
            justFinishedSuccessfulRefresh: justFinished,
            refreshError: refreshError,
            cacheReadError: readError,
            pendingRetry: pendingRetry
        )
    }
}

extension CacheStateTesting {
    /// Teller-iOS's static form of ``noCache(requirements:more:)-swift.method``:
    /// `let state: CacheState<[Repo]> = CacheStateTesting.noCache(requirements: requirements)`.
    /// The cache type comes from the context.
    ///
    /// - Parameters:
    ///   - requirements: The requirements the state belongs to.
    ///   - more: Says what happens with the first fetch; see ``NoCacheExistsDsl``.
    /// - Returns: The state.
    public static func noCache(
        requirements: any RepositoryRequirements,
        more: (inout NoCacheExistsDsl) -> Void = { _ in }
    ) -> CacheState<Cache> {
        CacheStateTesting().noCache(requirements: requirements, more: more)
    }

    /// Teller-iOS's static form of ``cache(requirements:lastTimeFetched:more:)-swift.method``:
    /// `let state: CacheState<[Repo]> = CacheStateTesting.cache(requirements: requirements, lastTimeFetched: date)`.
    /// The cache type comes from the context.
    ///
    /// - Parameters:
    ///   - requirements: The requirements the state belongs to.
    ///   - lastTimeFetched: When the data was last fetched: the state's `cacheAge`.
    ///   - more: Says what the cache holds and what happens with a refresh; see
    ///     ``CacheExistsDsl``.
    /// - Returns: The state.
    public static func cache(
        requirements: any RepositoryRequirements,
        lastTimeFetched: Date,
        more: (inout CacheExistsDsl<Cache>) -> Void = { _ in }
    ) -> CacheState<Cache> {
        CacheStateTesting().cache(requirements: requirements, lastTimeFetched: lastTimeFetched, more: more)
    }
}

/// Says what happens with the first fetch in ``CacheStateTesting/noCache(requirements:more:)-swift.method``.
/// The last call wins.
public struct NoCacheExistsDsl {
    enum FirstFetch {
        case idle
        /// With the retry it waits for, if any.
        case running(PendingRetry?)
        case failed(any Error)
        case succeeded(Date)
    }

    var firstFetch = FirstFetch.idle

    init() {}

    /// The first fetch is running (`isFirstFetch`, and `isRefreshing`, which covers every fetch).
    public mutating func fetchingFirstTime() {
        firstFetch = .running(nil)
    }

    /// The first fetch failed and waits to try again, as the ``/Teller/RetryPolicy`` says
    /// (`isFirstFetch`, `isRefreshing` and `pendingRetry`).
    ///
    /// - Parameter retry: How many attempts failed, the last error, and when the next starts.
    public mutating func waitingToRetryFirstFetch(_ retry: PendingRetry) {
        firstFetch = .running(retry)
    }

    /// The first fetch just failed with `error` (`errorDuringFirstFetch`, and `refreshError`,
    /// which covers every fetch); no fetch is running.
    ///
    /// - Parameter error: The fetch's error.
    public mutating func failedFirstFetch(error: any Error) {
        firstFetch = .failed(error)
    }

    /// The first fetch just succeeded at `timeFetched` (`justFinishedFirstFetch`). The state is
    /// `.cache(cache: nil, cacheAge: timeFetched)` with `isLoadingCache`: the repository has not
    /// read the new cache yet; the next state carries it.
    ///
    /// - Parameter timeFetched: When the fetch was saved.
    public mutating func successfulFirstFetch(timeFetched: Date) {
        firstFetch = .succeeded(timeFetched)
    }
}

/// Says what the cache holds and what happens with a refresh in
/// ``CacheStateTesting/cache(requirements:lastTimeFetched:more:)-swift.method``. Content and refresh are set
/// independently; within each, the last call wins.
public struct CacheExistsDsl<Cache> {
    enum Content {
        case empty
        case notRead
        case value(Cache)
        case unreadable(any Error)
    }

    enum Refresh {
        case idle
        /// With the retry it waits for, if any.
        case running(PendingRetry?)
        case failed(any Error)
        case succeeded(Date)
    }

    var content = Content.empty
    var refresh = Refresh.idle

    init() {}

    /// The cache holds `cache`.
    ///
    /// - Parameter cache: The data the state carries.
    public mutating func cache(_ cache: Cache) {
        content = .value(cache)
    }

    /// The cache was read and is empty (the default).
    public mutating func cacheEmpty() {
        content = .empty
    }

    /// The cache exists but has not been read from storage yet (`isLoadingCache`, `cache` is
    /// `nil`): the first state after requirements are set.
    public mutating func loadingCache() {
        content = .notRead
    }

    /// Reading the cache failed with `error` (`cacheReadError`; `cache` is `nil` and
    /// `isLoadingCache` is `false`): the data source's `observeCache` emitted an error.
    ///
    /// - Parameter error: The error `observeCache` emitted.
    public mutating func failedReadingCache(error: any Error) {
        content = .unreadable(error)
    }

    /// A refresh is running (`isRefreshing`; `isFirstFetch` is `false`, as a cache exists).
    public mutating func fetching() {
        refresh = .running(nil)
    }

    /// A refresh failed and waits to try again, as the ``/Teller/RetryPolicy`` says (`isRefreshing` and
    /// `pendingRetry`); the cache and its age are kept.
    ///
    /// - Parameter retry: How many attempts failed, the last error, and when the next starts.
    public mutating func waitingToRetry(_ retry: PendingRetry) {
        refresh = .running(retry)
    }

    /// A refresh just failed with `error` (`refreshError`; `errorDuringFirstFetch` is `nil`, as a
    /// cache exists); the cache and its age are kept.
    ///
    /// - Parameter error: The fetch's (or save's) error.
    public mutating func failedFetch(error: any Error) {
        refresh = .failed(error)
    }

    /// A refresh just succeeded at `timeFetched` (`justFinishedSuccessfulRefresh`): the age is
    /// `timeFetched` while the content is still the one read before (the next state carries the
    /// new content).
    ///
    /// - Parameter timeFetched: When the refresh was saved; replaces `lastTimeFetched`.
    public mutating func successfulFetch(timeFetched: Date) {
        refresh = .succeeded(timeFetched)
    }
}
