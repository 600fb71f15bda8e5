import Foundation
import Teller
import TellerRx

/// A `RepositoryDataSource` for tests: give it to a real `TellerRepository`
/// (or to your own code that drives a data source) and script each member with its `…Closure`.
///
/// Every member records its calls (`…Called`, `…CallsCount`, and `…Invocations` for members
/// with arguments). Unset closures give neutral answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | ``maxAgeOfCache`` | one hour |
/// | ``automaticallyRefresh`` | `true` (Teller's default) |
/// | ``fetchFreshCache(requirements:)`` | `.just(.failure(MockClosureNotSetError(...)))`: the fetch fails at once, naming the closure to set |
/// | ``saveCache(_:requirements:)`` | records the call, saves nothing |
/// | ``observeCache(requirements:)`` | `Observable.empty()`: the cache is never read |
/// | ``isCacheEmpty(_:requirements:)`` | `true` for an empty `Collection` (array, string, …), otherwise `false` |
///
/// A failing fetch is the default rather than one that never ends, so a repository that
/// refreshes unexpectedly shows an error that says what to set, and no fetch is left running
/// for its tag.
///
/// `TellerRepository` reads ``maxAgeOfCache`` and ``automaticallyRefresh`` once, when it is
/// created: set their closures before creating the repository.
///
/// ```swift
/// let dataSource = RepositoryDataSourceMock<[Repo], ReposRequirements, [Repo]>()
/// dataSource.fetchFreshCacheClosure = { _ in .just(.success([Repo(id: 1, name: "teller")])) }
/// dataSource.observeCacheClosure = { _ in .just([]) }
/// ```
///
/// Threads: members may be called from any thread (Teller calls them on its schedulers); the
/// records are guarded by a lock, and closures run on the calling thread, outside the lock.
public final class RepositoryDataSourceMock<
    Cache: Sendable,
    Requirements: RepositoryRequirements,
    FetchResult: Sendable
