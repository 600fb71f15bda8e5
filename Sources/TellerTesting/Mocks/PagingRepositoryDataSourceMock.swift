import Foundation
import Teller
import TellerRx

/// A `PagingRepositoryDataSource` for tests: give it to a real `TellerPagingRepository` (or to
/// your own code that drives a paging data source) and script each member with its `…Closure`.
///
/// Every paging member records its calls (`…Called`, `…CallsCount`, and `…Invocations` for
/// members with arguments). Unset closures give neutral answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | ``maxAgeOfCache`` | one hour |
/// | ``automaticallyRefresh`` | `true` (Teller's default) |
/// | ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` | `currentPagingRequirements` |
/// | ``persistOnlyFirstPage(requirements:)`` | records the call, trims nothing |
/// | ``deleteCache(_:)`` | records the call, deletes nothing |
/// | ``fetchFreshCache(requirements:pagingRequirements:)`` | `.just(.failure(MockClosureNotSetError(...)))`: the fetch fails at once, naming the closure to set |
/// | ``saveCache(_:requirements:pagingRequirements:)`` | records the call, saves nothing |
/// | ``observeCache(requirements:pagingRequirements:)`` | `Observable.empty()`: the cache is never read |
/// | ``isCacheEmpty(_:requirements:pagingRequirements:)`` | `true` for an empty `Collection` (array, string, …), otherwise `false` |
///
/// Like every paging data source, the mock is not a `RepositoryDataSource`: a plain
/// `TellerRepository` does not take it.
///
/// `TellerPagingRepository` reads ``maxAgeOfCache`` and ``automaticallyRefresh`` once, when it
/// is created: set their closures before creating the repository.
///
/// ```swift
/// let dataSource = PagingRepositoryDataSourceMock<[Repo], ReposRequirements, ReposPagingRequirements, Void, [Repo]>()
/// dataSource.fetchFreshCacheClosure = { _, page in
///     .just(.success(PagedFetchResponse(areMorePages: page.pageNumber < 3, nextPageRequirements: nil, fetchResponse: [])))
/// }
/// dataSource.getNextPagePagingRequirementsClosure = { current, _ in current.nextPage() }
/// ```
///
/// Threads: members may be called from any thread (Teller calls them on its schedulers); the
/// records are guarded by a lock, and closures run on the calling thread, outside the lock.
public final class PagingRepositoryDataSourceMock<
    PagingCache: Sendable,
    Requirements: RepositoryRequirements,
    PagingRequirements: PagingRepositoryRequirements,
    NextPageRequirements: Sendable,
    PagingFetchResult: Sendable
