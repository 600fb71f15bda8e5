import Foundation

/// Everything a UI needs to tell its users the truth about one cache: whether it exists, how
/// old it is, whether it is being refreshed, and what went wrong.
///
/// ``TellerRepository/observe()`` emits a new `CacheState` whenever any of this changes. The
/// "just finished" flags and the errors are set on the first state after the event and
/// cleared on the next state.
///
/// ```swift
/// switch cacheState.state {
/// case .noCache:
///     // Never fetched successfully. `isFirstFetch` says whether a fetch is running now.
///     break
/// case .cache(let cache, let cacheAge):
///     // `cache` is nil when the cache is empty (or not read yet: see `isLoadingCache`).
///     break
/// }
/// ```
///
/// As in Teller-iOS, ``isRefreshing`` and ``refreshError`` cover every fetch, the first one
/// included, so one spinner and one error message serve the whole screen. ``isFirstFetch`` and
/// ``errorDuringFirstFetch`` single out the first fetch:
///
/// | what happens | `isRefreshing` | `isFirstFetch` | `refreshError` | `errorDuringFirstFetch` |
/// | --- | --- | --- | --- | --- |
/// | first fetch running | `true` | `true` | `nil` | `nil` |
/// | first fetch failed | `false` | `false` | the error | the error |
/// | refresh of a cache running | `true` | `false` | `nil` | `nil` |
/// | refresh of a cache failed | `false` | `false` | the error | `nil` |
///
/// A `CacheState` is `Sendable` whenever its `Cache` is, and a data source's `Cache` always is,
/// so every state a repository emits can be handed to any task or actor (as
/// ``TellerRepositoryProtocol/states`` and ``RepositoryModel`` do). Its errors are `any Error`,
/// which is `Sendable`; its ``requirements`` are treated as immutable once set.
public struct CacheState<Cache> {
    /// Whether a cache exists, and if so what it holds and when it was fetched.
    public enum State {
        /// Data was never fetched successfully for these requirements.
        case noCache
        /// Data was fetched at `cacheAge`; `cache` is its content, or `nil` when the cache is
        /// empty or has not been read yet (``CacheState/isLoadingCache``).
        case cache(cache: Cache?, cacheAge: Date)
    }

    /// Every property, in one immutable object: a state is copied once per observer it is
    /// delivered to, often in generic code, and copying one reference costs a retain where
    /// copying eleven fields costs a call that copies each of them.
    private let storage: Storage

    private final class Storage: @unchecked Sendable {
        // @unchecked: immutable; `CacheState` is `Sendable` only when its `Cache` is.
        let state: State
        let requirements: (any RepositoryRequirements)?
        let isLoadingCache: Bool
        let isRefreshing: Bool
        let isFirstFetch: Bool
        let justFinishedFirstFetch: Bool
        let justFinishedSuccessfulRefresh: Bool
        let errorDuringFirstFetch: (any Error)?
        let refreshError: (any Error)?
        let cacheReadError: (any Error)?
        let pendingRetry: PendingRetry?
        let pendingWrites: [OutboxRecord]
        let shownWrites: [OutboxRecord]
        let writeError: (any Error)?

        init(
            state: State,
            requirements: (any RepositoryRequirements)?,
            isLoadingCache: Bool,
            isRefreshing: Bool,
            isFirstFetch: Bool,
            justFinishedFirstFetch: Bool,
            justFinishedSuccessfulRefresh: Bool,
            errorDuringFirstFetch: (any Error)?,
            refreshError: (any Error)?,
            cacheReadError: (any Error)?,
            pendingRetry: PendingRetry?,
            pendingWrites: [OutboxRecord],
            shownWrites: [OutboxRecord],
            writeError: (any Error)?
        ) {
            self.state = state
            self.requirements = requirements
            self.isLoadingCache = isLoadingCache
            self.isRefreshing = isRefreshing
            self.isFirstFetch = isFirstFetch
            self.justFinishedFirstFetch = justFinishedFirstFetch
            self.justFinishedSuccessfulRefresh = justFinishedSuccessfulRefresh
            self.errorDuringFirstFetch = errorDuringFirstFetch
            self.refreshError = refreshError
            self.cacheReadError = cacheReadError
            self.pendingRetry = pendingRetry
            self.pendingWrites = pendingWrites
            self.shownWrites = shownWrites
            self.writeError = writeError
        }
    }

