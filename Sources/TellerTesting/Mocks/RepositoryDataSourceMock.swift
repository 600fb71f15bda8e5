import Foundation
import Teller
import TellerRx

/// A `RepositoryDataSource` for tests: give it to a real `TellerRepository`
/// (or to your own code that drives a data source) and script each member with its `…Closure`.
///
/// Generic over the same four types as Teller-iOS's mock, in the same order:
/// `RepositoryDataSourceMock<Cache, Requirements, FetchResult, FetchError>`. Use `Error` as
/// `FetchError` when fetches may fail with any error.
///
/// Every member records its calls (`…Called`, `…CallsCount`, and `…Invocations` for members
/// with arguments). Unset closures give neutral answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | `maxAgeOfCache` | one hour |
/// | `automaticallyRefresh` | `true` (Teller's default) |
/// | ``fetchFreshCache(requirements:)`` | a fetch that fails at once with a ``MockClosureNotSetError`` naming the closure to set (as `.failure` when `FetchError` can hold it, otherwise as the `Single`'s error) |
/// | ``saveCache(_:requirements:)`` | records the call, saves nothing |
/// | ``observeCache(requirements:)`` | `Observable.empty()`: the cache is never read |
/// | ``isCacheEmpty(_:requirements:)`` | `true` for an empty `Collection` (array, string, …), otherwise `false` |
///
/// A failing fetch is the default rather than one that never ends, so a repository that
/// refreshes unexpectedly shows an error that says what to set, and no fetch is left running
/// for its tag. The members shared with ``PagingRepositoryDataSourceMock`` (`mockCalled`,
/// `maxAgeOfCache…`, `automaticallyRefresh…`) come from ``RecordingDataSourceMock``.
///
/// `TellerRepository` reads `maxAgeOfCache` and `automaticallyRefresh` once, when it is
/// created: set their closures before creating the repository.
///
/// ```swift
/// let dataSource = RepositoryDataSourceMock<[Repo], ReposRequirements, [Repo], Error>()
/// dataSource.fetchFreshCacheClosure = { _ in .just(.success([Repo(id: 1, name: "teller")])) }
/// dataSource.observeCacheClosure = { _ in .just([]) }
/// ```
///
/// Threads: members may be called from any thread (Teller calls them on its schedulers); the
/// records are guarded by locks, and closures run on the calling thread, outside them.
public final class RepositoryDataSourceMock<
    Cache: Sendable,
    Requirements: RepositoryRequirements,
    FetchResult: Sendable,
    FetchError: Error
