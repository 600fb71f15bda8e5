import Foundation
import Teller
import TellerRx

/// What ``RepositoryDataSourceMock`` and ``PagingRepositoryDataSourceMock`` record of the
/// members they share (`maxAgeOfCache`, `automaticallyRefresh`), and the mock's use. You reach it
/// through the mocks' members, which ``RecordingDataSourceMock`` provides; it has no public
/// members of its own.
///
/// Threads: any; each member's record has its own lock.
public final class DataSourceMockRecords: Sendable {
    let use = MockUse()
    let maxAgeOfCache: CallRecord<Void, @Sendable () -> Period>
    let automaticallyRefresh: CallRecord<Void, @Sendable () -> Bool>

    init() {
        maxAgeOfCache = CallRecord(use)
        automaticallyRefresh = CallRecord(use)
    }

    /// `maxAgeOfCacheClosure`'s period, or one hour.
    func readMaxAgeOfCache() -> Period {
        maxAgeOfCache.call(())?() ?? Period(unit: 1, component: .hour)
    }

    /// `automaticallyRefreshClosure`'s answer, or `true` (Teller's default).
    func readAutomaticallyRefresh() -> Bool {
        automaticallyRefresh.call(())?() ?? true
    }

    /// What an unset fetch closure answers: a failed fetch naming the closure, as a response
    /// when the fetch error type can hold it, otherwise as the `Single`'s error.
    func unsetFetch<Value, Failure: Error>() -> Single<FetchResponse<Value, Failure>> {
        let error = MockClosureNotSetError(closureName: "fetchFreshCacheClosure")
        if let failure = error as? Failure { return .just(.failure(failure)) }
        return .error(error)
    }

    /// What an unset `isCacheEmptyClosure` answers: `true` for an empty `Collection`, otherwise
    /// `false`.
    func unsetIsCacheEmpty(_ cache: some Any) -> Bool {
        (cache as? any Collection)?.isEmpty ?? false
    }
}

/// The members ``RepositoryDataSourceMock`` and ``PagingRepositoryDataSourceMock`` share:
/// `maxAgeOfCache` and `automaticallyRefresh` themselves, with their `…Called`, `…CallsCount`
/// and `…Closure`, and `mockCalled`. Written once here, so both mocks behave alike; you use the
/// members, not the protocol.
///
/// Threads: every member may be used from any thread; the records are guarded by locks.
public protocol RecordingDataSourceMock: TellerDataSource, AnyObject {
    /// Where the shared members keep their records.
    var dataSourceRecords: DataSourceMockRecords { get }
}

extension RecordingDataSourceMock {
    /// Whether any member the mock records was used.
    public var mockCalled: Bool {
        dataSourceRecords.use.happened
    }

    /// ``maxAgeOfCacheClosure``'s period, or one hour when it is `nil`. Teller reads it on the
    /// thread that creates the repository.
    public var maxAgeOfCache: Period {
        dataSourceRecords.readMaxAgeOfCache()
    }

    /// ``automaticallyRefreshClosure``'s answer, or `true` (Teller's default) when it is `nil`.
    /// Teller reads it on the thread that creates the repository.
    public var automaticallyRefresh: Bool {
        dataSourceRecords.readAutomaticallyRefresh()
    }

    /// Whether `maxAgeOfCache` was read.
    public var maxAgeOfCacheCalled: Bool { dataSourceRecords.maxAgeOfCache.called }

    /// How many times `maxAgeOfCache` was read.
    public var maxAgeOfCacheCallsCount: Int { dataSourceRecords.maxAgeOfCache.callsCount }

    /// What `maxAgeOfCache` returns, called on the reading thread; one hour when `nil`.
    public var maxAgeOfCacheClosure: (@Sendable () -> Period)? {
        get { dataSourceRecords.maxAgeOfCache.closure }
        set { dataSourceRecords.maxAgeOfCache.closure = newValue }
    }

    /// Whether `automaticallyRefresh` was read.
    public var automaticallyRefreshCalled: Bool { dataSourceRecords.automaticallyRefresh.called }

    /// How many times `automaticallyRefresh` was read.
    public var automaticallyRefreshCallsCount: Int { dataSourceRecords.automaticallyRefresh.callsCount }

    /// What `automaticallyRefresh` returns, called on the reading thread; `true` (Teller's
    /// default) when `nil`.
    public var automaticallyRefreshClosure: (@Sendable () -> Bool)? {
        get { dataSourceRecords.automaticallyRefresh.closure }
        set { dataSourceRecords.automaticallyRefresh.closure = newValue }
    }
}