    /// Whether a cache exists and what it holds.
    public var state: State { storage.state }
    /// The requirements this state belongs to.
    public var requirements: (any RepositoryRequirements)? { storage.requirements }
    /// The cache exists but has not been read from storage yet (`cache` is `nil` for now, which
    /// does not mean empty).
    public var isLoadingCache: Bool { storage.isLoadingCache }
    /// A fetch is running: the first fetch or a refresh of an existing cache, as in Teller-iOS.
    ///
    /// Show a spinner on it. To tell the first fetch apart, read ``isFirstFetch`` (or
    /// ``cacheExists``): Teller-iOS's `isFirstFetch` is `!cacheExists && isRefreshing`, and so is
    /// this one.
    public var isRefreshing: Bool { storage.isRefreshing }
    /// The first fetch is running: a fetch while no cache exists. ``isRefreshing`` is `true` too.
    public var isFirstFetch: Bool { storage.isFirstFetch }
    /// The first fetch just succeeded: a cache exists now.
    public var justFinishedFirstFetch: Bool { storage.justFinishedFirstFetch }
    /// A refresh of an existing cache just succeeded.
    public var justFinishedSuccessfulRefresh: Bool { storage.justFinishedSuccessfulRefresh }
    /// The first fetch just failed with this error; there is still no cache. ``refreshError``
    /// holds the same error.
    public var errorDuringFirstFetch: (any Error)? { storage.errorDuringFirstFetch }
    /// A fetch or its save just failed with this error, as in Teller-iOS: the first fetch (then
    /// ``errorDuringFirstFetch`` holds the same error and there is still no cache) or a refresh
    /// of an existing cache (the old cache is kept).
    public var refreshError: (any Error)? { storage.refreshError }
    /// Reading the cache failed: the data source's `observeCache` emitted this error. `cache` is
    /// `nil` (unknown, not empty) and ``isLoadingCache`` is `false`. No fetch is involved. The
    /// next `observe()`, refresh, or change of the tag's metadata reads the cache again.
    public var cacheReadError: (any Error)? { storage.cacheReadError }
    /// The running fetch failed and waits to try again, as the ``RetryPolicy`` says: how many
    /// attempts failed, the last error, and when the next attempt starts. `nil` otherwise, also
    /// while a retry's attempt runs (then only ``isRefreshing`` is set). When the last attempt
    /// fails, its error is the ``refreshError``.
    public var pendingRetry: PendingRetry? { storage.pendingRetry }
    /// The app's writes to this state's tag that wait in a ``TellerOutbox``, oldest first, or
    /// none. ``cache`` already shows them: the data source applies them to the stored cache
    /// (``RepositoryDataSource/applyPendingWrites(_:to:requirements:)``) until the server took
    /// them, so an edit made offline is on screen at once and stays through refreshes. Show a
    /// "not sent yet" mark while it is not empty.
    public var pendingWrites: [OutboxRecord] { storage.pendingWrites }
    /// The writes the data source applies to the cache: those the server took that no fetch
    /// brought back yet, then ``pendingWrites``.
    var shownWrites: [OutboxRecord] { storage.shownWrites }
    /// Why the app's latest write to this tag failed: the last failed attempt of a write that
    /// still waits (it is tried again), or a rejection the app has not acknowledged yet
    /// (``TellerOutbox/rejections``), whichever came last. `nil` when none failed.
    public var writeError: (any Error)? { storage.writeError }