>:
    RepositoryDataSource, RecordingDataSourceMock, @unchecked Sendable
{
    // @unchecked: all mutable state is in the records, behind their locks.

    /// Where the members shared with ``PagingRepositoryDataSourceMock`` keep their records.
    public let dataSourceRecords: DataSourceMockRecords
    private let fetchFreshCacheRecord: CallRecord<Requirements, @Sendable (Requirements) -> Single<Response>>
    private let saveCacheRecord: CallRecord<(cache: FetchResult, requirements: Requirements), SaveClosure>
    private let observeCacheRecord: CallRecord<Requirements, @Sendable (Requirements) -> Observable<Cache>>
    private let isCacheEmptyRecord: CallRecord<(cache: Cache, requirements: Requirements), IsCacheEmptyClosure>

    /// What ``fetchFreshCache(requirements:)`` answers with.
    public typealias Response = FetchResponse<FetchResult, FetchError>
    /// The type of ``saveCacheClosure``.
    public typealias SaveClosure = @Sendable (FetchResult, Requirements) throws -> Void
    /// The type of ``isCacheEmptyClosure``.
    public typealias IsCacheEmptyClosure = @Sendable (Cache, Requirements) -> Bool

    /// Creates a mock with no closures set: every member gives its default answer.
    public init() {
        dataSourceRecords = DataSourceMockRecords()
        let use = dataSourceRecords.use
        fetchFreshCacheRecord = CallRecord(use)
        saveCacheRecord = CallRecord(use)
        observeCacheRecord = CallRecord(use)
        isCacheEmptyRecord = CallRecord(use)
    }

    // MARK: fetchFreshCache(requirements:)

    /// Records `requirements` and returns ``fetchFreshCacheClosure``'s `Single`, or one that
    /// fails at once with a ``MockClosureNotSetError`` when it is `nil`.
    ///
    /// - Parameter requirements: Recorded in ``fetchFreshCacheInvocations``.
    /// - Returns: The fetch's response.
    public func fetchFreshCache(requirements: Requirements) -> Single<Response> {
        fetchFreshCacheRecord.call(requirements)?(requirements) ?? dataSourceRecords.unsetFetch()
    }

    /// Whether ``fetchFreshCache(requirements:)`` was called.
    public var fetchFreshCacheCalled: Bool { fetchFreshCacheRecord.called }

    /// How many times ``fetchFreshCache(requirements:)`` was called.
    public var fetchFreshCacheCallsCount: Int { fetchFreshCacheRecord.callsCount }

    /// The requirements of every ``fetchFreshCache(requirements:)`` call, oldest first.
    public var fetchFreshCacheInvocations: [Requirements] { fetchFreshCacheRecord.invocations }

    /// What ``fetchFreshCache(requirements:)`` returns, called on the calling thread (Teller's
    /// background scheduler).
    public var fetchFreshCacheClosure: (@Sendable (Requirements) -> Single<Response>)? {
        get { fetchFreshCacheRecord.closure }
        set { fetchFreshCacheRecord.closure = newValue }
    }

    // MARK: saveCache(_:requirements:)

    /// Records the call, then runs ``saveCacheClosure`` if set.
    ///
    /// - Parameters:
    ///   - cache: Recorded in ``saveCacheInvocations``.
    ///   - requirements: Recorded in ``saveCacheInvocations``.
    /// - Throws: Whatever ``saveCacheClosure`` throws; never throws by itself.
    public func saveCache(_ cache: FetchResult, requirements: Requirements) throws {
        try saveCacheRecord.call((cache, requirements))?(cache, requirements)
    }

    /// Whether ``saveCache(_:requirements:)`` was called.
    public var saveCacheCalled: Bool { saveCacheRecord.called }

    /// How many times ``saveCache(_:requirements:)`` was called.
    public var saveCacheCallsCount: Int { saveCacheRecord.callsCount }

    /// The arguments of every ``saveCache(_:requirements:)`` call, oldest first.
    public var saveCacheInvocations: [(cache: FetchResult, requirements: Requirements)] {
        saveCacheRecord.invocations
    }

    /// Runs on each ``saveCache(_:requirements:)`` call, on the calling thread (Teller's
    /// background scheduler); throw to make the save fail.
    public var saveCacheClosure: SaveClosure? {
        get { saveCacheRecord.closure }
        set { saveCacheRecord.closure = newValue }
    }

    // MARK: observeCache(requirements:)

    /// Records `requirements` and returns ``observeCacheClosure``'s observable, or
    /// `Observable.empty()` when it is `nil`.
    ///
    /// - Parameter requirements: Recorded in ``observeCacheInvocations``.
    /// - Returns: The cache observable.
    public func observeCache(requirements: Requirements) -> Observable<Cache> {
        observeCacheRecord.call(requirements)?(requirements) ?? .empty()
    }

    /// Whether ``observeCache(requirements:)`` was called.
    public var observeCacheCalled: Bool { observeCacheRecord.called }

    /// How many times ``observeCache(requirements:)`` was called.
    public var observeCacheCallsCount: Int { observeCacheRecord.callsCount }

    /// The requirements of every ``observeCache(requirements:)`` call, oldest first.
    public var observeCacheInvocations: [Requirements] { observeCacheRecord.invocations }

    /// What ``observeCache(requirements:)`` returns, called on the calling thread (Teller's UI
    /// scheduler).
    public var observeCacheClosure: (@Sendable (Requirements) -> Observable<Cache>)? {
        get { observeCacheRecord.closure }
        set { observeCacheRecord.closure = newValue }
    }

    // MARK: isCacheEmpty(_:requirements:)

    /// Records the call and returns ``isCacheEmptyClosure``'s answer; when it is `nil`, `true`
    /// for an empty `Collection` and `false` for anything else.
    ///
    /// - Parameters:
    ///   - cache: Recorded in ``isCacheEmptyInvocations``.
    ///   - requirements: Recorded in ``isCacheEmptyInvocations``.
    /// - Returns: Whether the cache counts as empty.
    public func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        isCacheEmptyRecord.call((cache, requirements))?(cache, requirements)
            ?? dataSourceRecords.unsetIsCacheEmpty(cache)
    }

    /// Whether ``isCacheEmpty(_:requirements:)`` was called.
    public var isCacheEmptyCalled: Bool { isCacheEmptyRecord.called }

    /// How many times ``isCacheEmpty(_:requirements:)`` was called.
    public var isCacheEmptyCallsCount: Int { isCacheEmptyRecord.callsCount }

    /// The arguments of every ``isCacheEmpty(_:requirements:)`` call, oldest first.
    public var isCacheEmptyInvocations: [(cache: Cache, requirements: Requirements)] {
        isCacheEmptyRecord.invocations
    }

    /// What ``isCacheEmpty(_:requirements:)`` returns, called on the calling thread (Teller's UI
    /// scheduler).
    public var isCacheEmptyClosure: IsCacheEmptyClosure? {
        get { isCacheEmptyRecord.closure }
        set { isCacheEmptyRecord.closure = newValue }
    }
}

/// The error a mock's fetch fails with when its closure was not set. Its description names the
/// closure to set.
public struct MockClosureNotSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the mock property that was `nil`, e.g. `"fetchFreshCacheClosure"`.
    public let closureName: String

    /// Creates the error for the closure named `closureName`.
    ///
    /// - Parameter closureName: The mock property that was `nil`.
    public init(closureName: String) {
        self.closureName = closureName
    }

    /// What to do: "Set `fetchFreshCacheClosure` on the mock …".
    public var description: String {
        "Set `\(closureName)` on the mock to answer this call; the mock answered with this error instead."
    }
}