>:
    PagingRepositoryDataSource, @unchecked Sendable
{
    // @unchecked: all mutable state is in `record`, behind its lock.

    /// Fetches may fail with any error.
    public typealias FetchError = any Error
    /// What ``fetchFreshCache(requirements:pagingRequirements:)`` answers with.
    public typealias PageResponse = FetchResponse<
        PagedFetchResponse<PagingFetchResult, NextPageRequirements>, any Error
    >

    private struct Record {
        var mockCalled = false
        var maxAgeOfCacheCallsCount = 0
        var maxAgeOfCacheClosure: (@Sendable () -> Period)?
        var automaticallyRefreshCallsCount = 0
        var automaticallyRefreshClosure: (@Sendable () -> Bool)?
        var getNextPageInvocations:
            [(currentPagingRequirements: PagingRequirements, nextPageRequirements: NextPageRequirements?)] = []
        var getNextPageClosure: (@Sendable (PagingRequirements, NextPageRequirements?) -> PagingRequirements)?
        var persistOnlyFirstPageInvocations: [Requirements] = []
        var persistOnlyFirstPageClosure: (@Sendable (Requirements) -> Void)?
        var deleteCacheInvocations: [Requirements] = []
        var deleteCacheClosure: (@Sendable (Requirements) -> Void)?
        var fetchFreshCacheInvocations: [(requirements: Requirements, pagingRequirements: PagingRequirements)] = []
        var fetchFreshCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Single<PageResponse>)?
        var saveCacheInvocations:
            [(cache: PagingFetchResult, requirements: Requirements, pagingRequirements: PagingRequirements)] = []
        var saveCacheClosure: (@Sendable (PagingFetchResult, Requirements, PagingRequirements) throws -> Void)?
        var observeCacheInvocations: [(requirements: Requirements, pagingRequirements: PagingRequirements)] = []
        var observeCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Observable<PagingCache>)?
        var isCacheEmptyInvocations:
            [(cache: PagingCache, requirements: Requirements, pagingRequirements: PagingRequirements)] = []
        var isCacheEmptyClosure: (@Sendable (PagingCache, Requirements, PagingRequirements) -> Bool)?
    }

    private let record = LockedState(Record())

    /// Creates a mock with no closures set: every member gives its default answer.
    public init() {}

    /// Whether any member of the mock was used.
    public var mockCalled: Bool {
        record.withLock { $0.mockCalled }
    }

    // MARK: maxAgeOfCache

    /// ``maxAgeOfCacheClosure``'s period, or one hour when it is `nil`.
    public var maxAgeOfCache: Period {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.maxAgeOfCacheCallsCount += 1
            return record.maxAgeOfCacheClosure
        }
        return closure?() ?? Period(unit: 1, component: .hour)
    }

    /// Whether ``maxAgeOfCache`` was read.
    public var maxAgeOfCacheCalled: Bool {
        maxAgeOfCacheCallsCount > 0
    }

    /// How many times ``maxAgeOfCache`` was read.
    public var maxAgeOfCacheCallsCount: Int {
        record.withLock { $0.maxAgeOfCacheCallsCount }
    }

    /// What ``maxAgeOfCache`` returns, called on the reading thread.
    public var maxAgeOfCacheClosure: (@Sendable () -> Period)? {
        get { record.withLock { $0.maxAgeOfCacheClosure } }
        set { record.withLock { $0.maxAgeOfCacheClosure = newValue } }
    }

    // MARK: automaticallyRefresh

    /// ``automaticallyRefreshClosure``'s answer, or `true` when it is `nil`.
    public var automaticallyRefresh: Bool {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.automaticallyRefreshCallsCount += 1
            return record.automaticallyRefreshClosure
        }
        return closure?() ?? true
    }

    /// Whether ``automaticallyRefresh`` was read.
    public var automaticallyRefreshCalled: Bool {
        automaticallyRefreshCallsCount > 0
    }

    /// How many times ``automaticallyRefresh`` was read.
    public var automaticallyRefreshCallsCount: Int {
        record.withLock { $0.automaticallyRefreshCallsCount }
    }

    /// What ``automaticallyRefresh`` returns, called on the reading thread.
    public var automaticallyRefreshClosure: (@Sendable () -> Bool)? {
        get { record.withLock { $0.automaticallyRefreshClosure } }
        set { record.withLock { $0.automaticallyRefreshClosure = newValue } }
    }

    // MARK: getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)

    /// Records the call and returns ``getNextPagePagingRequirementsClosure``'s answer, or
    /// `currentPagingRequirements` when it is `nil` (the mock cannot know what "next" means).
    ///
    /// - Parameters:
    ///   - currentPagingRequirements: Recorded in ``getNextPagePagingRequirementsInvocations``.
    ///   - nextPageRequirements: Recorded in ``getNextPagePagingRequirementsInvocations``.
    /// - Returns: The next page's paging requirements.
    public func getNextPagePagingRequirements(
        currentPagingRequirements: PagingRequirements,
        nextPageRequirements: NextPageRequirements?
    ) -> PagingRequirements {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.getNextPageInvocations.append((currentPagingRequirements, nextPageRequirements))
            return record.getNextPageClosure
        }
        return closure?(currentPagingRequirements, nextPageRequirements) ?? currentPagingRequirements
    }

    /// Whether ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``
    /// was called.
    public var getNextPagePagingRequirementsCalled: Bool {
        getNextPagePagingRequirementsCallsCount > 0
    }

    /// How many times
    /// ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` was called.
    public var getNextPagePagingRequirementsCallsCount: Int {
        record.withLock { $0.getNextPageInvocations.count }
    }

    /// The arguments of every
    /// ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` call,
    /// oldest first.
    public var getNextPagePagingRequirementsInvocations:
        [(currentPagingRequirements: PagingRequirements, nextPageRequirements: NextPageRequirements?)]
    {
        record.withLock { $0.getNextPageInvocations }
    }

    /// What ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``
    /// returns, called on the calling thread (Teller's background scheduler).
    public var getNextPagePagingRequirementsClosure:
        (@Sendable (PagingRequirements, NextPageRequirements?) -> PagingRequirements)?
    {
        get { record.withLock { $0.getNextPageClosure } }
        set { record.withLock { $0.getNextPageClosure = newValue } }
    }

    // MARK: persistOnlyFirstPage(requirements:)

    /// Records the call, then runs ``persistOnlyFirstPageClosure`` if set.
    ///
    /// - Parameter requirements: Recorded in ``persistOnlyFirstPageInvocations``.
    public func persistOnlyFirstPage(requirements: Requirements) {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.persistOnlyFirstPageInvocations.append(requirements)
            return record.persistOnlyFirstPageClosure
        }
        closure?(requirements)
    }

    /// Whether ``persistOnlyFirstPage(requirements:)`` was called.
    public var persistOnlyFirstPageCalled: Bool {
        persistOnlyFirstPageCallsCount > 0
    }

    /// How many times ``persistOnlyFirstPage(requirements:)`` was called.
    public var persistOnlyFirstPageCallsCount: Int {
        record.withLock { $0.persistOnlyFirstPageInvocations.count }
    }

    /// The requirements of every ``persistOnlyFirstPage(requirements:)`` call, oldest first.
    public var persistOnlyFirstPageInvocations: [Requirements] {
        record.withLock { $0.persistOnlyFirstPageInvocations }
    }

    /// Runs on each ``persistOnlyFirstPage(requirements:)`` call, on the calling thread
    /// (Teller's background scheduler).
    public var persistOnlyFirstPageClosure: (@Sendable (Requirements) -> Void)? {
        get { record.withLock { $0.persistOnlyFirstPageClosure } }
        set { record.withLock { $0.persistOnlyFirstPageClosure = newValue } }
    }

    // MARK: deleteCache(_:)

    /// Records the call, then runs ``deleteCacheClosure`` if set.
    ///
    /// - Parameter requirements: Recorded in ``deleteCacheInvocations``.
    public func deleteCache(_ requirements: Requirements) {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.deleteCacheInvocations.append(requirements)
            return record.deleteCacheClosure
        }
        closure?(requirements)
    }

    /// Whether ``deleteCache(_:)`` was called.
    public var deleteCacheCalled: Bool {
        deleteCacheCallsCount > 0
    }

    /// How many times ``deleteCache(_:)`` was called.
    public var deleteCacheCallsCount: Int {
        record.withLock { $0.deleteCacheInvocations.count }
    }

    /// The requirements of every ``deleteCache(_:)`` call, oldest first.
    public var deleteCacheInvocations: [Requirements] {
        record.withLock { $0.deleteCacheInvocations }
    }

    /// Runs on each ``deleteCache(_:)`` call, on the calling thread (Teller's background
    /// scheduler).
    public var deleteCacheClosure: (@Sendable (Requirements) -> Void)? {
        get { record.withLock { $0.deleteCacheClosure } }
        set { record.withLock { $0.deleteCacheClosure = newValue } }
    }

    // MARK: fetchFreshCache(requirements:pagingRequirements:)

    /// Records the call and returns ``fetchFreshCacheClosure``'s `Single`, or one that succeeds
    /// at once with `.failure(MockClosureNotSetError)` when it is `nil`.
    ///
    /// - Parameters:
    ///   - requirements: Recorded in ``fetchFreshCacheInvocations``.
    ///   - pagingRequirements: Recorded in ``fetchFreshCacheInvocations``.
    /// - Returns: The page's response.
    public func fetchFreshCache(
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) -> Single<PageResponse> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.fetchFreshCacheInvocations.append((requirements, pagingRequirements))
            return record.fetchFreshCacheClosure
        }
        return closure?(requirements, pagingRequirements)
            ?? .just(.failure(MockClosureNotSetError(closureName: "fetchFreshCacheClosure")))
    }

    /// Whether ``fetchFreshCache(requirements:pagingRequirements:)`` was called.
    public var fetchFreshCacheCalled: Bool {
        fetchFreshCacheCallsCount > 0
    }

    /// How many times ``fetchFreshCache(requirements:pagingRequirements:)`` was called.
    public var fetchFreshCacheCallsCount: Int {
        record.withLock { $0.fetchFreshCacheInvocations.count }
    }

    /// The arguments of every ``fetchFreshCache(requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var fetchFreshCacheInvocations: [(requirements: Requirements, pagingRequirements: PagingRequirements)] {
        record.withLock { $0.fetchFreshCacheInvocations }
    }

    /// What ``fetchFreshCache(requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's background scheduler).
    public var fetchFreshCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Single<PageResponse>)? {
        get { record.withLock { $0.fetchFreshCacheClosure } }
        set { record.withLock { $0.fetchFreshCacheClosure = newValue } }
    }

    // MARK: saveCache(_:requirements:pagingRequirements:)

    /// Records the call, then runs ``saveCacheClosure`` if set.
    ///
    /// - Parameters:
    ///   - cache: Recorded in ``saveCacheInvocations``.
    ///   - requirements: Recorded in ``saveCacheInvocations``.
    ///   - pagingRequirements: Recorded in ``saveCacheInvocations``.
    /// - Throws: Whatever ``saveCacheClosure`` throws; never throws by itself.
    public func saveCache(
        _ cache: PagingFetchResult,
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) throws {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.saveCacheInvocations.append((cache, requirements, pagingRequirements))
            return record.saveCacheClosure
        }
        try closure?(cache, requirements, pagingRequirements)
    }

    /// Whether ``saveCache(_:requirements:pagingRequirements:)`` was called.
    public var saveCacheCalled: Bool {
        saveCacheCallsCount > 0
    }

    /// How many times ``saveCache(_:requirements:pagingRequirements:)`` was called.
    public var saveCacheCallsCount: Int {
        record.withLock { $0.saveCacheInvocations.count }
    }

    /// The arguments of every ``saveCache(_:requirements:pagingRequirements:)`` call, oldest first.
    public var saveCacheInvocations:
        [(cache: PagingFetchResult, requirements: Requirements, pagingRequirements: PagingRequirements)]
    {
        record.withLock { $0.saveCacheInvocations }
    }

    /// Runs on each ``saveCache(_:requirements:pagingRequirements:)`` call, on the calling thread
    /// (Teller's background scheduler); throw to make the save fail.
    public var saveCacheClosure: (@Sendable (PagingFetchResult, Requirements, PagingRequirements) throws -> Void)? {
        get { record.withLock { $0.saveCacheClosure } }
        set { record.withLock { $0.saveCacheClosure = newValue } }
    }

    // MARK: observeCache(requirements:pagingRequirements:)

    /// Records the call and returns ``observeCacheClosure``'s observable, or
    /// `Observable.empty()` when it is `nil`.
    ///
    /// - Parameters:
    ///   - requirements: Recorded in ``observeCacheInvocations``.
    ///   - pagingRequirements: Recorded in ``observeCacheInvocations``.
    /// - Returns: The cache observable.
    public func observeCache(
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) -> Observable<PagingCache> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.observeCacheInvocations.append((requirements, pagingRequirements))
            return record.observeCacheClosure
        }
        return closure?(requirements, pagingRequirements) ?? .empty()
    }

    /// Whether ``observeCache(requirements:pagingRequirements:)`` was called.
    public var observeCacheCalled: Bool {
        observeCacheCallsCount > 0
    }

    /// How many times ``observeCache(requirements:pagingRequirements:)`` was called.
    public var observeCacheCallsCount: Int {
        record.withLock { $0.observeCacheInvocations.count }
    }

    /// The arguments of every ``observeCache(requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var observeCacheInvocations: [(requirements: Requirements, pagingRequirements: PagingRequirements)] {
        record.withLock { $0.observeCacheInvocations }
    }

    /// What ``observeCache(requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's UI scheduler).
    public var observeCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Observable<PagingCache>)? {
        get { record.withLock { $0.observeCacheClosure } }
        set { record.withLock { $0.observeCacheClosure = newValue } }
    }

    // MARK: isCacheEmpty(_:requirements:pagingRequirements:)

    /// Records the call and returns ``isCacheEmptyClosure``'s answer; when it is `nil`, `true`
    /// for an empty `Collection` and `false` for anything else.
    ///
    /// - Parameters:
    ///   - cache: Recorded in ``isCacheEmptyInvocations``.
    ///   - requirements: Recorded in ``isCacheEmptyInvocations``.
    ///   - pagingRequirements: Recorded in ``isCacheEmptyInvocations``.
    /// - Returns: Whether the cache counts as empty.
    public func isCacheEmpty(
        _ cache: PagingCache,
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) -> Bool {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.isCacheEmptyInvocations.append((cache, requirements, pagingRequirements))
            return record.isCacheEmptyClosure
        }
        if let closure { return closure(cache, requirements, pagingRequirements) }
        return (cache as? any Collection)?.isEmpty ?? false
    }

    /// Whether ``isCacheEmpty(_:requirements:pagingRequirements:)`` was called.
    public var isCacheEmptyCalled: Bool {
        isCacheEmptyCallsCount > 0
    }

    /// How many times ``isCacheEmpty(_:requirements:pagingRequirements:)`` was called.
    public var isCacheEmptyCallsCount: Int {
        record.withLock { $0.isCacheEmptyInvocations.count }
    }

    /// The arguments of every ``isCacheEmpty(_:requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var isCacheEmptyInvocations:
        [(cache: PagingCache, requirements: Requirements, pagingRequirements: PagingRequirements)]
    {
        record.withLock { $0.isCacheEmptyInvocations }
    }

    /// What ``isCacheEmpty(_:requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's UI scheduler).
    public var isCacheEmptyClosure: (@Sendable (PagingCache, Requirements, PagingRequirements) -> Bool)? {
        get { record.withLock { $0.isCacheEmptyClosure } }
        set { record.withLock { $0.isCacheEmptyClosure = newValue } }
    }
}