    /// Creates a state. Teller builds these; apps build them in tests with
    /// `CacheState.testing` from TellerTesting.
    ///
    /// Callers describe the first fetch with `isFirstFetch` and `errorDuringFirstFetch`, and a
    /// refresh of an existing cache with `isRefreshing` and `refreshError`; the state derives
    /// Teller-iOS's meanings from them: `isRefreshing` is also `true` during the first fetch, and
    /// `refreshError` also carries the first fetch's error. Passing a state's own values back in
    /// (as ``convert(_:)`` does) gives the same state.
    package init(
        state: State,
        requirements: (any RepositoryRequirements)?,
        isLoadingCache: Bool = false,
        isRefreshing: Bool = false,
        isFirstFetch: Bool = false,
        justFinishedFirstFetch: Bool = false,
        justFinishedSuccessfulRefresh: Bool = false,
        errorDuringFirstFetch: (any Error)? = nil,
        refreshError: (any Error)? = nil,
        cacheReadError: (any Error)? = nil,
        pendingRetry: PendingRetry? = nil,
        pendingWrites: [OutboxRecord] = [],
        shownWrites: [OutboxRecord]? = nil,
        writeError: (any Error)? = nil
    ) {
        storage = Storage(
            state: state,
            requirements: requirements,
            isLoadingCache: isLoadingCache,
            isRefreshing: isRefreshing || isFirstFetch,
            isFirstFetch: isFirstFetch,
            justFinishedFirstFetch: justFinishedFirstFetch,
            justFinishedSuccessfulRefresh: justFinishedSuccessfulRefresh,
            errorDuringFirstFetch: errorDuringFirstFetch,
            refreshError: refreshError ?? errorDuringFirstFetch,
            cacheReadError: cacheReadError,
            pendingRetry: pendingRetry,
            pendingWrites: pendingWrites,
            shownWrites: shownWrites ?? pendingWrites,
            writeError: writeError
        )
    }

    /// Whether data was ever fetched successfully for these requirements.
    public var cacheExists: Bool {
        if case .cache = state { return true }
        return false
    }

    /// The cached data, or `nil` when there is no cache, it is empty, or not read yet.
    public var cache: Cache? {
        if case .cache(let cache, _) = state { return cache }
        return nil
    }

    /// When the cache was last fetched successfully, or `nil` when there is no cache.
    public var cacheAge: Date? {
        if case .cache(_, let cacheAge) = state { return cacheAge }
        return nil
    }

    /// Whether any fetch is running (first fetch or refresh): the same as ``isRefreshing``, which
    /// has had this meaning since it follows Teller-iOS.
    public var isFetching: Bool {
        isRefreshing
    }

    /// The error of the fetch (or save) that just failed, first fetch or refresh: the same as
    /// ``refreshError``, which has had this meaning since it follows Teller-iOS.
    public var fetchError: (any Error)? {
        refreshError
    }

    /// Converts the cached data to another type, keeping everything else.
    ///
    /// ```swift
    /// repository.observe().map { state in state.convert { repos in repos.map(RepoViewModel.init) } }
    /// ```
    ///
    /// - Parameter convert: Called with the cache (or `nil`); returns the new cache or `nil`.
    /// - Returns: The same state with the converted cache.
    public func convert<NewCache>(_ convert: (Cache?) throws -> NewCache?) rethrows -> CacheState<NewCache> {
        let newState: CacheState<NewCache>.State
        switch state {
        case .noCache:
            newState = .noCache
        case .cache(let cache, let cacheAge):
            newState = .cache(cache: try convert(cache), cacheAge: cacheAge)
        }
        return CacheState<NewCache>(
            state: newState,
            requirements: requirements,
            isLoadingCache: isLoadingCache,
            isRefreshing: isRefreshing,
            isFirstFetch: isFirstFetch,
            justFinishedFirstFetch: justFinishedFirstFetch,
            justFinishedSuccessfulRefresh: justFinishedSuccessfulRefresh,
            errorDuringFirstFetch: errorDuringFirstFetch,
            refreshError: refreshError,
            cacheReadError: cacheReadError,
            pendingRetry: pendingRetry,
            pendingWrites: pendingWrites,
            shownWrites: shownWrites,
            writeError: writeError
        )
    }
}

