import Foundation
import Teller
import TellerRx

/// A `PagingRepositoryDataSource` for tests: give it to a real `TellerPagingRepository` (or to
/// your own code that drives a paging data source) and script each member with its `…Closure`.
///
/// Generic over the same six types as Teller-iOS's mock, in the same order:
/// `PagingRepositoryDataSourceMock<PagingCache, Requirements, PagingRequirements,
/// PagingFetchResult, FetchError, NextPageRequirements>`. Use `Error` as `FetchError` when
/// fetches may fail with any error, and `Void` as `NextPageRequirements` when a page needs
/// nothing from the one before.
///
/// Every paging member records its calls (`…Called`, `…CallsCount`, and `…Invocations` for
/// members with arguments). Unset closures give neutral answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | `maxAgeOfCache` | one hour |
/// | `automaticallyRefresh` | `true` (Teller's default) |
/// | ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` | `currentPagingRequirements` |
/// | ``persistOnlyFirstPage(requirements:)`` | records the call, trims nothing |
/// | ``deleteCache(_:)`` | records the call, deletes nothing |
/// | ``fetchFreshCache(requirements:pagingRequirements:)`` | a fetch that fails at once with a ``MockClosureNotSetError`` naming the closure to set (as `.failure` when `FetchError` can hold it, otherwise as the `Single`'s error) |
/// | ``saveCache(_:requirements:pagingRequirements:)`` | records the call, saves nothing |
/// | ``observeCache(requirements:pagingRequirements:)`` | `Observable.empty()`: the cache is never read |
/// | ``isCacheEmpty(_:requirements:pagingRequirements:)`` | `true` for an empty `Collection` (array, string, …), otherwise `false` |
///
/// The members shared with ``RepositoryDataSourceMock`` (`mockCalled`, `maxAgeOfCache…`,
/// `automaticallyRefresh…`) come from ``RecordingDataSourceMock``. Like every paging data
/// source, the mock is not a `RepositoryDataSource`: a plain `TellerRepository` does not take it.
///
/// `TellerPagingRepository` reads `maxAgeOfCache` and `automaticallyRefresh` once, when it
/// is created: set their closures before creating the repository.
///
/// ```swift
/// let dataSource = PagingRepositoryDataSourceMock<[Repo], ReposRequirements, ReposPagingRequirements, [Repo], Error, Void>()
/// dataSource.fetchFreshCacheClosure = { _, page in
///     .just(.success(PagedFetchResponse(areMorePages: page.pageNumber < 3, nextPageRequirements: nil, fetchResponse: [])))
/// }
/// dataSource.getNextPagePagingRequirementsClosure = { current, _ in current.nextPage() }
/// ```
///
/// Threads: members may be called from any thread (Teller calls them on its schedulers); the
/// records are guarded by locks, and closures run on the calling thread, outside them.
public final class PagingRepositoryDataSourceMock<
    PagingCache: Sendable,
    Requirements: RepositoryRequirements,
    PagingRequirements: PagingRepositoryRequirements,
    PagingFetchResult: Sendable,
    FetchError: Error,
    NextPageRequirements: Sendable