>:
    RepositoryDataSource, @unchecked Sendable
{
    // @unchecked: all mutable state is in `record`, behind its lock.

    /// Fetches may fail with any error.
    public typealias FetchError = any Error

    private struct Record {
        var mockCalled = false
        var maxAgeOfCacheCallsCount = 0
        var maxAgeOfCacheClosure: (@Sendable () -> Period)?
        var automaticallyRefreshCallsCount = 0
        var automaticallyRefreshClosure: (@Sendable () -> Bool)?
        var fetchFreshCacheInvocations: [Requirements] = []
        var fetchFreshCacheClosure: (@Sendable (Requirements) -> Single<FetchResponse<FetchResult, any Error>>)?
        var saveCacheInvocations: [(cache: FetchResult, requirements: Requirements)] = []
        var saveCacheClosure: (@Sendable (FetchResult, Requirements) throws -> Void)?
        var observeCacheInvocations: [Requirements] = []
        var observeCacheClosure: (@Sendable (Requirements) -> Observable<Cache>)?
        var isCacheEmptyInvocations: [(cache: Cache, requirements: Requirements)] = []
        var isCacheEmptyClosure: (@Sendable (Cache, Requirements) -> Bool)?
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

    // MARK: fetchFreshCache(requirements:)

    /// Records `requirements` and returns ``fetchFreshCacheClosure``'s `Single`, or one that
    /// succeeds at once with `.failure(MockClosureNotSetError)` when it is `nil`.
    ///
    /// - Parameter requirements: Recorded in ``fetchFreshCacheInvocations``.
    /// - Returns: The fetch's response.
    public func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, any Error>> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.fetchFreshCacheInvocations.append(requirements)
            return record.fetchFreshCacheClosure
        }
        return closure?(requirements)
            ?? .just(.failure(MockClosureNotSetError(closureName: "fetchFreshCacheClosure")))
    }

    /// Whether ``fetchFreshCache(requirements:)`` was called.
    public var fetchFreshCacheCalled: Bool {
        fetchFreshCacheCallsCount > 0
    }

    /// How many times ``fetchFreshCache(requirements:)`` was called.
    public var fetchFreshCacheCallsCount: Int {
        record.withLock { $0.fetchFreshCacheInvocations.count }
    }

    /// The requirements of every ``fetchFreshCache(requirements:)`` call, oldest first.
    public var fetchFreshCacheInvocations: [Requirements] {
        record.withLock { $0.fetchFreshCacheInvocations }
    }

    /// What ``fetchFreshCache(requirements:)`` returns, called on the calling thread (Teller's
    /// background scheduler).
    public var fetchFreshCacheClosure: (@Sendable (Requirements) -> Single<FetchResponse<FetchResult, any Error>>)? {
        get { record.withLock { $0.fetchFreshCacheClosure } }
        set { record.withLock { $0.fetchFreshCacheClosure = newValue } }
    }

    // MARK: saveCache(_:requirements:)

    /// Records the call, then runs ``saveCacheClosure`` if set.
    ///
    /// - Parameters:
    ///   - cache: Recorded in ``saveCacheInvocations``.
    ///   - requirements: Recorded in ``saveCacheInvocations``.
    /// - Throws: Whatever ``saveCacheClosure`` throws; never throws by itself.
    public func saveCache(_ cache: FetchResult, requirements: Requirements) throws {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.saveCacheInvocations.append((cache, requirements))
            return record.saveCacheClosure
        }
        try closure?(cache, requirements)
    }

    /// Whether ``saveCache(_:requirements:)`` was called.
    public var saveCacheCalled: Bool {
        saveCacheCallsCount > 0
    }

    /// How many times ``saveCache(_:requirements:)`` was called.
    public var saveCacheCallsCount: Int {
        record.withLock { $0.saveCacheInvocations.count }
    }

    /// The arguments of every ``saveCache(_:requirements:)`` call, oldest first.
    public var saveCacheInvocations: [(cache: FetchResult, requirements: Requirements)] {
        record.withLock { $0.saveCacheInvocations }
    }

    /// Runs on each ``saveCache(_:requirements:)`` call, on the calling thread (Teller's
    /// background scheduler); throw to make the save fail.
    public var saveCacheClosure: (@Sendable (FetchResult, Requirements) throws -> Void)? {
        get { record.withLock { $0.saveCacheClosure } }
        set { record.withLock { $0.saveCacheClosure = newValue } }
    }

    // MARK: observeCache(requirements:)

    /// Records `requirements` and returns ``observeCacheClosure``'s observable, or
    /// `Observable.empty()` when it is `nil`.
    ///
    /// - Parameter requirements: Recorded in ``observeCacheInvocations``.
    /// - Returns: The cache observable.
    public func observeCache(requirements: Requirements) -> Observable<Cache> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.observeCacheInvocations.append(requirements)
            return record.observeCacheClosure
        }
        return closure?(requirements) ?? .empty()
    }

    /// Whether ``observeCache(requirements:)`` was called.
    public var observeCacheCalled: Bool {
        observeCacheCallsCount > 0
    }

    /// How many times ``observeCache(requirements:)`` was called.
    public var observeCacheCallsCount: Int {
        record.withLock { $0.observeCacheInvocations.count }
    }

    /// The requirements of every ``observeCache(requirements:)`` call, oldest first.
    public var observeCacheInvocations: [Requirements] {
        record.withLock { $0.observeCacheInvocations }
    }

    /// What ``observeCache(requirements:)`` returns, called on the calling thread (Teller's UI
    /// scheduler).
    public var observeCacheClosure: (@Sendable (Requirements) -> Observable<Cache>)? {
        get { record.withLock { $0.observeCacheClosure } }
        set { record.withLock { $0.observeCacheClosure = newValue } }
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
        let closure = record.withLock { record in
            record.mockCalled = true
            record.isCacheEmptyInvocations.append((cache, requirements))
            return record.isCacheEmptyClosure
        }
        if let closure { return closure(cache, requirements) }
        return (cache as? any Collection)?.isEmpty ?? false
    }

    /// Whether ``isCacheEmpty(_:requirements:)`` was called.
    public var isCacheEmptyCalled: Bool {
        isCacheEmptyCallsCount > 0
    }

    /// How many times ``isCacheEmpty(_:requirements:)`` was called.
    public var isCacheEmptyCallsCount: Int {
        record.withLock { $0.isCacheEmptyInvocations.count }
    }

    /// The arguments of every ``isCacheEmpty(_:requirements:)`` call, oldest first.
    public var isCacheEmptyInvocations: [(cache: Cache, requirements: Requirements)] {
        record.withLock { $0.isCacheEmptyInvocations }
    }

    /// What ``isCacheEmpty(_:requirements:)`` returns, called on the calling thread (Teller's UI
    /// scheduler).
    public var isCacheEmptyClosure: (@Sendable (Cache, Requirements) -> Bool)? {
        get { record.withLock { $0.isCacheEmptyClosure } }
        set { record.withLock { $0.isCacheEmptyClosure = newValue } }
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