/// Old name from Teller-iOS.
public typealias DataState<Cache> = CacheState<Cache>

// @unchecked: requirements are documented as immutable once set, and errors are `Sendable`
// in Swift 6; everything else is a value of `Cache`.
extension CacheState: @unchecked Sendable where Cache: Sendable {}
extension CacheState.State: Sendable where Cache: Sendable {}

extension CacheState.State: Equatable where Cache: Equatable {}

extension CacheState: Equatable where Cache: Equatable {
    /// States are equal when every property is; requirements compare by tag, pending writes by
    /// id, errors by type and description. ``CacheState/isRefreshing`` and
    /// ``CacheState/refreshError`` include the first fetch, so two states that differ only in
    /// whether a fetch or an error belongs to the first fetch still differ, in
    /// ``CacheState/isFirstFetch`` or ``CacheState/errorDuringFirstFetch``.
    public static func == (lhs: CacheState, rhs: CacheState) -> Bool {
        lhs.state == rhs.state
            && lhs.requirements?.tag == rhs.requirements?.tag
            && lhs.isLoadingCache == rhs.isLoadingCache
            && lhs.isRefreshing == rhs.isRefreshing
            && lhs.isFirstFetch == rhs.isFirstFetch
            && lhs.justFinishedFirstFetch == rhs.justFinishedFirstFetch
            && lhs.justFinishedSuccessfulRefresh == rhs.justFinishedSuccessfulRefresh
            && optionalErrorsMatch(lhs.errorDuringFirstFetch, rhs.errorDuringFirstFetch)
            && optionalErrorsMatch(lhs.refreshError, rhs.refreshError)
            && optionalErrorsMatch(lhs.cacheReadError, rhs.cacheReadError)
            && lhs.pendingRetry == rhs.pendingRetry
            && lhs.pendingWrites.map(\.id) == rhs.pendingWrites.map(\.id)
            && optionalErrorsMatch(lhs.writeError, rhs.writeError)
    }
}

private func optionalErrorsMatch(_ lhs: (any Error)?, _ rhs: (any Error)?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case (let lhs?, let rhs?): sameError(lhs, rhs)
    default: false
    }
}

extension CacheState: CustomStringConvertible {
    /// A one-line summary, e.g. `cache([...], age 2026-…) refreshing`.
    ///
    /// Each fact is named once: a first fetch shows as `firstFetch` (not also `refreshing`), and
    /// its error as `errorDuringFirstFetch(…)` (not also `refreshError(…)`), although
    /// ``isRefreshing`` and ``refreshError`` cover it too.
    public var description: String {
        var parts: [String]
        switch state {
        case .noCache: parts = ["noCache"]
        case .cache(let cache, let age):
            parts = ["cache(\(cache.map { "\($0)" } ?? (isLoadingCache ? "not read yet" : "empty")), age \(age))"]
        }
        if isFirstFetch { parts.append("firstFetch") }
        if isRefreshing && !isFirstFetch { parts.append("refreshing") }
        if justFinishedFirstFetch { parts.append("justFinishedFirstFetch") }
        if justFinishedSuccessfulRefresh { parts.append("justFinishedSuccessfulRefresh") }
        if let error = errorDuringFirstFetch { parts.append("errorDuringFirstFetch(\(error))") }
        if let error = refreshError, errorDuringFirstFetch == nil { parts.append("refreshError(\(error))") }
        if let error = cacheReadError { parts.append("cacheReadError(\(error))") }
        if let retry = pendingRetry { parts.append("pendingRetry(\(retry))") }
        if !pendingWrites.isEmpty { parts.append("pendingWrites(\(pendingWrites.count))") }
        if let error = writeError { parts.append("writeError(\(error))") }
        return parts.joined(separator: " ")
    }
}