>:
    PagingRepositoryDataSource, RecordingDataSourceMock, @unchecked Sendable
{
    // @unchecked: all mutable state is in the records, behind their locks.

    /// What ``fetchFreshCache(requirements:pagingRequirements:)`` answers with.
    public typealias PageResponse = FetchResponse<
        PagedFetchResponse<PagingFetchResult, NextPageRequirements>, FetchError
    >
    /// The arguments a paging member receives besides a cache.
    public typealias Page = (requirements: Requirements, pagingRequirements: PagingRequirements)
    /// The arguments of ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``.
    public typealias NextPageArguments = (
        currentPagingRequirements: PagingRequirements, nextPageRequirements: NextPageRequirements?
    )
    /// The type of ``getNextPagePagingRequirementsClosure``.
    public typealias NextPageClosure = @Sendable (PagingRequirements, NextPageRequirements?) -> PagingRequirements
    /// The type of ``saveCacheClosure``.
    public typealias SaveClosure = @Sendable (PagingFetchResult, Requirements, PagingRequirements) throws -> Void
    /// The type of ``isCacheEmptyClosure``.
    public typealias IsCacheEmptyClosure = @Sendable (PagingCache, Requirements, PagingRequirements) -> Bool
    /// The arguments of ``saveCache(_:requirements:pagingRequirements:)``.
    public typealias SaveArguments = (
        cache: PagingFetchResult, requirements: Requirements, pagingRequirements: PagingRequirements
    )
    /// The arguments of ``isCacheEmpty(_:requirements:pagingRequirements:)``.
    public typealias IsCacheEmptyArguments = (
        cache: PagingCache, requirements: Requirements, pagingRequirements: PagingRequirements
    )

    /// Where the members shared with ``RepositoryDataSourceMock`` keep their records.
    public let dataSourceRecords: DataSourceMockRecords
    private let nextPageRecord: CallRecord<NextPageArguments, NextPageClosure>
    private let persistOnlyFirstPageRecord: CallRecord<Requirements, @Sendable (Requirements) -> Void>
    private let deleteCacheRecord: CallRecord<Requirements, @Sendable (Requirements) -> Void>
    private let fetchFreshCacheRecord:
        CallRecord<Page, @Sendable (Requirements, PagingRequirements) -> Single<PageResponse>>
    private let saveCacheRecord: CallRecord<SaveArguments, SaveClosure>
    private let observeCacheRecord:
        CallRecord<Page, @Sendable (Requirements, PagingRequirements) -> Observable<PagingCache>>
    private let isCacheEmptyRecord: CallRecord<IsCacheEmptyArguments, IsCacheEmptyClosure>

    /// Creates a mock with no closures set: every member gives its default answer.
    public init() {
        dataSourceRecords = DataSourceMockRecords()
        let use = dataSourceRecords.use
        nextPageRecord = CallRecord(use)
        persistOnlyFirstPageRecord = CallRecord(use)
        deleteCacheRecord = CallRecord(use)
        fetchFreshCacheRecord = CallRecord(use)
        saveCacheRecord = CallRecord(use)
        observeCacheRecord = CallRecord(use)
        isCacheEmptyRecord = CallRecord(use)
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
        nextPageRecord.call((currentPagingRequirements, nextPageRequirements))?(
            currentPagingRequirements,
            nextPageRequirements
        ) ?? currentPagingRequirements
    }

    /// Whether ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``
    /// was called.
    public var getNextPagePagingRequirementsCalled: Bool { nextPageRecord.called }

    /// How many times
    /// ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` was called.
    public var getNextPagePagingRequirementsCallsCount: Int { nextPageRecord.callsCount }

    /// The arguments of every
    /// ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)`` call,
    /// oldest first.
    public var getNextPagePagingRequirementsInvocations: [NextPageArguments] { nextPageRecord.invocations }

    /// What ``getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``
    /// returns, called on the calling thread (Teller's background scheduler).
    public var getNextPagePagingRequirementsClosure: NextPageClosure? {
        get { nextPageRecord.closure }
        set { nextPageRecord.closure = newValue }
    }

    // MARK: persistOnlyFirstPage(requirements:)

    /// Records the call, then runs ``persistOnlyFirstPageClosure`` if set.
    ///
    /// - Parameter requirements: Recorded in ``persistOnlyFirstPageInvocations``.
    public func persistOnlyFirstPage(requirements: Requirements) {
        persistOnlyFirstPageRecord.call(requirements)?(requirements)
    }

    /// Whether ``persistOnlyFirstPage(requirements:)`` was called.
    public var persistOnlyFirstPageCalled: Bool { persistOnlyFirstPageRecord.called }

    /// How many times ``persistOnlyFirstPage(requirements:)`` was called.
    public var persistOnlyFirstPageCallsCount: Int { persistOnlyFirstPageRecord.callsCount }

    /// The requirements of every ``persistOnlyFirstPage(requirements:)`` call, oldest first.
    public var persistOnlyFirstPageInvocations: [Requirements] { persistOnlyFirstPageRecord.invocations }

    /// Runs on each ``persistOnlyFirstPage(requirements:)`` call, on the calling thread
    /// (Teller's background scheduler).
    public var persistOnlyFirstPageClosure: (@Sendable (Requirements) -> Void)? {
        get { persistOnlyFirstPageRecord.closure }
        set { persistOnlyFirstPageRecord.closure = newValue }
    }

    // MARK: deleteCache(_:)

    /// Records the call, then runs ``deleteCacheClosure`` if set.
    ///
    /// - Parameter requirements: Recorded in ``deleteCacheInvocations``.
    public func deleteCache(_ requirements: Requirements) {
        deleteCacheRecord.call(requirements)?(requirements)
    }

    /// Whether ``deleteCache(_:)`` was called.
    public var deleteCacheCalled: Bool { deleteCacheRecord.called }

    /// How many times ``deleteCache(_:)`` was called.
    public var deleteCacheCallsCount: Int { deleteCacheRecord.callsCount }

    /// The requirements of every ``deleteCache(_:)`` call, oldest first.
    public var deleteCacheInvocations: [Requirements] { deleteCacheRecord.invocations }

    /// Runs on each ``deleteCache(_:)`` call, on the calling thread (Teller's background
    /// scheduler).
    public var deleteCacheClosure: (@Sendable (Requirements) -> Void)? {
        get { deleteCacheRecord.closure }
        set { deleteCacheRecord.closure = newValue }
    }

    // MARK: fetchFreshCache(requirements:pagingRequirements:)

    /// Records the call and returns ``fetchFreshCacheClosure``'s `Single`, or one that fails at
    /// once with a ``MockClosureNotSetError`` when it is `nil`.
    ///
    /// - Parameters:
    ///   - requirements: Recorded in ``fetchFreshCacheInvocations``.
    ///   - pagingRequirements: Recorded in ``fetchFreshCacheInvocations``.
    /// - Returns: The page's response.
    public func fetchFreshCache(
        requirements: Requirements,
        pagingRequirements: PagingRequirements
    ) -> Single<PageResponse> {
        fetchFreshCacheRecord.call((requirements, pagingRequirements))?(requirements, pagingRequirements)
            ?? dataSourceRecords.unsetFetch()
    }

    /// Whether ``fetchFreshCache(requirements:pagingRequirements:)`` was called.
    public var fetchFreshCacheCalled: Bool { fetchFreshCacheRecord.called }

    /// How many times ``fetchFreshCache(requirements:pagingRequirements:)`` was called.
    public var fetchFreshCacheCallsCount: Int { fetchFreshCacheRecord.callsCount }

    /// The arguments of every ``fetchFreshCache(requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var fetchFreshCacheInvocations: [Page] { fetchFreshCacheRecord.invocations }

    /// What ``fetchFreshCache(requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's background scheduler).
    public var fetchFreshCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Single<PageResponse>)? {
        get { fetchFreshCacheRecord.closure }
        set { fetchFreshCacheRecord.closure = newValue }
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
        try saveCacheRecord.call((cache, requirements, pagingRequirements))?(cache, requirements, pagingRequirements)
    }

    /// Whether ``saveCache(_:requirements:pagingRequirements:)`` was called.
    public var saveCacheCalled: Bool { saveCacheRecord.called }

    /// How many times ``saveCache(_:requirements:pagingRequirements:)`` was called.
    public var saveCacheCallsCount: Int { saveCacheRecord.callsCount }

    /// The arguments of every ``saveCache(_:requirements:pagingRequirements:)`` call, oldest first.
    public var saveCacheInvocations: [SaveArguments] { saveCacheRecord.invocations }

    /// Runs on each ``saveCache(_:requirements:pagingRequirements:)`` call, on the calling thread
    /// (Teller's background scheduler); throw to make the save fail.
    public var saveCacheClosure: SaveClosure? {
        get { saveCacheRecord.closure }
        set { saveCacheRecord.closure = newValue }
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
        observeCacheRecord.call((requirements, pagingRequirements))?(requirements, pagingRequirements) ?? .empty()
    }

    /// Whether ``observeCache(requirements:pagingRequirements:)`` was called.
    public var observeCacheCalled: Bool { observeCacheRecord.called }

    /// How many times ``observeCache(requirements:pagingRequirements:)`` was called.
    public var observeCacheCallsCount: Int { observeCacheRecord.callsCount }

    /// The arguments of every ``observeCache(requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var observeCacheInvocations: [Page] { observeCacheRecord.invocations }

    /// What ``observeCache(requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's UI scheduler).
    public var observeCacheClosure: (@Sendable (Requirements, PagingRequirements) -> Observable<PagingCache>)? {
        get { observeCacheRecord.closure }
        set { observeCacheRecord.closure = newValue }
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
        isCacheEmptyRecord.call((cache, requirements, pagingRequirements))?(cache, requirements, pagingRequirements)
            ?? dataSourceRecords.unsetIsCacheEmpty(cache)
    }

    /// Whether ``isCacheEmpty(_:requirements:pagingRequirements:)`` was called.
    public var isCacheEmptyCalled: Bool { isCacheEmptyRecord.called }

    /// How many times ``isCacheEmpty(_:requirements:pagingRequirements:)`` was called.
    public var isCacheEmptyCallsCount: Int { isCacheEmptyRecord.callsCount }

    /// The arguments of every ``isCacheEmpty(_:requirements:pagingRequirements:)`` call, oldest
    /// first.
    public var isCacheEmptyInvocations: [IsCacheEmptyArguments] { isCacheEmptyRecord.invocations }

    /// What ``isCacheEmpty(_:requirements:pagingRequirements:)`` returns, called on the calling
    /// thread (Teller's UI scheduler).
    public var isCacheEmptyClosure: IsCacheEmptyClosure? {
        get { isCacheEmptyRecord.closure }
        set { isCacheEmptyRecord.closure = newValue }
    }
}
